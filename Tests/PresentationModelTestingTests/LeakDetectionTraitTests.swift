import PresentationModelTesting
import Testing

@Suite struct LeakDetectionTraitTests {
  private struct BodyFailed: Error {}

  static func messages(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
  }

  /// Runs `body` inside the trait's scope exactly as the testing library does for
  /// `@Test(.detectsLeaks)`, so the issues the trait records can be caught with `withKnownIssue`.
  static func runInTraitScope(
    timeout: Duration = .milliseconds(50), _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    let test = try #require(Test.current)
    try await LeakDetectionTrait(timeout: timeout).provideScope(
      for: test, testCase: Test.Case.current, performing: body)
  }

  @Test(.detectsLeaks) func passesWhenTrackedObjectsDeallocate() {
    let canvas = Canvas()
    canvas.widgets = [Widget(name: "a"), Widget(name: "b")]
    trackForLeaks(canvas)
    for widget in canvas.widgets { trackForLeaks(widget) }
    #expect(LeakTracker.current?.liveCount == 3)
  }

  @Test(.detectsLeaks) func passesWhenNothingIsTracked() throws {
    let tracker = try #require(LeakTracker.current)
    #expect(tracker.liveCount == 0)
  }

  @Test(.detectsLeaks, arguments: 0..<8)
  func parallelCasesEachHaveTheirOwnTracker(count: Int) async throws {
    let tracker = try #require(LeakTracker.current)
    let widgets = (0..<count).map { Widget(name: "\($0)") }
    for widget in widgets {
      trackForLeaks(widget)
      await Task.yield()  // let other cases interleave
    }
    #expect(tracker.liveCount == count)
    // Child tasks inherit the test's tracker.
    let seenByChild = await Task { LeakTracker.current === tracker }.value
    #expect(seenByChild)
  }

  @Test func noTrackerOutsideTheTrait() {
    #expect(LeakTracker.current == nil)
  }

  @Test("Fails on purpose: each survivor is recorded at its tracking line with what holds it")
  func recordsEachSurvivorAtItsTrackingLineWithWhatHoldsIt() async throws {
    let trackedLine = #line + 6
    try await withKnownIssue {
      try await Self.runInTraitScope {
        let canvas = Canvas()
        let widget = Widget(name: "leaky")
        canvas.widgets = [Widget(name: "fine"), widget]
        trackForLeaks(widget)
        widget.canvas = canvas
      }
    } matching: { issue in
      let message = Self.messages(of: issue)
      return issue.sourceLocation?.line == trackedLine
        && issue.sourceLocation?.fileName == "LeakDetectionTraitTests.swift"
        && message.contains("Leaked PresentationModelTestingTests.Widget")
        && message.contains("tracked at PresentationModelTestingTests/LeakDetectionTraitTests.swift:\(trackedLine)")
        // Only the widget was tracked; the walk from the widget itself finds the cycle.
        && message.contains("- Widget.canvas.widgets[1]")
    }
  }

  @Test("Fails on purpose: the holder is named when it is tracked too")
  func namesTheHolderWhenTheHolderIsTrackedToo() async throws {
    let widgetLine = #line + 6
    try await withKnownIssue {
      try await Self.runInTraitScope {
        let canvas = Canvas()
        canvas.widgets = [Widget(name: "0"), Widget(name: "1"), Widget(name: "2")]
        canvas.widgets[2].canvas = canvas
        trackForLeaks(canvas.widgets[2])
        trackForLeaks(canvas)
      }
    } matching: { issue in
      let message = Self.messages(of: issue)
      if issue.sourceLocation?.line == widgetLine {
        return message.contains("Leaked PresentationModelTestingTests.Widget")
          && message.contains("- Canvas.widgets[2]")
      }
      return issue.sourceLocation?.line == widgetLine + 1 && message.contains("- Widget.canvas")
    }
  }

  @Test("Fails on purpose: leaks are checked even when the body throws")
  func checksForLeaksEvenWhenTheBodyThrows() async throws {
    let trackedLine = #line + 6
    try await withKnownIssue {
      do {
        try await Self.runInTraitScope {
          let cycle = ClosureCycle()
          cycle.startObserving()
          trackForLeaks(cycle)
          throw BodyFailed()
        }
        Issue.record("the body's error was swallowed")
      } catch is BodyFailed {
        // Expected: the trait rethrows after checking.
      }
    } matching: { issue in
      issue.sourceLocation?.line == trackedLine && Self.messages(of: issue).contains("ClosureCycle")
    }
  }

  @Test func staysQuietWhenTheScopeLeaksNothing() async throws {
    // No withKnownIssue here: any recorded issue fails this test.
    try await Self.runInTraitScope {
      let parent = DelegatingParent()
      parent.child.weakDelegate = parent
      trackForLeaks(parent)
      trackForLeaks(parent.child)
    }
  }

  @Test("Fails on purpose: tracking outside the trait says what to add")
  func trackingOutsideTheTraitSaysWhatToAdd() async {
    let callLine = #line + 3
    withKnownIssue {
      let widget = Widget(name: "untracked")
      trackForLeaks(widget)
    } matching: { issue in
      issue.sourceLocation?.line == callLine && Self.messages(of: issue).contains("@Test(.detectsLeaks)")
    }
  }
}

@Suite(.detectsLeaks) struct LeakDetectionSuiteTraitTests {
  @Test func theSuiteTraitScopesEachTest() throws {
    let tracker = try #require(LeakTracker.current)
    let widget = Widget(name: "a")
    trackForLeaks(widget)
    #expect(tracker.liveCount == 1)
  }

  @Test func anotherTestGetsAFreshTracker() throws {
    let tracker = try #require(LeakTracker.current)
    #expect(tracker.liveCount == 0)
  }

  /// Kept for the process's lifetime, as an app-wide observation would be.
  private static let appWide = TypedNotificationCenter()
  private static let appWideObservations = ObserverBag()

  struct Launched: TypedNotification {}

  /// A test's own trait settles what is checked, inside a suite that has the trait too: one scope,
  /// the test's settings. This test keeps an observation on purpose, which the suite's default
  /// level would report.
  @Test(.detectsLeaks(.trackedObjects)) func aTestsOwnLevelWinsOverItsSuites() throws {
    Self.appWide.observe(Launched.self) { _ in }.store(in: Self.appWideObservations)
    #expect(Self.appWide.observerCount(for: Launched.self) >= 1)
  }
}
