import PresentationModel
import XCTest

/// Drops, when an XCTest test case starts, the registration findings left by earlier tests (they
/// were already printed as warnings), so that a test's teardown only claims its own.
final class RegistrationFindingsObserver: NSObject, XCTestObservation, Sendable {

  private static let installed = LockedState(false)

  /// Registers the observer with XCTest the first time a test tracks leaks, and drops the
  /// findings made before `testCase` started (by earlier tests, while nothing dropped them).
  static func installOnce(during testCase: XCTestCase) {
    let isFirst = installed.withLock { installed in
      defer { installed = true }
      return !installed
    }
    guard isFirst else { return }
    XCTestObservationCenter.shared.addTestObserver(RegistrationFindingsObserver())
    if let started = testCase.testRun?.startDate {
      let sinceStart = Duration.seconds(max(0, Date().timeIntervalSince(started)))
      RegistrationDiagnostics.dropUnclaimed(madeBefore: .now - sinceStart)
    }
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    _ = RegistrationDiagnostics.claimUnreported()
  }
}
