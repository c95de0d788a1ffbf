import Foundation
import PresentationCaptureReading
import XCTest

/// The walk's weak and unowned cases, run from XCTest in a child process: the Swift Testing tests
/// of those cases (`MetadataSafetyTests`, `HoldingPathTests`), in a Swift Testing run of this test
/// binary that runs nothing else.
///
/// Those tests run the walk in exit tests of their own, and fail by name when it crashes. But in
/// the Swift Testing pass of `swift test` the walk also runs in-process in dozens of other suites
/// (every leak report, and in debug builds every owner-bound registration, walks its handler's
/// captures): when reading a `weak` field crashes (`Xw` not recognised as reference storage), one
/// of those ends the whole pass with SIGSEGV, whether or not the named tests reported first, and
/// no test is recorded as failed (issue 29). `swift test` runs the XCTest pass first, in a process
/// of its own, so this test names the failure, with the failing tests' lines, before that.
final class ReferenceStorageWalkChildProcessTests: XCTestCase {
  func testTheWalksWeakAndUnownedCasesPassInAChildProcess() throws {
    try XCTSkipUnless(CaptureScanner.isAvailable, "the walk reads closure captures only without Objective-C")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    let cases = Self.casesRunInChildProcesses.joined(separator: "|")
    process.arguments = [
      "--testing-library", "swift-testing", "--filter",
      #"^PresentationCaptureReadingTests\.(MetadataSafetyTests|HoldingPathTests)/("# + cases + ")",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = text.split(separator: "\n")
    // Each case must have passed: a filter that matched no test would exit normally too.
    let notPassed = Self.casesRunInChildProcesses.filter { name in
      !lines.contains { $0.contains("Test \(name)(") && $0.contains(" passed after ") }
    }
    let ending =
      process.terminationReason == .exit
      ? "exited with \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
    let failures = lines.filter { $0.contains("✘") }.prefix(8)
    XCTAssertTrue(
      process.terminationReason == .exit && process.terminationStatus == 0 && notPassed.isEmpty,
      "the walk's weak and unowned cases, in a child process that \(ending), did not all pass (\(notPassed)):\n"
        + (failures.isEmpty ? lines.suffix(8) : failures).joined(separator: "\n"))
  }

  /// The weak and unowned cases, each of which runs the walk in an exit test.
  static let casesRunInChildProcesses = [
    "skipsAnUnownedStoredPropertyWhoseObjectIsGoneWithoutReadingIt",
    "doesNotReportAStructThatHoldsTheTargetWithoutOwningIt",
    "skipsWeakAndUnownedProperties",
    "neverReadsAnUnownedPropertyWhoseObjectIsGone",
  ]
}
