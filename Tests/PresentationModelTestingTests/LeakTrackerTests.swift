import Dispatch
import Foundation
import PresentationModelTesting
import Synchronization
import Testing

/// One test at a time: several hold another report's copies of every center's handlers for a
/// while, on purpose, and the other checks of the suite wait for such copies (run alongside the
/// report-wait tests with a timeout, which hold theirs for up to a second, the zero-deadline check
/// waited 0.2 to 3 s in each of its 10 attempts under ThreadSanitizer).
@Suite(.serialized) struct LeakTrackerTests {
  @Test func reportsNothingWhenEverythingDeallocates() async {
    let tracker = LeakTracker()
    do {
      let canvas = Canvas()
      canvas.widgets = [Widget(name: "a"), Widget(name: "b")]
      tracker.track(canvas)
      for widget in canvas.widgets { tracker.track(widget) }
    }
    let clock = ContinuousClock()
    let start = clock.now
    let report = await tracker.checkForLeaks()
    #expect(!report.hasLeaks)
    #expect(report.trackedCount == 3)
    #expect(report.description == "No leaks among 3 tracked objects")
    // A passing check does not wait for its deadline.
    #expect(start.duration(to: clock.now) < .milliseconds(500))
  }

  @Test("A closure capturing self is caught") func catchesAClosureCapturingSelf() async throws {
    let tracker = LeakTracker()
    let trackedLine = #line + 4
    do {
      let cycle = ClosureCycle()
      cycle.startObserving()
      tracker.track(cycle)
    }
    let report = await tracker.checkForLeaks(timeout: .milliseconds(50))
    let survivor = try #require(report.survivors.first)
    #expect(report.survivors.count == 1)
    #expect(survivor.typeName == "PresentationModelTestingTests.ClosureCycle")
    #expect(survivor.fileID == "PresentationModelTestingTests/LeakTrackerTests.swift")
    #expect(survivor.line == trackedLine)
    // The walk reads the captures of a closure stored in a property, and names the property.
    #expect(survivor.retainingPaths == ["ClosureCycle.onChange (a closure that captures it)"])
    #expect(survivor.description.contains("held by:\n  - ClosureCycle.onChange (a closure that captures it)"))
    #expect(report.description.contains("LeakTrackerTests.swift:\(trackedLine)"))
  }

