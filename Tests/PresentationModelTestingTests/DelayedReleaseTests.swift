import Dispatch
import PresentationModelTesting
import Testing

/// A widget that deinitialises only once its fade completes: the check passes when the test lets
/// the fade finish and fails, naming the widget, when it does not.
@Suite struct DelayedReleaseTests {
  @Test func passesWhenTheFadeIsCompletedBeforeTheCheck() async {
    let tracker = LeakTracker()
    let fade = DelayedRelease()
    do {
      let widget = Widget(name: "fading")
      fade.hold(widget)
      tracker.track(widget)
    }
    #expect(tracker.liveCount == 1)
    fade.completeAll()
    let report = await tracker.checkForLeaks(timeout: .zero)
    #expect(!report.hasLeaks, "\(report)")
  }

  @Test("A fade never completed is reported") func failsWhenTheFadeIsNeverCompleted() async throws {
    let tracker = LeakTracker()
    let fade = DelayedRelease()
    let trackedLine = #line + 4
    do {
      let widget = Widget(name: "fading")
      fade.hold(widget)
      tracker.track(widget)
    }
    let report = await tracker.checkForLeaks(timeout: .milliseconds(50))
    let survivor = try #require(report.survivors.first)
    #expect(survivor.typeName == "PresentationModelTestingTests.Widget")
    #expect(survivor.line == trackedLine)
    #expect(report.waited >= .milliseconds(50))
    fade.completeAll()
  }

  @Test(.timeLimit(.minutes(1)))
  func theTraitWaitsForAFadeThatCompletesAfterTheTestBody() async throws {
    let fade = DelayedRelease()
    // Completed by work the test body does not wait for: the trait's polling check sees it finish.
    // A Dispatch worker rather than a `Task`: when other tests keep both threads of the cooperative
    // pool busy, a `Task` may not get to run before the timeout.
    let test = try #require(Test.current)
    try await LeakDetectionTrait(timeout: .seconds(10)).provideScope(for: test, testCase: Test.Case.current) {
      let widget = Widget(name: "fading")
      fade.hold(widget)
      trackForLeaks(widget)
      DispatchQueue.global().async { fade.completeAll() }
    }
    #expect(fade.pendingCount == 0)
  }

  @Test("Fails on purpose: the trait reports a fade nobody completes") func theTraitFailsForAFadeNobodyCompletes()
    async throws
  {
    let fade = DelayedRelease()
    let trackedLine = #line + 6
    try await withKnownIssue {
      let test = try #require(Test.current)
      try await LeakDetectionTrait(timeout: .milliseconds(50)).provideScope(for: test, testCase: Test.Case.current) {
        let widget = Widget(name: "fading")
        fade.hold(widget)
        trackForLeaks(widget)
      }
    } matching: { issue in
      issue.sourceLocation?.line == trackedLine
        && issue.comments.contains { $0.rawValue.contains("Leaked PresentationModelTestingTests.Widget") }
    }
    fade.completeAll()
  }

  /// The same story with the real ``PendingDelete`` on virtual time: the widget survives until the
  /// fade's last step has disposed it and let it go.
  @MainActor @Test func aWidgetFadedByPendingDeleteIsReportedUntilItsFadeCompletes() async throws {
    @MainActor final class FadingWidget: Fadable {
      var opacity = 1.0
      func dispose() {}
    }
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: .milliseconds(300), steps: 3, scheduler: scheduler)
    let tracker = LeakTracker()
    do {
      let widget = FadingWidget()
      tracker.track(widget)
      pendingDelete.fadeOutAndDispose(widget, completion: nil)  // the async overload would wait
    }
    scheduler.advance(by: .milliseconds(200))
    let midFade = await tracker.checkForLeaks(timeout: .zero)
    let survivor = try #require(midFade.survivors.first)
    #expect(survivor.typeName.hasSuffix("FadingWidget"), "\(midFade)")
    scheduler.advance(by: .milliseconds(100))
    let afterFade = await tracker.checkForLeaks(timeout: .zero)
    #expect(!afterFade.hasLeaks, "\(afterFade)")
    #expect(pendingDelete.pendingCount == 0)
  }
}
