import Dispatch
import Foundation
import PresentationModelTesting
import Synchronization
import Testing

@Suite struct LeakTrackerTests {
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
    #expect(survivor.retainingPaths == ["ClosureCycle.onChange, a closure that captures it"])
    #expect(survivor.description.contains("Still held by ClosureCycle.onChange, a closure that captures it."))
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
    let cycleWording = "(tracked at \(file):\(cycleLine)). Still held by Widget.canvas.widgets[0]."
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
        == "Leaked PresentationModelTestingTests.Widget: still alive 1.0 s after the test ended " + cycleWording)
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
      #expect(report.description.contains("held by Canvas.widgets[2]"))
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

  /// A zero deadline does not wait, unless another test's report holds copies of the handlers
  /// meanwhile (see the next test). An attempt that took 50 ms or more is made again, up to 10
  /// times: such a report, or a loaded machine that preempts the check, can make one attempt slow,
  /// but a check that really waits is slow in all 10. (Only attempts disturbed by a report were
  /// made again before, so a single preemption on a busy CI machine could fail the test.)
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

  /// Another test's leak report holds copies of every live center's handlers while it reads them,
  /// so what a handler captured cannot go meanwhile, even once its observation ended. Here the
  /// "other report" holds its copies until this test's zero-deadline check has begun waiting for
  /// it; the check then sees the capture go and reports nothing. On the previous code (no wait)
  /// the check reported the capture, and `ThreadSafetyTests` failed that way in CI. The copies are
  /// counted in one place (`LiveRegistries`), for every center and the bridge; each is checked.
  ///
  /// A main-actor handler whose last reference was the other report's copy is released by a block
  /// on the main queue; the other report stops counting its copies in a block enqueued after that
  /// one, so the check, which waits for the count, sees the capture gone on this center too. (It
  /// did not: the count went down before the release, and the check passed only when the main
  /// queue happened to run in between.)
  ///
  /// Other tests' reports, made meanwhile, may hold the handler longer than the check waits (up to
  /// `reportWaitLimit`); an attempt during which some other report copied the handlers (more copies
  /// counted than this test's own) is made again, up to 10 times. The cases run one at a time
  /// (`.serialized`): each one's "other report" would otherwise hold the others' handlers too.
  @Test(.timeLimit(.minutes(1)), .serialized, arguments: ObservedCenter.allCases)
  func aCheckWaitsOutAnotherReportsCopiesOfTheHandlers(on center: ObservedCenter) async {
    await Self.expectACheckWaitsOutAnotherReport(on: center, checkingOnTheMainQueue: false)
  }

  /// The same, with the synchronous check made on the main queue (in a block there, as in
  /// `@MainActor` code): it cannot wait for the main queue, but it waits for the copies of the
  /// other handlers, which go without it. (It did not wait at all before, and main-actor suites
  /// that check a typed center's or the bridge's handler synchronously failed now and then while
  /// another test's report ran.) Not the main-actor center: its handlers' copies are released on
  /// the main queue, which the check keeps busy.
  @Test(
    .timeLimit(.minutes(1)), .serialized,
    arguments: ObservedCenter.allCases.filter { $0 != .mainActor })
  func theSynchronousCheckOnTheMainQueueWaitsOutAnotherReportsCopies(on center: ObservedCenter) async {
    await Self.expectACheckWaitsOutAnotherReport(on: center, checkingOnTheMainQueue: true)
  }

  private static func expectACheckWaitsOutAnotherReport(
    on center: ObservedCenter, checkingOnTheMainQueue: Bool
  ) async {
    var disturbed: WaitOutcome?
    for _ in 0..<10 {
      let copiesBefore = LiveRegistries.copiesOfEveryHandler
      let outcome = await onAThreadOfItsOwn {
        Self.checkWhileAnotherReportHoldsTheHandler(on: center, checkingOnTheMainQueue: checkingOnTheMainQueue)
      }
      guard outcome.copied else { continue }
      let passed = outcome.letGoWhileACheckWaited && !outcome.report.hasLeaks
      // This test's own: the holder's copy, and each report of its checks that found a survivor
      // (two counts each).
      let ownCopies = 2 + 2 * outcome.reports.filter(\.hasLeaks).count
      guard !passed, LiveRegistries.copiesOfEveryHandler - copiesBefore > ownCopies else {
        #expect(outcome.letGoWhileACheckWaited, "the check returned without waiting for the other report")
        #expect(!outcome.report.hasLeaks, "\(outcome.report)")
        return
      }
      disturbed = outcome
    }
    let last = disturbed.map { "\($0.report)" } ?? "the other report never copied the handler"
    Issue.record("in 10 attempts, each while another test's report copied the handlers: \(last)")
  }

  /// Observes through `observe` (a handler capturing one object that `tracker` tracks, on a center
  /// the caller keeps alive), has another report copy every handler, then drops the token: from
  /// then on only copies hold the handler. A main-actor registration released off the main queue
  /// ends in a block it enqueues there; once the block this enqueues after it has run, the center
  /// has dropped the handler too.
  private static func endAnObservationAnotherReportCopied(
    observe: (LeakTracker) -> (center: any Sendable, token: ObserverToken)
  ) -> (tracker: LeakTracker, center: any Sendable, otherReport: AnotherReport) {
    let tracker = LeakTracker()
    let center: any Sendable
    var token: ObserverToken?
    (center, token) = observe(tracker)
    let otherReport = AnotherReport.holdingCopies()
    token = nil  // the last reference: the observation ends
    DispatchQueue.main.sync {}
    withExtendedLifetime(token) {}  // read once more, so that the nil store above is not unused
    return (tracker, center, otherReport)
  }

  /// What one attempt of the test above saw.
  struct WaitOutcome: Sendable {
    /// The reports of the attempt's checks: the one check's.
    var reports: [LeakReport]
    /// Whether the other report let go because a check was waiting for it (not because the check
    /// returned without waiting).
    var letGoWhileACheckWaited: Bool
    /// Whether the other report copied the handler (it leaves the main-actor center out when the
    /// main queue stays busy while it waits to read it); the attempt shows nothing when it did not.
    var copied: Bool

    /// The last check's report: the one that must find nothing.
    var report: LeakReport { reports[reports.count - 1] }
  }

  private static func checkWhileAnotherReportHoldsTheHandler(
    on kind: ObservedCenter, checkingOnTheMainQueue: Bool
  ) -> WaitOutcome {
    let (tracker, center, otherReport) = endAnObservationAnotherReportCopied {
      kind.observe(capturingOneTrackedBy: $0)
    }
    guard tracker.liveCount == 1 else {
      // The other report did not copy the handler: it gave up waiting for a busy main queue to
      // read the main-actor center (a report waits 2 s). Nothing to see in this attempt.
      otherReport.letGo()
      otherReport.waitUntilReturned()
      withExtendedLifetime(center) {}
      return WaitOutcome(reports: [], letGoWhileACheckWaited: false, copied: false)
    }
    #expect(LiveRegistries.handlerCopiesAreHeld)
    let checkReturned = Atomic(false)
    let letGoWhileACheckWaited = Atomic(false)
    DispatchQueue.global().async {
      // Lets go once the check below waits for it (it starts waiting only after it found the
      // capture alive), so the check cannot pass by running late; or once it returned without.
      // (The count is every test's: another test's check waiting meanwhile lets go early, and this
      // attempt then shows nothing, but fails nothing.)
      while true {
        if LeakTracker.checksWaitingForAReport.load(ordering: .relaxed) > 0 {
          letGoWhileACheckWaited.store(true, ordering: .relaxed)
          break
        }
        if checkReturned.load(ordering: .relaxed) { break }
        sched_yield()
      }
      otherReport.letGo()
    }
    // Off the main queue (on a thread of its own, see `onAThreadOfItsOwn`), or in a block on it.
    let reports = [
      checkingOnTheMainQueue
        ? DispatchQueue.main.sync { tracker.checkForLeaks(timeout: .zero) } : tracker.checkForLeaks(timeout: .zero)
    ]
    checkReturned.store(true, ordering: .relaxed)
    otherReport.waitUntilReturned()
    withExtendedLifetime(center) {}
    return WaitOutcome(
      reports: reports, letGoWhileACheckWaited: letGoWhileACheckWaited.load(ordering: .relaxed), copied: true)
  }

  /// A report's copy of a main-actor handler, dropped off the main queue, is released by a block on
  /// the main queue; until that block has run, the copies still count as held, so that a check
  /// waiting for them does not look at a capture that is about to go. Here the main queue is held
  /// busy while the other report drops its copies: the capture is still alive, and the copies must
  /// still count. (The count went down at once before, and a check at that moment reported the
  /// capture as a survivor; the report-wait test above passed only when the main queue ran in time.)
  /// For the main-actor center and for the bridge's main-actor form (the two places a copied
  /// handler is boxed for a main-queue release).
  ///
  /// Exact whatever other tests' reports do meanwhile: once the registration has ended, the test
  /// waits until every copy begun before then, other than the other report's, has ended (a copy
  /// begun later cannot hold the handler), and it asks about the other report's copy by its number.
  /// (It made 10 attempts before, each given up when any other report copied the handlers; in a CI
  /// run every one was.)
  @Test(.timeLimit(.minutes(1)), .serialized, arguments: MainActorHandlerForm.allCases)
  func aMainActorHandlersCopyCountsAsHeldUntilItsMainQueueReleaseRan(form: MainActorHandlerForm) async {
    var seen = MainQueueReleaseOutcome()
    for _ in 0..<5 {
      seen = await onAThreadOfItsOwn { Self.dropCopiesWhileTheMainQueueIsBusy(form: form) }
      if seen.copied { break }
    }
    #expect(seen.copied, "in 5 attempts the other report never copied the handler (the main queue stayed busy)")
    #expect(seen.othersLetGo, "the copies other tests' reports began before the registration ended are still held")
    #expect(seen.aliveWhileBlocked, "the copy's release waits for the main queue")
    #expect(seen.heldWhileBlocked, "a copy whose release is still to run counts as held")
    #expect(!seen.heldAfter, "the copy no longer counts once its release ran")
    #expect(!seen.aliveAfter, "the release ran once the main queue did")
  }

  /// What the test above saw.
  struct MainQueueReleaseOutcome: Sendable {
    /// Whether the other report copied the handler: it leaves the main-actor center out when the
    /// main queue stays busy for as long as it waits to read it. An attempt where it did not is
    /// made again.
    var copied = false
    var othersLetGo = false
    var aliveWhileBlocked = false
    var heldWhileBlocked = false
    var heldAfter = true
    var aliveAfter = true
  }

  private static func dropCopiesWhileTheMainQueueIsBusy(form: MainActorHandlerForm) -> MainQueueReleaseOutcome {
    var seen = MainQueueReleaseOutcome()
    let (tracker, center, otherReport) = endAnObservationAnotherReportCopied {
      form.observe(capturingOneTrackedBy: $0)
    }
    // Only copies hold the handler now, and only copies begun before this point can (later ones
    // do not see the ended registration).
    let copiesBegun = LiveRegistries.copiesBegun
    let giveUp = ContinuousClock.now + .seconds(20)
    while LiveRegistries.heldCopies(begunBefore: copiesBegun) != [otherReport.copyNumber], ContinuousClock.now < giveUp
    {
      sched_yield()
    }
    seen.othersLetGo = LiveRegistries.heldCopies(begunBefore: copiesBegun) == [otherReport.copyNumber]
    seen.copied = tracker.liveCount == 1
    guard seen.othersLetGo, seen.copied else {
      otherReport.letGo()
      otherReport.waitUntilReturned()
      return seen
    }
    // Now the other report's copy is the one thing that holds the handler.
    let busy = DispatchSemaphore(value: 0)
    let free = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
      busy.signal()
      free.wait()
    }
    busy.wait()
    otherReport.letGo()
    otherReport.waitUntilReturned()  // the other report returned; the release of its copy waits for the main queue
    seen.aliveWhileBlocked = tracker.liveCount == 1
    seen.heldWhileBlocked = LiveRegistries.heldCopies(begunBefore: copiesBegun).contains(otherReport.copyNumber)
    free.signal()
    DispatchQueue.main.sync {}  // the release, and then the count
    seen.heldAfter = LiveRegistries.heldCopies(begunBefore: copiesBegun).contains(otherReport.copyNumber)
    seen.aliveAfter = tracker.liveCount == 1
    withExtendedLifetime(center) {}
    return seen
  }

  /// A check that finds an object alive at its deadline waits only for the copies of the handlers
  /// begun before then (`LiveRegistries.copiesBegun`): a copy begun later sees only unended
  /// registrations, so it cannot be what alone keeps the object alive, and other tests' reports
  /// made meanwhile cannot keep the check waiting until `reportWaitLimit`. Here one report begins
  /// before the point and one after; only the first counts, and only until it ends.
  @Test(.timeLimit(.minutes(1)))
  func onlyTheCopiesBegunBeforeAPointCountForIt() async {
    let counted = await onAThreadOfItsOwn { () -> [String] in
      var wrong: [String] = []
      let earlier = AnotherReport.holdingCopies()
      let point = LiveRegistries.copiesBegun
      let later = AnotherReport.holdingCopies()
      if !(earlier.copyNumber < point && point <= later.copyNumber) {
        wrong.append("numbers \(earlier.copyNumber), \(later.copyNumber) around \(point)")
      }
      if !LiveRegistries.heldCopies(begunBefore: point).contains(earlier.copyNumber) {
        wrong.append("earlier not held")
      }
      if !LiveRegistries.copiesAreHeld(begunBefore: point) { wrong.append("copiesAreHeld false while earlier held") }
      if LiveRegistries.heldCopies(begunBefore: point).contains(later.copyNumber) { wrong.append("later counted") }
      earlier.letGo()
      earlier.waitUntilReturned()
      // A copy holding main-actor handlers (this test's or another's) stops counting on the main queue.
      DispatchQueue.main.sync {}
      if LiveRegistries.heldCopies(begunBefore: point).contains(earlier.copyNumber) {
        wrong.append("earlier held once ended")
      }
      if !LiveRegistries.heldCopies(begunBefore: .max).contains(later.copyNumber) { wrong.append("later not held") }
      later.letGo()
      later.waitUntilReturned()
      DispatchQueue.main.sync {}
      if LiveRegistries.heldCopies(begunBefore: .max).contains(later.copyNumber) {
        wrong.append("later held once ended")
      }
      return wrong
    }
    #expect(counted == [])
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

/// A center, or the bridge, whose handlers a leak report copies: one case of the report-wait test.
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

  /// Observes a notification, by a token, on a new center of this kind, with a handler that
  /// captures `captured` and nothing else. The center must outlive the check: its `deinit` would
  /// drop the handler too.
  fileprivate func observe(capturing captured: Captured) -> (center: any Sendable, token: ObserverToken) {
    switch self {
    case .typed:
      let center = TypedNotificationCenter()
      return (center, center.observe(TypedPing.self) { _ in withExtendedLifetime(captured) {} })
    case .mainActor:
      // On the main queue, where `observe` is isolated; the caller is not.
      return DispatchQueue.main.sync {
        // assumeIsolated: a block on the main queue runs on the main actor's executor.
        MainActor.assumeIsolated {
          let center = MainActorNotificationCenter()
          return (center, center.observe(MainActorPing.self) { _ in withExtendedLifetime(captured) {} })
        }
      }
    case .foundationBridge:
      let bridge = FoundationNotificationBridge(NotificationCenter())
      return (bridge, bridge.observe(BridgedPing.self) { _ in withExtendedLifetime(captured) {} })
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

/// The two kinds of handler whose copy is released on the main queue.
enum MainActorHandlerForm: CaseIterable, Sendable, CustomTestStringConvertible {
  case mainActorCenter
  case bridgeObserveOnMainActor

  var testDescription: String {
    switch self {
    case .mainActorCenter: "MainActorNotificationCenter.observe"
    case .bridgeObserveOnMainActor: "FoundationNotificationBridge.observeOnMainActor"
    }
  }

  fileprivate func observe(capturingOneTrackedBy tracker: LeakTracker) -> (center: any Sendable, token: ObserverToken) {
    switch self {
    case .mainActorCenter:
      return ObservedCenter.mainActor.observe(capturingOneTrackedBy: tracker)
    case .bridgeObserveOnMainActor:
      let captured = Captured()
      tracker.track(captured)
      let bridge = FoundationNotificationBridge(NotificationCenter())
      return (bridge, bridge.observeOnMainActor(BridgedPing.self) { _ in withExtendedLifetime(captured) {} })
    }
  }
}

/// What the report-wait test's handler captures, and nothing else holds.
private final class Captured: Sendable {}

extension ObservedCenter {
  /// Observes, on a new center of this kind, with a handler that captures one new object, which
  /// `tracker` tracks and nothing else holds.
  fileprivate func observe(capturingOneTrackedBy tracker: LeakTracker) -> (center: any Sendable, token: ObserverToken) {
    let captured = Captured()
    tracker.track(captured)
    return observe(capturing: captured)
  }
}

/// A stand-in for another test's leak report: it holds copies of every center's handlers, on a
/// thread of the global queue, until it is let go. Off the main queue, like a report in a test that
/// is not main-actor-isolated: it reads the main-actor center's registrations in a block on the
/// main queue, which the tests leave free while it starts.
private final class AnotherReport: Sendable {
  private let letGoSignal = DispatchSemaphore(value: 0)
  private let returned = DispatchSemaphore(value: 0)
  private let number = Atomic(-1)

  /// Starts one, and returns once it holds its copies.
  static func holdingCopies() -> AnotherReport {
    let report = AnotherReport()
    let holding = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      LiveRegistries.withRegistrationSnapshots { _, copyNumber in
        report.number.store(copyNumber, ordering: .relaxed)
        holding.signal()
        report.letGoSignal.wait()
      }
      report.returned.signal()
    }
    holding.wait()
    return report
  }

  /// Its copy's number (`LiveRegistries.copiesBegun`); read once it holds its copies.
  var copyNumber: Int { number.load(ordering: .relaxed) }

  func letGo() { letGoSignal.signal() }

  /// Waits until `withRegistrationSnapshots` returned, its copies dropped.
  func waitUntilReturned() { returned.wait() }
}

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
