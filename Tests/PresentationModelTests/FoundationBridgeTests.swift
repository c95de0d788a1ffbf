import Dispatch
import Foundation
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

/// A Foundation notification with a payload in `userInfo`, as system notifications carry theirs.
struct CacheTrimmed: FoundationNotification {
  static var name: Notification.Name { Notification.Name("PresentationModelTests.CacheTrimmed") }
  let freedBytes: Int

  init?(_ notification: Notification) {
    guard let freedBytes = notification.userInfo?["freedBytes"] as? Int else { return nil }
    self.freedBytes = freedBytes
  }
}

/// A notification that never converts; only the skip-and-report test uses it.
struct NeverConverts: FoundationNotification {
  static var name: Notification.Name { Notification.Name("PresentationModelTests.NeverConverts") }
  init?(_ notification: Notification) { nil }
}

/// Foundation's typed messages, posted and observed through Foundation's own API.
struct DocumentSaved: NotificationCenter.MainActorMessage {
  typealias Subject = FoundationSubject
  let title: String
}

struct SyncFinished: NotificationCenter.AsyncMessage {
  typealias Subject = FoundationSubject
  let count: Int
}

final class FoundationSubject: Sendable {}

/// Posts `CacheTrimmed` the way any Foundation code does.
func postTrimmed(_ freedBytes: Int, to center: NotificationCenter, object: AnyObject? = nil) {
  center.post(name: CacheTrimmed.name, object: object, userInfo: ["freedBytes": freedBytes])
}

/// A main-actor owner, `Sendable` as every `@MainActor` class is: what the bridge's
/// `observeOnMainActor` and its `MainActorMessage` form take, as `TypedNotificationCenter`'s
/// `observeOnMainActor` does.
@MainActor
final class MainActorTitles {
  var titles: [String] = []
}

/// Waits (cooperatively, bounded by the suite's time limit) until `condition` holds.
///
/// A time limit cancels the test's task; the loop stops then, and the test fails here instead of
/// spinning forever (`Task.yield()` does not end on cancellation).
@MainActor
func eventually(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
  while !condition() {
    guard !Task.isCancelled else {
      Issue.record("the awaited condition never held before the time limit", sourceLocation: sourceLocation)
      return
    }
    await Task.yield()
    await drainMainQueue()
  }
}

