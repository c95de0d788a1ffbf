import Dispatch
import PresentationModelTesting
import Synchronization
import XCTest

/// The XCTest helper, checked from the inside: each failing scenario declares the failure it
/// expects, the failure is captured instead of recorded, and `tearDown()` (which XCTest runs after
/// the teardown blocks, so after the leak check) fails the test if it did not arrive as declared.
final class XCTestLeakTrackingTests: XCTestCase {
  private struct Failure: Sendable {
    let message: String
    let file: String
    let line: Int
  }

  private struct Expectation: Sendable {
    let line: Int
    let fragments: [String]
  }

  private let expectations = Mutex<[Expectation]>([])
  private let captured = Mutex<[Failure]>([])
  /// Breaks the deliberate cycles once they have been reported, so they do not outlive the test.
  private var breakCycles: [() -> Void] = []

  private func expectLeakFailure(atLine line: Int, mentioning fragments: String...) {
    expectations.withLock { $0.append(Expectation(line: line, fragments: fragments)) }
  }

  /// Captures failures only while a scenario expects one; otherwise they fail the test as usual.
  private func capture(_ message: String, file: String, line: Int) -> Bool {
    guard expectations.withLock({ !$0.isEmpty }) else { return false }
    captured.withLock { $0.append(Failure(message: message, file: file, line: line)) }
    return true
  }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      let location = issue.sourceCodeContext.location
      if !capture(issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0) {
        super.record(issue)
      }
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      if !capture(description, file: filePath, line: lineNumber) {
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }
  #endif

  override func tearDown() {
    let expected = expectations.withLock { expected in
      defer { expected.removeAll() }
      return expected
    }
    let failures = captured.withLock { failures in
      defer { failures.removeAll() }
      return failures
    }
    // The naming rule CONTRIBUTING.md states: a test that expects a failure is named testFailsOnPurpose…,
    // and only such a test, so a reader of the log can tell a deliberate failure by its name.
    let failsOnPurpose = name.contains("testFailsOnPurpose")
    XCTAssertEqual(
      !expected.isEmpty, failsOnPurpose,
      failsOnPurpose
        ? "\(name) is named testFailsOnPurpose… but expects no failure"
        : "\(name) expects a failure but is not named testFailsOnPurpose…")
    XCTAssertEqual(
      failures.count, expected.count, "expected \(expected.count) leak failures, got \(failures.map(\.message))")
    for expectation in expected {
      guard let failure = failures.first(where: { $0.line == expectation.line }) else {
        XCTFail("no leak failure at line \(expectation.line); got \(failures.map(\.message))")
        continue
      }
      XCTAssertTrue(failure.file.hasSuffix("XCTestLeakTrackingTests.swift"), failure.file)
      for fragment in expectation.fragments {
        XCTAssertTrue(failure.message.contains(fragment), "\"\(fragment)\" not in: \(failure.message)")
      }
    }
    for breakCycle in breakCycles { breakCycle() }
    breakCycles.removeAll()
    super.tearDown()
  }

  func testFailsOnPurposeLeakOfAClosureCycleIsReportedAtTheTrackingLine() {
    let cycle = ClosureCycle()
    cycle.startObserving()
    breakCycles.append { cycle.onChange = nil }
    let trackedLine = #line + 1
    trackForLeaks(cycle, timeout: .milliseconds(50))
    expectLeakFailure(
      atLine: trackedLine, mentioning: "Leaked PresentationModelTestingTests.ClosureCycle",
      "XCTestLeakTrackingTests.swift:\(trackedLine)", "held by:\n- ClosureCycle.onChange (a closure that captures it)"
    )
  }

  func testFailsOnPurposeLeakThroughAStrongDelegateIsReportedWithWhatHoldsIt() {
    let parent = DelegatingParent()
    parent.child.strongDelegate = parent
    breakCycles.append { parent.child.strongDelegate = nil }
    let parentLine = #line + 1
    trackForLeaks(parent, timeout: .milliseconds(50))
    let childLine = #line + 1
    trackForLeaks(parent.child)
    expectLeakFailure(
      atLine: parentLine, mentioning: "Leaked PresentationModelTestingTests.DelegatingParent",
      "- DelegatingChild.strongDelegate")
    expectLeakFailure(
      atLine: childLine, mentioning: "Leaked PresentationModelTestingTests.DelegatingChild",
      "- DelegatingParent.child")
  }

  func testFailsOnPurposeOwnerCapturedByItsOwnHandlerIsReportedAtTheObserveLine() {
    let center = TypedNotificationCenter()  // dies with the test, and frees the listener
    let listener = Listener()
    trackForLeaks(listener, timeout: .milliseconds(50))
    let observeLine = Self.observeCapturingItsOwner(listener, on: center)
    expectLeakFailure(
      atLine: observeLine,
      mentioning: "The handler passed to TypedNotificationCenter.observe(_:owner:) at "
        + "PresentationModelTestingTests/XCTestLeakTrackingTests.swift:\(observeLine) captures its owner, a Listener")
  }

