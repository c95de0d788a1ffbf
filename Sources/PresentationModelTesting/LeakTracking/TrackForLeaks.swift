/// Tracks `object` in the running Swift Testing test, which must have the
/// ``Testing/Trait/detectsLeaks`` trait; the test fails at this line if `object` is still alive
/// shortly after the test ends.
///
/// ```swift
/// import PresentationModelTesting
/// import Testing
///
/// final class Session {}
///
/// @Test(.detectsLeaks) func sessionEnds() {
///   let session = Session()
///   trackForLeaks(session)
/// }
/// ```
///
/// Called outside such a test, it records an issue saying to add `@Test(.detectsLeaks)` and tracks
/// nothing. In an `XCTestCase`, the test case's own `trackForLeaks(_:)` method is used instead.
///
/// - Parameters:
///   - object: The object expected to deallocate by the end of the test. Held weakly. Tracking it
///     again does nothing.
///   - fileID: Leave the default; the failure names this call's file.
///   - filePath: Leave the default.
///   - line: Leave the default; the failure is recorded at this line.
///   - column: Leave the default.
public func trackForLeaks<Object: AnyObject>(
  _ object: Object, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: Int = #line,
  column: Int = #column
) {
  guard let tracker = LeakScope.tracker else {
    FailureReporter.fail(
      trackedOutsideScope, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return
  }
  tracker.track(object, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The failure of a `trackForLeaks(_:)` call that nothing would check.
private let trackedOutsideScope =
  "trackForLeaks(_:) was called outside a test that detects leaks, so nothing would check the object. "
  + "Add the trait, as in @Test(.detectsLeaks), or @Suite(.detectsLeaks) on the suite; "
  + "in an XCTestCase call self.trackForLeaks(_:) instead."