@Suite(.timeLimit(.minutes(1))) @MainActor struct FoundationBridgeTests {
  @Test func ownerBoundObservationReceivesTypedValuesAndEndsWithItsOwner() async throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<String>()
    let handler = LeakTracker()
    var owner: Owner? = Owner("meter", log: log)
    let probe = HandlerCapture(trackedBy: handler)
    bridge.observe(CacheTrimmed.self, owner: try #require(owner)) { owner, trimmed in
      withExtendedLifetime(probe) { owner.log.record("\(owner.name) \(trimmed.freedBytes)") }
    }
    _ = consume probe
    postTrimmed(512, to: foundation)
    #expect(log.entries == ["meter 512"])
    #expect(bridge.observerCount(for: CacheTrimmed.self) == 1)

    owner = nil
    #expect(handler.liveCount == 1, "nobody noticed yet: an owner's deinit cannot be hooked")
    postTrimmed(1_024, to: foundation)  // notices the dead owner, ends the observation
    #expect(log.entries == ["meter 512"], "nothing delivered after the owner deinitialised")
    await expectReleased(handler, "Foundation released the block it held: its observer was removed")
    #expect(bridge.observerCount(for: CacheTrimmed.self) == 0)
    #expect(bridge.registrations.isEmpty)
    postTrimmed(2_048, to: foundation)
    #expect(log.entries == ["meter 512"])
  }

  /// Queries only read, as on the centers: the observer of a dead owner stays installed (its
  /// handler alive) until a post reaches it or a registration's sweep finds it.
  @Test func queriesChangeNothingAndALaterRegistrationSweepRemovesTheObserverOfADeadOwner() throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let handler = LeakTracker()
    var owner: Owner? = Owner("o", log: LockedLog<String>())
    let probe = HandlerCapture(trackedBy: handler)
    bridge.observe(CacheTrimmed.self, owner: try #require(owner)) { _, _ in withExtendedLifetime(probe) {} }
    _ = consume probe
    owner = nil
    #expect(bridge.observerCount(for: CacheTrimmed.self) == 0)
    #expect(bridge.registrations.isEmpty)
    #expect(handler.liveCount == 1, "asking ended nothing: the Foundation observer still holds the handler")
    // The 32nd registration reaches the sweep threshold.
    let tokens = (1..<32).map { _ in bridge.observe(CacheTrimmed.self) { _ in } }
    expectReleased(handler, "the sweep ended the dead owner's observation, removing its Foundation observer")
    #expect(bridge.observerCount(for: CacheTrimmed.self) == tokens.count)
  }

  @Test func tokenBoundObservationEndsWhenCancelledOrReleased() {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<String>()
    let firstHandler = LeakTracker()
    let secondHandler = LeakTracker()
    let firstProbe = HandlerCapture(trackedBy: firstHandler)
    let secondProbe = HandlerCapture(trackedBy: secondHandler)
    let first = bridge.observe(CacheTrimmed.self) { trimmed in
      withExtendedLifetime(firstProbe) { log.record("first \(trimmed.freedBytes)") }
    }
    var second: ObserverToken? = bridge.observe(CacheTrimmed.self) { trimmed in
      withExtendedLifetime(secondProbe) { log.record("second \(trimmed.freedBytes)") }
    }
    _ = (consume firstProbe, consume secondProbe)
    postTrimmed(1, to: foundation)
    // Foundation decides the order of its observers (on Linux it does not keep registration order).
    #expect(log.entries.sorted() == ["first 1", "second 1"])
    first.cancel()
    expectReleased(firstHandler, "cancel removed the Foundation observer at once")
    second = nil
    expectReleased(secondHandler, "releasing the token removed the Foundation observer at once")
    postTrimmed(2, to: foundation)
    #expect(log.entries.count == 2)
    #expect(bridge.registrations.isEmpty)
    #expect(second == nil)
  }

  @Test func objectFilterDeliversOnlyThatObjectsPosts() {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<String>()
    let left = Sender()
    let right = Sender()
    let token = bridge.observe(CacheTrimmed.self, from: left) { trimmed in log.record("\(trimmed.freedBytes)") }
    postTrimmed(1, to: foundation, object: left)
    postTrimmed(2, to: foundation, object: right)
    #expect(log.entries == ["1"])
    #expect(token.info.filtersBySender)
    token.cancel()
  }

  @Test func aNotificationThatDoesNotConvertIsSkippedAndReportedOnce() {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<String>()
    let token = bridge.observe(NeverConverts.self) { _ in log.record("called") }
    for _ in 0..<3 { foundation.post(name: NeverConverts.name, object: nil) }
    #expect(log.entries.isEmpty)
    #if DEBUG
      #expect(ConversionFailures.reportCount(for: NeverConverts.self) == 1)
    #endif
    #expect(token.isActive, "a skipped notification does not end the observation")
    token.cancel()
  }

  @Test func mainActorDeliveryWithAMainActorOwner() async throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let handler = LeakTracker()
    var recents: MainActorTitles? = MainActorTitles()
    let probe = HandlerCapture(trackedBy: handler)
    bridge.observeOnMainActor(CacheTrimmed.self, owner: try #require(recents)) { recents, trimmed in
      withExtendedLifetime(probe) {
        MainActor.assertIsolated()
        recents.titles.append("\(trimmed.freedBytes)")
      }
    }
    _ = consume probe
    postTrimmed(1, to: foundation)
    #expect(recents?.titles == ["1"], "posted on the main actor: delivered before post returned")
    onAnotherThread { postTrimmed(2, to: foundation) }
    #expect(recents?.titles == ["1"])
    await drainMainQueue()
    #expect(recents?.titles == ["1", "2"], "posted elsewhere: delivered on the main actor")
    #expect(bridge.registrations.map(\.delivery) == [.mainActor])

    recents = nil
    postTrimmed(3, to: foundation)
    await drainMainQueue()
    await expectReleased(handler, "the Foundation observer was removed")
    #expect(bridge.observerCount(for: CacheTrimmed.self) == 0)
  }

  @Test func mainActorDeliveryEnqueuedBeforeTheTokenIsCancelledIsNotCalled() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let calls = MainActorTitles()
    let token = bridge.observeOnMainActor(CacheTrimmed.self) { trimmed in calls.titles.append("\(trimmed.freedBytes)") }
    onAnotherThread { postTrimmed(1, to: foundation) }
    token.cancel()  // the delivery is enqueued on the main queue, which cannot run yet
    await drainMainQueue()
    #expect(calls.titles.isEmpty)
  }

  @Test("Fails on purpose: registrations name the observe call, and the leak check sees them")
  func registrationsNameTheObserveCallAndTheLeakCheckSeesThem() async throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let owner = Owner("o", log: LockedLog<String>())
    let line = #line + 1
    bridge.observe(CacheTrimmed.self, owner: owner) { _, _ in }
    let registration = try #require(bridge.registrations.first)
    #expect(
      registration.description
        == "CacheTrimmed observed by Owner at PresentationModelTests/FoundationBridgeTests.swift:\(line), posting thread"
    )
    await withKnownIssue {
      await expectNoObservers(in: bridge, timeout: .zero)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("FoundationBridgeTests.swift:\(line)") }
    }
    withExtendedLifetime(owner) {}
  }

  @Test func aBridgeThatDeinitialisesRemovesItsFoundationObservers() throws {
    let foundation = NotificationCenter()
    var bridge: FoundationNotificationBridge? = FoundationNotificationBridge(foundation)
    let handler = LeakTracker()
    let log = LockedLog<String>()
    let probe = HandlerCapture(trackedBy: handler)
    let token = try #require(bridge).observe(CacheTrimmed.self) { _ in
      withExtendedLifetime(probe) { log.record("called") }
    }
    _ = consume probe
    bridge = nil
    expectReleased(handler, "the handler was released")
    #expect(!token.isActive)
    postTrimmed(1, to: foundation)
    #expect(log.entries.isEmpty)
  }

  @Test func theDefaultCenterWorksThroughTheDefaultBridge() async throws {
    let log = LockedLog<String>()
    var owner: Owner? = Owner("default", log: log)
    FoundationNotificationBridge.default.observe(CacheTrimmed.self, owner: try #require(owner)) { owner, trimmed in
      owner.log.record("\(trimmed.freedBytes)")
    }
    postTrimmed(7, to: .default)
    owner = nil
    postTrimmed(8, to: .default)
    #expect(log.entries == ["7"])
    await expectNoObservers(in: FoundationNotificationBridge.default, of: CacheTrimmed.self)
  }

  @Test func mainActorMessageObservedWithAnOwnerAndNoToken() async throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let handler = LeakTracker()
    var recents: MainActorTitles? = MainActorTitles()
    let probe = HandlerCapture(trackedBy: handler)
    bridge.observe(DocumentSaved.self, owner: try #require(recents)) { recents, saved in
      withExtendedLifetime(probe) { recents.titles.append(saved.title) }
    }
    _ = consume probe
    foundation.post(DocumentSaved(title: "Notes"))
    #expect(recents?.titles == ["Notes"])
    recents = nil
    foundation.post(DocumentSaved(title: "Later"))
    await expectReleased(handler, "the Foundation observer was removed")
    #expect(bridge.registrations.isEmpty)
  }

  @Test func mainActorMessageWithASubjectFilter() {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let recents = MainActorTitles()
    let mine = FoundationSubject()
    let other = FoundationSubject()
    bridge.observe(DocumentSaved.self, owner: recents, from: mine) { recents, saved in
      recents.titles.append(saved.title)
    }
    foundation.post(DocumentSaved(title: "mine"), subject: mine)
    foundation.post(DocumentSaved(title: "other"), subject: other)
    #expect(recents.titles == ["mine"])
  }

  @Test func asyncMessageObservedWithAnOwnerAndNoToken() async throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let handler = LeakTracker()
    let log = LockedLog<String>()
    var owner: Owner? = Owner("sync", log: log)
    let probe = HandlerCapture(trackedBy: handler)
    bridge.observe(SyncFinished.self, owner: try #require(owner)) { owner, finished in
      withExtendedLifetime(probe) { owner.log.record("\(owner.name) \(finished.count)") }
    }
    _ = consume probe
    #expect(bridge.registrations.map(\.delivery) == [.task])
    foundation.post(SyncFinished(count: 3))
    await eventually { log.entries.count == 1 }
    #expect(log.entries == ["sync 3"])
    owner = nil
    foundation.post(SyncFinished(count: 4))  // its task finds the owner gone and ends the observation
    await eventually { handler.liveCount == 0 }
    #expect(log.entries == ["sync 3"])
    #expect(bridge.registrations.isEmpty)
  }
}