  private struct Ping: TypedNotification {}

  /// Observes with a handler that captures its own owner, which the debug build's registration
  /// check finds at this `observe` line (and prints a warning for, once: both callers share it).
  /// Returns the line.
  private static func observeCapturingItsOwner(_ listener: Listener, on center: TypedNotificationCenter) -> Int {
    center.observe(Ping.self, owner: listener) { _, _ in _ = listener }
    return #line - 1
  }

  /// The line of the registration the class's `setUp()` made before any of its tests started.
  // nonisolated(unsafe): written once in `class func setUp()`, which XCTest runs before the
  // class's first test, on the thread that then runs the tests; only read by tests afterwards.
  nonisolated(unsafe) private static var registrationBeforeTheTestsLine = 0

  /// A finding made before any test of the class started, while no XCTest observer drops findings
  /// yet (this class is the first to track leaks): a test must not claim it. The first test of the
  /// class to call `trackForLeaks` failed for it before, at that `observe` line, whichever test
  /// that was, and `testAFindingMadeBeforeTheTestStartedIsNotClaimedByIt` finds it unclaimed.
  override class func setUp() {
    super.setUp()
    let center = TypedNotificationCenter()
    registrationBeforeTheTestsLine = observeCapturingItsOwner(Listener(), on: center)
  }

  func testAFindingMadeBeforeTheTestStartedIsNotClaimedByIt() {
    trackForLeaks(Widget(name: "gone at once"))
    let line = Self.registrationBeforeTheTestsLine
    XCTAssertNotEqual(line, 0, "class setUp made its registration")
    XCTAssertFalse(
      RegistrationDiagnostics.unclaimed.contains { $0.line == line },
      "a finding made before this test started is left for this test's teardown to claim")
  }

  func testFailsOnPurposeBlockingExpectNoObserversIsReportedAtItsLineListingTheLeftover() {
    struct Ping: TypedNotification {}
    let center = TypedNotificationCenter()
    let observeLine = #line + 1
    let token = center.observe(Ping.self) { _ in }
    let checkLine = #line + 3
    expectLeakFailure(
      atLine: checkLine, mentioning: "Ping observed (token) at ", "XCTestLeakTrackingTests.swift:\(observeLine)")
    let leftovers = expectNoObservers(in: center, timeout: .zero)
    XCTAssertEqual(leftovers.count, 1)
    token.cancel()
    XCTAssertTrue(expectNoObservers(in: center).isEmpty)
  }

  func testPassesWhenTrackedObjectsDeallocate() {
    let canvas = Canvas()
    canvas.widgets = [Widget(name: "a")]
    trackForLeaks(canvas)
    trackForLeaks(canvas.widgets[0])
  }

  func testWaitsForAReleaseOneMainQueueTurnLate() {
    let holder = DelayedRelease()
    let widget = Widget(name: "late")
    holder.hold(widget)
    trackForLeaks(widget, timeout: .seconds(10))
    DispatchQueue.main.async { holder.completeAll() }
  }

  // On Linux a synchronous @MainActor XCTest method crashes the runner (LeakTesting.md says to
  // make it async); these show the helper working from async methods on the main actor.

  @MainActor
  func testMainActorAsyncMethodPassesWhenTheTrackedObjectsDeallocate() async {
    let canvas = Canvas()
    canvas.widgets = [Widget(name: "a"), Widget(name: "b")]
    trackForLeaks(canvas)
    for widget in canvas.widgets { trackForLeaks(widget) }
    await Task.yield()  // the method suspends, as an async test of UI code would
    canvas.widgets.removeAll()
  }

  @MainActor
  func testFailsOnPurposeLeakInAMainActorAsyncMethodIsReportedAtTheTrackingLine() async {
    let cycle = ClosureCycle()
    cycle.startObserving()
    breakCycles.append { cycle.onChange = nil }
    let trackedLine = #line + 1
    trackForLeaks(cycle, timeout: .milliseconds(50))
    await Task.yield()
    expectLeakFailure(
      atLine: trackedLine, mentioning: "Leaked PresentationModelTestingTests.ClosureCycle",
      "XCTestLeakTrackingTests.swift:\(trackedLine)")
  }

  func testAsyncTestsAreCheckedToo() async {
    let holder = DelayedRelease()
    do {
      let widget = Widget(name: "late")
      holder.hold(widget)
      trackForLeaks(widget, timeout: .seconds(10))
    }
    Task {
      await Task.yield()
      holder.completeAll()
    }
  }
}
