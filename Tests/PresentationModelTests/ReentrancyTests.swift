import PresentationModel
import Testing

/// Holds tokens created inside handlers, so a test can keep or cancel them later.
final class TokenBox: Sendable {
  private let storage = LockedState<[ObserverToken]>([])
  func append(_ token: ObserverToken) { storage.withLock { $0.append(token) } }
  var tokens: [ObserverToken] { storage.withLock { $0 } }
  func removeAll() { storage.withLock { $0.removeAll() } }
}

/// Holds owners so a handler can release the last reference to one.
final class OwnerBox: Sendable {
  private let storage = LockedState<[String: Owner]>([:])
  func set(_ owner: Owner?, for key: String) { storage.withLock { $0[key] = owner } }
  func release(_ key: String) {
    // Take it out under the lock, release it outside: its deinit must not run under our lock.
    var released = storage.withLock { $0.removeValue(forKey: key) }
    released = nil
    _ = released
  }
}

@Suite struct ReentrancyTests {
  @Test func nestedPostIsDeliveredCompletelyBeforeTheOuterPostContinues() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let first = center.observe(NodeDeleted.self) { note in
      log.record("A deleted \(note.nodeID)")
      center.post(RelationshipsChanged())
    }
    let second = center.observe(NodeDeleted.self) { note in log.record("B deleted \(note.nodeID)") }
    let changed = center.observe(RelationshipsChanged.self) { _ in log.record("changed") }

    center.post(NodeDeleted(nodeID: 1))
    #expect(log.entries == ["A deleted 1", "changed", "B deleted 1"])
    withExtendedLifetime([first, second, changed]) {}
  }

  @Test func nestedPostOfTheSameTypeReachesEveryObserverBeforeTheOuterOneContinues() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let first = center.observe(Counted.self) { note in
      log.record("A\(note.value)")
      if note.value == 0 { center.post(Counted(value: 1)) }
    }
    let second = center.observe(Counted.self) { note in log.record("B\(note.value)") }
    center.post(Counted(value: 0))
    #expect(log.entries == ["A0", "A1", "B1", "B0"])
    withExtendedLifetime([first, second]) {}
  }

  @Test func observerAddedDuringADeliveryDoesNotGetThatDelivery() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let added = TokenBox()
    let adder = center.observe(Counted.self) { note in
      log.record("adder \(note.value)")
      if note.value == 1 {
        added.append(center.observe(Counted.self) { note in log.record("added \(note.value)") })
      }
    }
    center.post(Counted(value: 1))
    #expect(log.entries == ["adder 1"])
    center.post(Counted(value: 2))
    #expect(log.entries == ["adder 1", "adder 2", "added 2"])
    withExtendedLifetime(adder) {}
  }

  @Test func observerCancelledDuringADeliveryIsNotCalledAfterwards() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let later = TokenBox()
    let canceller = center.observe(Counted.self) { _ in
      log.record("canceller")
      for token in later.tokens { token.cancel() }
    }
    later.append(center.observe(Counted.self) { _ in log.record("victim") })
    center.post(Counted(value: 1))
    #expect(log.entries == ["canceller"])
    #expect(center.observerCount(for: Counted.self) == 1)
    withExtendedLifetime(canceller) {}
  }

  @Test func handlerMayCancelItself() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let box = TokenBox()
    box.append(
      center.observe(Counted.self) { note in
        log.record("\(note.value)")
        for token in box.tokens { token.cancel() }
      })
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])
    #expect(box.tokens.allSatisfy { !$0.isActive })
  }

  @Test func handlerThatReleasesTheLastReferenceToAnotherObserversOwner() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let owners = OwnerBox()
    var victim: Owner? = Owner("victim", log: log)
    weak let weakVictim = victim
    owners.set(victim, for: "victim")

    let killer = center.observe(Counted.self) { _ in
      log.record("killer")
      owners.release("victim")  // the victim's deinit runs here, inside a delivery
    }
    center.observe(Counted.self, owner: victim!) { owner, _ in owner.log.record(owner.name) }
    victim = nil

    center.post(Counted(value: 1))
    #expect(weakVictim == nil)
    #expect(log.entries == ["killer"])
    #expect(center.observerCount(for: Counted.self) == 1)
    withExtendedLifetime(killer) {}
  }

  @Test func ownerWhoseDeinitCancelsTokensDuringADeliveryDoesNotDeadlock() {
    final class SelfCleaningOwner: Sendable {
      let tokens = TokenBox()
      deinit {
        for token in tokens.tokens { token.cancel() }
      }
    }
    let center = TypedNotificationCenter()
    let log = Recorder()
    let owners = LockedState<SelfCleaningOwner?>(SelfCleaningOwner())
    let killer = center.observe(Counted.self) { _ in
      let released = owners.withLock { owner in
        defer { owner = nil }
        return owner
      }
      _ = released  // last reference dropped at the end of this closure, outside the lock
    }
    owners.withLock { owner in
      owner!.tokens.append(center.observe(Counted.self) { _ in log.record("should not run") })
    }
    center.post(Counted(value: 1))
    #expect(log.entries.isEmpty)
    #expect(center.observerCount(for: Counted.self) == 1)
    withExtendedLifetime(killer) {}
  }

  @Test func oneShotThatPostsTheSameTypeFiresOnce() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let once = center.observeOnce(Counted.self) { note in
      log.record("once \(note.value)")
      center.post(Counted(value: note.value + 1))
    }
    center.post(Counted(value: 1))
    center.post(Counted(value: 10))
    #expect(log.entries == ["once 1"])
    #expect(!once.isActive)
  }

  @Test func observingTheSameTypeInsideAHandlerWhileTheCenterIsBusyKeepsOrder() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let box = TokenBox()
    let first = center.observe(Counted.self) { note in
      log.record("first \(note.value)")
      if note.value == 1 {
        box.append(center.observe(Counted.self) { note in log.record("third \(note.value)") })
      }
    }
    let second = center.observe(Counted.self) { note in log.record("second \(note.value)") }
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["first 1", "second 1", "first 2", "second 2", "third 2"])
    withExtendedLifetime([first, second]) {}
  }
}
