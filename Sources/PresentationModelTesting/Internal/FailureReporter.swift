import Testing
import XCTest

/// Sends a harness failure to whichever test framework is running the current test.
///
/// Swift Testing sets `Test.current` for the duration of a test (task-locally); when it is `nil`
/// the caller is an XCTest test (or no test at all, where `XCTFail` still prints the message).
enum FailureReporter {
  static func fail(_ message: String, at site: CallSite) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: site.fileID, filePath: String(describing: site.filePath),
          line: Int(site.line), column: Int(max(site.column, 1))))
    } else {
      XCTFail(message, file: site.filePath, line: site.line)
    }
  }
}