  @Test("A survivor is worded the same in the report and in a test failure")
  func wordsASurvivorTheSameInTheReportAndInATestFailure() async throws {
    let tracker = LeakTracker()
    let canvas = Canvas()
    canvas.widgets = [Widget(name: "cycle")]
    canvas.widgets[0].canvas = canvas
    let cycleLine = #line + 1
    tracker.track(canvas.widgets[0])
    let unheld = Widget(name: "held by this test only")
    let unheldLine = #line + 1
    tracker.track(unheld)
    let report = await tracker.checkForLeaks(timeout: .zero)
    try #require(report.survivors.count == 2)
    let file = "PresentationModelTestingTests/LeakTrackerTests.swift"
    // Each holder on a line of its own: indented under its survivor in a report's list.
    let cycleWording = "(tracked at \(file):\(cycleLine)), held by:\n  - Widget.canvas.widgets[0]"
    let cycleFailureWording = "(tracked at \(file):\(cycleLine)), held by:\n- Widget.canvas.widgets[0]"
    let unheldWording =
      "(tracked at \(file):\(unheldLine)). No tracked object holds it in a stored property and no observer's handler "
      + "captures it: look for a closure capturing it, a strong delegate, or an owner that was not tracked "
      + "(on Linux, the heap scan found none it can name)."
    #expect(report.survivors[0].description == "PresentationModelTestingTests.Widget " + cycleWording)
    #expect(report.survivors[1].description == "PresentationModelTestingTests.Widget " + unheldWording)
    #expect(report.description.contains("\n- PresentationModelTestingTests.Widget " + cycleWording))
    #expect(report.description.contains("\n- PresentationModelTestingTests.Widget " + unheldWording))
    // The failure a test records for the same survivor says the same after its own preamble.
    #expect(
      SurvivorWording.leakFailure(report.survivors[0], waited: .seconds(1))
        == "Leaked PresentationModelTestingTests.Widget: still alive 1.0 s after the test ended " + cycleFailureWording)
    canvas.widgets.removeAll()
    _ = unheld
  }

  @Test("A strong delegate is caught and both holders are named")
  func catchesADelegateHeldStronglyAndNamesBothHolders() async throws {
    let tracker = LeakTracker()
    let parentLine = #line + 5
    let childLine = #line + 5
    do {
      let parent = DelegatingParent()
      parent.child.strongDelegate = parent
      tracker.track(parent)
      tracker.track(parent.child)
    }
    let report = await tracker.checkForLeaks(timeout: .milliseconds(50))
    try #require(report.survivors.count == 2)
    let parent = report.survivors[0]
    let child = report.survivors[1]
    #expect(parent.typeName.hasSuffix("DelegatingParent"))
    #expect(parent.line == parentLine)
    #expect(parent.retainingPaths == ["DelegatingChild.strongDelegate", "DelegatingParent.child.strongDelegate"])
    #expect(child.typeName.hasSuffix("DelegatingChild"))
    #expect(child.line == childLine)
    #expect(child.retainingPaths == ["DelegatingParent.child", "DelegatingChild.strongDelegate.child"])
  }

  @Test func aWeakDelegateDoesNotLeak() async {
    let tracker = LeakTracker()
    do {
      let parent = DelegatingParent()
      parent.child.weakDelegate = parent
      tracker.track(parent)
      tracker.track(parent.child)
    }
    let report = await tracker.checkForLeaks(timeout: .milliseconds(50))
    #expect(!report.hasLeaks)
  }

  @Test("The report names the index of a leaked widget") func namesTheIndexOfALeakedWidget()
    async throws
  {
    let tracker = LeakTracker()
    do {
      let canvas = Canvas()
      canvas.widgets = (0..<4).map { Widget(name: "\($0)") }
      canvas.widgets[2].canvas = canvas  // only this widget closes a cycle
      tracker.track(canvas)
      tracker.track(canvas.widgets[2])
      let report = await tracker.checkForLeaks(timeout: .zero)
      let widget = try #require(report.survivors.first { $0.typeName.hasSuffix("Widget") })
      #expect(widget.retainingPaths == ["Canvas.widgets[2]", "Widget.canvas.widgets[2]"])
      #expect(report.description.contains("held by:\n  - Canvas.widgets[2]\n  - Widget.canvas.widgets[2]"))
      canvas.widgets.removeAll()
    }
    #expect(await !tracker.checkForLeaks(timeout: .milliseconds(50)).hasLeaks)
  }

  @Test("An object tracked twice is reported once, at the first call")
  func trackingTheSameObjectTwiceReportsItOnceAtTheFirstCall() async throws {
    let tracker = LeakTracker()
    do {
      let cycle = ClosureCycle()
      cycle.startObserving()
      let firstLine = #line + 1
      tracker.track(cycle)
      tracker.track(cycle)
      let report = await tracker.checkForLeaks(timeout: .zero)
      #expect(report.trackedCount == 1)
      #expect(try #require(report.survivors.first).line == firstLine)
      cycle.onChange = nil
    }
    #expect(await !tracker.checkForLeaks(timeout: .milliseconds(50)).hasLeaks)
  }

  /// A zero deadline does not wait. An attempt that took 50 ms or more is made again, up to 10
  /// times: a loaded machine that preempts the check can make one attempt slow, but a check that
  /// really waits is slow in all 10.
  @Test func aZeroDeadlineChecksOnceAndDoesNotWait() async {
    let (tracker, holder) = trackLateWidget()
    defer { holder.completeAll() }
    var waits: [Duration] = []
    for _ in 0..<10 {
      let report = await tracker.checkForLeaks(timeout: .zero)
      #expect(report.survivors.count == 1)
      if report.waited < .milliseconds(50) { return }
      waits.append(report.waited)
    }
    Issue.record("each of 10 checks with a zero deadline waited 50 ms or more: \(waits)")
  }

  /// A leak report inside a test copies the handlers of that test's own registrations only: never
  /// another test's, whose captures it would keep alive while it reads them (another test may be
  /// checking right then that they went). Here two scopes, as two tests running in parallel, each
  /// observe with a handler capturing an object of their own, on a center both use, and a third
  /// registration is made outside both; the report made in the second scope copies its own handler
  /// only, and one made outside every scope (a `LeakTracker` used by hand outside the trait)
  /// copies the third only while the two scopes are open, every center's when none is. (Every
  /// report copied every live center's handlers before, and a check elsewhere had to wait for it to
  /// let go: up to two seconds.)
  @Test(.timeLimit(.minutes(1)), arguments: ObservedCenter.allCases)
  func aReportInATestCopiesOnlyThatTestsHandlers(on kind: ObservedCenter) async {
    let shared = await kind.makeCenter()
    let first = LeakScopeLog()
    let second = LeakScopeLog()
    let (firstCaptured, secondCaptured, outsideCaptured) = (Captured(), Captured(), Captured())
    let outsideToken = await kind.observe(on: shared, capturing: outsideCaptured)
    let (firstToken, secondToken, copied, unscoped) = await LeakScopeLog.withScope(first) {
      let firstToken = await kind.observe(on: shared, capturing: firstCaptured)
      return await LeakScopeLog.withScope(second) {
        let secondToken = await kind.observe(on: shared, capturing: secondCaptured)
        let copied = await onAThreadOfItsOwn {
          LiveRegistries.withRegistrationSnapshots(of: second) { snapshots in snapshots.map(\.identity) }
        }
        let unscoped = await onAThreadOfItsOwn {
          LiveRegistries.withRegistrationSnapshots(of: nil) { snapshots in Set(snapshots.map(\.identity)) }
        }
        return (firstToken, secondToken, copied, unscoped)
      }
    }
    let own = [firstToken, secondToken, outsideToken].map(\.registrationIdentity)
    #expect(copied == [secondToken.registrationIdentity])
    #expect(unscoped.intersection(own) == [outsideToken.registrationIdentity])
    let unscopedOnceClosed = await onAThreadOfItsOwn {
      LiveRegistries.withRegistrationSnapshots(of: nil) { snapshots in Set(snapshots.map(\.identity)) }
    }
    #expect(unscopedOnceClosed.isSuperset(of: own))
    withExtendedLifetime((shared, firstToken, secondToken, outsideToken)) {}
  }

  /// The tracker made inside a test reports the observers of that test that hold its survivors
  /// ("Held by the handler of …"), and not another test's handler capturing the same object.
  @Test(.timeLimit(.minutes(1)), arguments: ObservedCenter.allCases)
  func aTestsReportNamesItsOwnObserversOnly(on kind: ObservedCenter) async {
    let shared = await kind.makeCenter()
    let captured = Captured()
    let other = LeakScopeLog()
    let otherToken = await LeakScopeLog.withScope(other) { await kind.observe(on: shared, capturing: captured) }
    let own = LeakScopeLog()
    let (ownToken, report) = await LeakScopeLog.withScope(own) {
      let token = await kind.observe(on: shared, capturing: captured)
      let tracker = LeakTracker()
      tracker.track(captured)
      // The main-actor center's registrations are read on the main queue: a check made there reads
      // them at once, where one made elsewhere waits for the main queue (at most two seconds, and a
      // busy test run can hold it longer).
      let report =
        kind == .mainActor
        ? await MainActor.run { tracker.checkForLeaks(timeout: .zero) } : await tracker.checkForLeaks(timeout: .zero)
      return (token, report)
    }
    let lines = report.survivors.flatMap(\.retainingObservers).map(\.registration.line)
    #expect(lines == [ownToken.info.line], "\(report)")
    withExtendedLifetime((shared, otherToken, ownToken)) {}
  }

  @Test(.timeLimit(.minutes(1)))
  func waitsForAReleaseOneMainQueueTurnLate() async {
    let (tracker, holder) = trackLateWidget()
    // Alive now: a single early check, as the classic teardown pattern makes, would report it.
    #expect(tracker.liveCount == 1)
    DispatchQueue.main.async { holder.completeAll() }
    let report = await tracker.checkForLeaks(timeout: .seconds(10))
    #expect(!report.hasLeaks, "\(report)")
  }

  @Test(.timeLimit(.minutes(1)))
  func theBlockingCheckAlsoWaitsForALateRelease() {
    let (tracker, holder) = trackLateWidget()
    #expect(tracker.liveCount == 1)
    DispatchQueue.global().async { holder.completeAll() }
    let report = tracker.checkForLeaks(timeout: .seconds(10))
    #expect(!report.hasLeaks, "\(report)")
  }

  /// The blocking check waits for a release that a main-queue block makes 50 ms later, when it
  /// runs off the main queue (on a thread of its own: blocking one of the few cooperative threads
  /// could starve the tests running alongside).
  @Test(.timeLimit(.minutes(1)))
  func theBlockingCheckOffTheMainQueueWaitsForAMainQueueRelease() async {
    let (tracker, holder) = trackLateWidget()
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(50)) { holder.completeAll() }
    let report = await onAThreadOfItsOwn { tracker.checkForLeaks(timeout: .seconds(10)) }
    #expect(!report.hasLeaks, "\(report)")
    #expect(!report.mainQueueWasBlocked)
  }

  /// On the main actor the blocking check holds the main queue, so a release enqueued there cannot
  /// happen while it waits (it reported such a survivor without a word). It now says so and names
  /// the call to use instead, and that call, `await checkForLeaks()`, sees the release.
  @MainActor @Test(.timeLimit(.minutes(1)))
  func theBlockingCheckOnTheMainActorSaysItBlocksTheMainQueueAndWhatToCallInstead() async throws {
    let (tracker, holder) = trackLateWidget()
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(50)) { holder.completeAll() }
    let blocked = synchronousCheck(tracker, timeout: .milliseconds(200))
    #expect(blocked.survivors.map(\.typeName) == ["PresentationModelTestingTests.Widget"])
    #expect(blocked.mainQueueWasBlocked)
    #expect(blocked.description.contains("ran on the main queue"), "\(blocked)")
    #expect(blocked.description.contains("Call `await checkForLeaks()` instead"))
    let report = await tracker.checkForLeaks(timeout: .seconds(10))
    #expect(!report.hasLeaks, "\(report)")
  }

  @Test("The blocking check reports a survivor after its deadline")
  func theBlockingCheckReportsASurvivorAfterItsDeadline() {
    let tracker = LeakTracker()
    let cycle = ClosureCycle()
    cycle.startObserving()
    tracker.track(cycle)
    let report = tracker.checkForLeaks(timeout: .milliseconds(30))
    #expect(report.survivors.map(\.typeName) == ["PresentationModelTestingTests.ClosureCycle"])
    #expect(report.waited >= .milliseconds(30))
    cycle.onChange = nil
  }
}

