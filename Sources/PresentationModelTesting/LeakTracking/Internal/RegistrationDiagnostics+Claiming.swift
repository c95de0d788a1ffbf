import PresentationModel

// The harness's side of the registration findings the core keeps when no test's reporter is in
// scope (an XCTest test, whose failures are recorded at its teardown).
extension RegistrationDiagnostics {
  /// The findings made outside a reporter's scope since the last call, oldest first.
  static func claimUnreported() -> [Finding] {
    state.withLock { state in
      defer { state.unclaimed = [] }
      return state.unclaimed
    }
  }

  /// The findings made outside a reporter's scope and not yet claimed, oldest first; leaves them.
  package static var unclaimed: [Finding] { state.withLock { $0.unclaimed } }

  /// Drops the unclaimed findings made before `instant` (earlier tests' findings, when a test
  /// harness starts watching in the middle of a run).
  static func dropUnclaimed(madeBefore instant: ContinuousClock.Instant) {
    state.withLock { state in state.unclaimed.removeAll { $0.madeAt < instant } }
  }
}
