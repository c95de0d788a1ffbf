internal import Foundation

/// Problems found in a registration when it is made, and where they go: to the running test when a
/// test harness installed a reporter (``reporter``), otherwise to standard error once per call site
/// and to a short list that an XCTest teardown can claim.
package enum RegistrationDiagnostics {
  /// One problem with a registration, located at its `observe` call.
  package struct Finding: Sendable {
    package let message: String
    /// The `#fileID` of the `observe` call.
    package let fileID: StaticString
    package let line: UInt
  }

  /// Receives findings in the task that made the registration; set by the leak harness around a
  /// test (`@Test(.detectsLeaks)`).
  @TaskLocal package static var reporter: (@Sendable (Finding) -> Void)?

  private struct State {
    var warnedSites: Set<String> = []
    var unclaimed: [Finding] = []
  }

  private static let state = LockedState(State())
  /// How many unclaimed findings are kept (the oldest are dropped).
  private static let unclaimedLimit = 64

  /// Reports `finding` to the task's reporter, or warns on standard error (once per call site) and
  /// keeps it for ``claimUnreported()``.
  static func report(_ finding: Finding) {
    if let reporter {
      reporter(finding)
      return
    }
    let isFirstAtSite = state.withLock { state in
      state.unclaimed.append(finding)
      if state.unclaimed.count > unclaimedLimit { state.unclaimed.removeFirst() }
      return state.warnedSites.insert("\(finding.fileID):\(finding.line)").inserted
    }
    if isFirstAtSite {
      FileHandle.standardError.write(Data("\(finding.fileID):\(finding.line): warning: \(finding.message)\n".utf8))
    }
  }

  /// The findings made outside a reporter's scope since the last call, oldest first.
  package static func claimUnreported() -> [Finding] {
    state.withLock { state in
      defer { state.unclaimed = [] }
      return state.unclaimed
    }
  }
}

#if DEBUG
  /// The debug-build check that an owner-bound handler does not capture its own owner, which would
  /// keep the owner alive for as long as the center lives.
  enum OwnerCaptureCheck {
    /// Scans `handler`'s captures (closure contexts, boxes and values, not other objects' stored
    /// properties) for `owner`.
    static func check(owner: AnyObject, handler: Any, flags: UInt8, fileID: StaticString, line: UInt) {
      let ownerID = ObjectIdentifier(owner)
      let found = CaptureScanner.scan(handler, for: [ownerID], followObjects: false)
      guard let path = found.paths[ownerID] else { return }
      let ownerName = String(describing: type(of: owner))
      let method =
        flags & RegistrationCore.Flag.oneShot != 0
        ? "observeOnce(_:owner:)"
        : flags & RegistrationCore.Flag.mainActor != 0 ? "observeOnMainActor(_:owner:)" : "observe(_:owner:)"
      let site = "\(fileID):\(line)"
      let route = CaptureScanner.route(path).map { " " + $0 } ?? ""
      let message =
        "The handler passed to \(method) at \(site) captures its owner, a \(ownerName)\(route): the owner can "
        + "never deinitialise while the center lives. Use the handler's owner argument instead."
      RegistrationDiagnostics.report(.init(message: message, fileID: fileID, line: line))
    }
  }
#endif