/// `observeOnce` on the bridge: one call, then the observation ends and its Foundation observer
/// (with the handler) is removed; a cancel before the first post means no call at all.
@Suite(.timeLimit(.minutes(1))) struct FoundationBridgeOnceTests {
  @Test func tokenBoundOnceCallsOnceThenRemovesItsObserver() {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<Int>()
    let handler = LeakTracker()
    let probe = HandlerCapture(trackedBy: handler)
    let token = bridge.observeOnce(CacheTrimmed.self) { trimmed in
      withExtendedLifetime(probe) { log.record(trimmed.freedBytes) }
    }
    _ = consume probe
    #expect(bridge.registrations.map(\.isOneShot) == [true])
    postTrimmed(1, to: foundation)
    postTrimmed(2, to: foundation)
    #expect(log.entries == [1])
    #expect(!token.isActive)
    expectReleased(handler, "the one call ended the observation and removed its Foundation observer")
    #expect(bridge.registrations.isEmpty)
  }

  @Test func ownerBoundOnceCallsOnceWithItsOwner() throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<String>()
    let owner = Owner("o", log: log)
    bridge.observeOnce(CacheTrimmed.self, owner: owner) { owner, trimmed in
      owner.log.record("\(owner.name) \(trimmed.freedBytes)")
    }
    postTrimmed(1, to: foundation)
    postTrimmed(2, to: foundation)
    #expect(log.entries == ["o 1"])
    #expect(bridge.observerCount(for: CacheTrimmed.self) == 0)
  }

  @Test func cancelledBeforeAnyPostItIsNeverCalled() {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<Int>()
    let token = bridge.observeOnce(CacheTrimmed.self) { log.record($0.freedBytes) }
    token.cancel()
    postTrimmed(1, to: foundation)
    #expect(log.entries.isEmpty)
  }

  /// Several threads post at once: exactly one call.
  @Test func concurrentPostsCallItExactlyOnce() {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let log = LockedLog<Int>()
    let token = bridge.observeOnce(CacheTrimmed.self) { log.record($0.freedBytes) }
    DispatchQueue.concurrentPerform(iterations: 8) { postTrimmed($0, to: foundation) }
    #expect(log.entries.count == 1)
    withExtendedLifetime(token) {}
  }
}