/// A center, or the bridge, whose handlers a leak report copies.
enum ObservedCenter: CaseIterable, Sendable, CustomTestStringConvertible {
  case typed
  case mainActor
  case foundationBridge

  var testDescription: String {
    switch self {
    case .typed: "TypedNotificationCenter"
    case .mainActor: "MainActorNotificationCenter"
    case .foundationBridge: "FoundationNotificationBridge"
    }
  }

  /// A new center of this kind. The main-actor one is made by a hop to the main actor, never by a
  /// blocking wait for the main queue: that would hold one of the few cooperative threads (two on
  /// a 2-core machine) while the main queue may be waiting for them, and under ThreadSanitizer the
  /// whole run stalled (main-actor tests timed out after 60 s, a global-queue release did not run
  /// for 10 s).
  fileprivate func makeCenter() async -> any Sendable {
    switch self {
    case .typed: TypedNotificationCenter()
    case .mainActor: await MainActor.run { MainActorNotificationCenter() }
    case .foundationBridge: FoundationNotificationBridge(NotificationCenter())
    }
  }

  /// Observes a notification, by a token, on `center` (made by ``makeCenter()``), with a handler
  /// that captures `captured` and nothing else. The center must outlive the check: its `deinit`
  /// would drop the handler too.
  fileprivate func observe(on center: any Sendable, capturing captured: Captured) async -> ObserverToken {
    switch self {
    case .typed:
      return (center as! TypedNotificationCenter).observe(TypedPing.self) { _ in withExtendedLifetime(captured) {} }
    case .mainActor:
      let center = center as! MainActorNotificationCenter
      return await MainActor.run {
        center.observe(MainActorPing.self) { _ in withExtendedLifetime(captured) {} }
      }
    case .foundationBridge:
      return (center as! FoundationNotificationBridge).observe(BridgedPing.self) { _ in
        withExtendedLifetime(captured) {}
      }
    }
  }
}

