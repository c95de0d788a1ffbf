import PresentationModel
import XCTest

/// Drops, when an XCTest test case starts, the registration findings left by earlier tests (they
/// were already printed as warnings), so that a test's teardown only claims its own.
final class RegistrationFindingsObserver: NSObject, XCTestObservation, @unchecked Sendable {
  // @unchecked Sendable: no stored state.

  private static let installed = LockedState(false)

  /// Registers the observer with XCTest the first time a test tracks leaks.
  static func installOnce() {
    let isFirst = installed.withLock { installed in
      defer { installed = true }
      return !installed
    }
    if isFirst { XCTestObservationCenter.shared.addTestObserver(RegistrationFindingsObserver()) }
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    _ = RegistrationDiagnostics.claimUnreported()
  }
}
