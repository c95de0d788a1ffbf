import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

@Suite struct ObservingTests {
  @Test func ownerBoundObserverReceivesOwnerAndPayloadUntilOwnerDeinitialises() throws {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    var owner: Owner? = Owner("widget", log: log)
    let tracker = LeakTracker()
    tracker.track(try #require(owner))
    center.observe(NodeDeleted.self, owner: try #require(owner)) { owner, note in
      owner.log.record("\(owner.name) \(note.nodeID)")
    }

    center.post(NodeDeleted(nodeID: 1))
    #expect(log.entries == ["widget 1"])
    #expect(center.observerCount(for: NodeDeleted.self) == 1)

    owner = nil
    expectReleased(tracker, "the center must not retain the owner")
    expectNoObservers(in: center, of: NodeDeleted.self, timeout: .zero)
    center.post(NodeDeleted(nodeID: 2))
    #expect(log.entries == ["widget 1"])
  }

  @Test func discardingTheOwnerBoundTokenDoesNotEndTheObservation() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let owner = Owner("o", log: log)
    do {
      _ = center.observe(Counted.self, owner: owner) { owner, note in owner.log.record("\(note.value)") }
    }
    center.post(Counted(value: 1))
    #expect(log.entries == ["1"])
    #expect(center.observerCount(for: Counted.self) == 1)
  }

  @Test func ownerBoundTokenEndsTheObservationEarly() throws {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let owner = Owner("o", log: log)
    let token = center.observe(Counted.self, owner: owner) { owner, note in owner.log.record("\(note.value)") }
    #expect(token.isActive)
    token.cancel()
    #expect(!token.isActive)
    center.post(Counted(value: 1))
    #expect(log.entries.isEmpty)
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func tokenBoundObserverEndsWhenTokenIsReleased() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    var token: ObserverToken? = center.observe(Counted.self) { note in log.record("\(note.value)") }
    center.post(Counted(value: 1))
    #expect(center.observerCount(for: Counted.self) == 1)
    #expect(token?.isActive == true)

    token = nil
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func tokenBoundObserverEndsWhenCancelled() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let token = center.observe(Counted.self) { note in log.record("\(note.value)") }
    center.post(Counted(value: 1))
    token.cancel()
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])
    #expect(!token.isActive)
  }

  @Test func observersOnlySeeTheirOwnType() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let deleted = center.observe(NodeDeleted.self) { _ in log.record("deleted") }
    let changed = center.observe(RelationshipsChanged.self) { _ in log.record("changed") }
    center.post(RelationshipsChanged())
    center.post(NodeDeleted(nodeID: 3))
    #expect(log.entries == ["changed", "deleted"])
    #expect(center.observerCount(for: NodeDeleted.self) == 1)
    #expect(center.observerCount(for: Counted.self) == 0)
    deleted.cancel()
    changed.cancel()
  }

  @Test func senderFilterDeliversOnlyPostsFromThatSender() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let first = Sender()
    let second = Sender()
    let filtered = center.observe(Counted.self, from: first) { note in log.record("filtered \(note.value)") }
    let unfiltered = center.observe(Counted.self) { note in log.record("all \(note.value)") }

    center.post(Counted(value: 1), from: first)
    center.post(Counted(value: 2), from: second)
    center.post(Counted(value: 3))
    #expect(log.entries == ["filtered 1", "all 1", "all 2", "all 3"])
    filtered.cancel()
    unfiltered.cancel()
  }

  @Test func senderIsNeverRetainedAndItsDeathEndsFilteredObservers() throws {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    var sender: Sender? = Sender()
    let tracker = LeakTracker()
    tracker.track(try #require(sender))
    let token = center.observe(Counted.self, from: try #require(sender) as Sender) { note in log.record("\(note.value)")
    }
    center.post(Counted(value: 1), from: try #require(sender))
    #expect(center.observerCount(for: Counted.self) == 1)

    sender = nil
    expectReleased(tracker, "the center must not retain a sender filter")
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
    #expect(!token.isActive)

    let other = Sender()
    center.post(Counted(value: 2), from: other)
    #expect(log.entries == ["1"])
  }

  @Test func postingFromASenderDoesNotRetainIt() {
    let center = TypedNotificationCenter()
    let token = center.observe(Counted.self) { _ in }
    let tracker = LeakTracker()
    do {
      let sender = Sender()
      tracker.track(sender)
      center.post(Counted(value: 1), from: sender)
    }
    expectReleased(tracker, "the center must not retain the sender of a post")
    token.cancel()
  }

  @Test func postingATypeNobodyObservesIsANoOp() {
    let center = TypedNotificationCenter()
    center.post(NodeDeleted(nodeID: 1))
    center.post(NodeDeleted(nodeID: 1), from: Sender())
    #expect(center.observerCount(for: NodeDeleted.self) == 0)
    #expect(center.registrations.isEmpty)
  }

  @Test func defaultCenterIsSharedAndUsable() {
    let log = LockedLog<String>()
    struct DefaultCenterProbe: TypedNotification {}
    let token = TypedNotificationCenter.default.observe(DefaultCenterProbe.self) { _ in log.record("probe") }
    #expect(TypedNotificationCenter.default === TypedNotificationCenter.default)
    TypedNotificationCenter.default.post(DefaultCenterProbe())
    token.cancel()
    TypedNotificationCenter.default.post(DefaultCenterProbe())
    #expect(log.entries == ["probe"])
  }
}