/// The result of `body`, run on a thread of its own: the tests that block (semaphores, the main
/// queue, the blocking check) must not block one of the few cooperative threads, which would
/// starve the tests running alongside (a run on 2 cores saw others stall for 9 s).
private func onAThreadOfItsOwn<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// What the handlers of the scoped-report tests capture.
private final class Captured: Sendable {}

private struct TypedPing: TypedNotification {}

private struct MainActorPing: MainActorNotification {}

private struct BridgedPing: FoundationNotification {
  static var name: Notification.Name { Notification.Name("PresentationModelTestingTests.BridgedPing") }
  init?(_ notification: Notification) {}
}

/// A tracker watching one widget that only `holder` keeps alive, until its `completeAll()`.
private func trackLateWidget() -> (tracker: LeakTracker, holder: DelayedRelease) {
  let tracker = LeakTracker()
  let holder = DelayedRelease()
  let widget = Widget(name: "late")
  holder.hold(widget)
  tracker.track(widget)
  return (tracker, holder)
}

/// The synchronous `checkForLeaks(timeout:)`, which async code cannot call directly: there Swift
/// picks the async form.
@MainActor
private func synchronousCheck(_ tracker: LeakTracker, timeout: Duration) -> LeakReport {
  tracker.checkForLeaks(timeout: timeout)
}
