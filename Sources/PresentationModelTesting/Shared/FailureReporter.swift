import PresentationModel
import Testing
import XCTest

/// Sends a harness failure to whichever test framework is running the current test.
///
/// Swift Testing sets `Test.current` for the duration of a test (task-locally); when it is `nil`
/// the caller is an XCTest test (or no test at all, where `XCTFail` still prints the message).
enum FailureReporter {
  /// Reports a problem the center found in a registration, at its `observe` call.
  @Sendable static func fail(_ finding: RegistrationDiagnostics.Finding) {
    fail(
      finding.message,
      at: CallSite(fileID: finding.fileID, filePath: finding.fileID, line: finding.line, column: 1))
  }

  static func fail(_ message: String, at site: CallSite) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: String(describing: site.fileID), filePath: String(describing: site.filePath), line: site.line,
          column: max(site.column, 1)))
    } else {
      // XCTest's only integer type for a line is `UInt`.
      XCTFail(message, file: site.filePath, line: UInt(site.line))
    }
  }
}
