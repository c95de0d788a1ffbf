import Foundation
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

  /// Records a warning in the running Swift Testing test (Swift 6.3 and later: an issue of warning
  /// severity, which does not fail it); elsewhere, and before 6.3, prints it to standard error.
  static func warn(_ message: String, at location: SourceLocation) {
    #if compiler(>=6.3)
      if Test.current != nil {
        Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location)
        return
      }
    #endif
    FileHandle.standardError.write(Data("\(location): warning: \(message)\n".utf8))
  }

  /// Reports a problem at `location` in the running Swift Testing test; in XCTest, at no line.
  static func fail(_ message: String, at location: SourceLocation) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: location)
    } else {
      XCTFail("\(location): \(message)")
    }
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
