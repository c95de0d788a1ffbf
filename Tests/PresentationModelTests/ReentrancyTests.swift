import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

@Suite struct ReentrancyTests {
  @Test func nestedPostIsDeliveredCompletelyBeforeTheOuterPostContinues() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
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
    let log = LockedLog<String>()
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
    let log = LockedLog<String>()
    let added = LockedLog<ObserverToken>()
    let adder = center.observe(Counted.self) { note in
      log.record("adder \(note.value)")
      if note.value == 1 {
        added.record(center.observe(Counted.self) { note in log.record("added \(note.value)") })
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
    let log = LockedLog<String>()
    let later = LockedLog<ObserverToken>()
    let canceller = center.observe(Counted.self) { _ in
      log.record("canceller")
      for token in later.entries { token.cancel() }
    }
    later.record(center.observe(Counted.self) { _ in log.record("victim") })
    center.post(Counted(value: 1))
    #expect(log.entries == ["canceller"])
    #expect(center.observerCount(for: Counted.self) == 1)
    withExtendedLifetime(canceller) {}
  }

  @Test func handlerMayCancelItself() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let box = LockedLog<ObserverToken>()
    box.record(
      center.observe(Counted.self) { note in
        log.record("\(note.value)")
        for token in box.entries { token.cancel() }
      })
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])
    #expect(box.entries.allSatisfy { !$0.isActive })
  }

  @Test func handlerThatReleasesTheLastReferenceToAnotherObserversOwner() throws {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let owners = LockedBox<[String: Owner]>([:])
    var victim: Owner? = Owner("victim", log: log)
    let tracker = LeakTracker()
    tracker.track(try #require(victim))
    owners.withLock { $0["victim"] = victim }

    let killer = center.observe(Counted.self) { _ in
      log.record("killer")
      // Taken out under the lock and dropped after it is released: the victim's deinit runs here,
      // inside a delivery, but not under the box's lock.
      _ = owners.withLock { $0.removeValue(forKey: "victim") }
    }
    center.observe(Counted.self, owner: try #require(victim)) { owner, _ in owner.log.record(owner.name) }
    victim = nil

    center.post(Counted(value: 1))
    expectReleased(tracker, "the handler dropped the last reference to the victim, inside the delivery")
    #expect(log.entries == ["killer"])
    #expect(center.observerCount(for: Counted.self) == 1)
    withExtendedLifetime(killer) {}
  }

  @Test func ownerWhoseDeinitCancelsTokensDuringADeliveryDoesNotDeadlock() throws {
    final class SelfCleaningOwner: Sendable {
      let tokens = LockedLog<ObserverToken>()
      deinit {
        for token in tokens.entries { token.cancel() }
      }
    }
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let owners = LockedBox<SelfCleaningOwner?>(SelfCleaningOwner())
    let killer = center.observe(Counted.self) { _ in
      let released = owners.withLock { owner in
        defer { owner = nil }
        return owner
      }
      _ = released  // last reference dropped at the end of this closure, outside the lock
    }
    try owners.withLock { owner in
      try #require(owner).tokens.record(center.observe(Counted.self) { _ in log.record("should not run") })
    }
    center.post(Counted(value: 1))
    #expect(log.entries.isEmpty)
    #expect(center.observerCount(for: Counted.self) == 1)
    withExtendedLifetime(killer) {}
  }

  @Test func oneShotThatPostsTheSameTypeFiresOnce() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
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
    let log = LockedLog<String>()
    let box = LockedLog<ObserverToken>()
    let first = center.observe(Counted.self) { note in
      log.record("first \(note.value)")
      if note.value == 1 {
        box.record(center.observe(Counted.self) { note in log.record("third \(note.value)") })
      }
    }
    let second = center.observe(Counted.self) { note in log.record("second \(note.value)") }
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["first 1", "second 1", "first 2", "second 2", "third 2"])
    withExtendedLifetime([first, second]) {}
  }
}
