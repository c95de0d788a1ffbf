public import XCTest

extension XCTestCase {
  /// Fails the test at this line if `object` is still alive shortly after the test method ends.
  ///
  /// The first call in a test adds a teardown block that waits (up to `timeout`, polling) for every
  /// object tracked in this test to deallocate, then fails once per survivor, at the line where it
  /// was tracked, naming what still holds it. The same block fails the test at the `observe` line
  /// of every registration made during the test that the debug build's registration check found
  /// wrong: a handler that captures its own owner, a sender filter that is a value cast to an
  /// object. Findings made in earlier tests are not this test's (each was printed as a warning
  /// when it was made).
  ///
  /// ```swift
  /// import PresentationModelTesting
  /// import XCTest
  ///
  /// final class Player {}
  ///
  /// final class PlayerTests: XCTestCase {
  ///   func testPlayerIsReleased() {
  ///     let player = Player()
  ///     trackForLeaks(player)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object expected to deallocate by the end of the test. Held weakly. Tracking it
  ///     again does nothing.
  ///   - timeout: How long it may take to deallocate after the test method returns. The first call
  ///     in a test sets it for the whole test.
  ///   - fileID: Leave the default.
  ///   - filePath: Leave the default; the failure is reported in this file.
  ///   - line: Leave the default; the failure is reported at this line.
  ///   - column: Leave the default.
  ///
  /// > Note: XCTest runs teardown blocks before `tearDown()`, newest first. An object released only
  /// > in `tearDown()`, or in a teardown block added before this call, is still alive when checked.
  public func trackForLeaks<Object: AnyObject>(
    _ object: Object, timeout: Duration = LeakTracker.defaultTimeout, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
  ) {
    let testCase = ObjectIdentifier(self)
    let (tracker, isNew) = TestCaseTrackers.tracker(for: testCase)
    tracker.track(object, fileID: fileID, filePath: filePath, line: line, column: column)
    guard isNew else { return }
    RegistrationFindingsObserver.installOnce(during: self)
    addTeardownBlock { @Sendable in
      // Owner-bound handlers that captured their owner during this test: failures at their lines.
      for finding in RegistrationDiagnostics.claimUnreported() { FailureReporter.fail(finding) }
      let report = await tracker.checkForLeaks(timeout: timeout)
      TestCaseTrackers.remove(testCase)
      for survivor in report.survivors {
        FailureReporter.fail(SurvivorWording.leakFailure(survivor, waited: report.waited), at: survivor.site)
      }
    }
  }
}
