internal import Foundation
internal import PresentationCaptureReading

/// Problems found in a registration when it is made, and where they go: to the running test when a
/// test harness installed a reporter (``reporter``), otherwise to standard error once per call site
/// and to a short list that an XCTest teardown can claim (its side, claiming and dropping, is the
/// harness's: `RegistrationDiagnostics+Claiming.swift` in `PresentationModelTesting`).
package enum RegistrationDiagnostics {
  /// One problem with a registration, located at its `observe` call.
  package struct Finding: Sendable {
    package let message: String
    /// The `#fileID` of the `observe` call.
    package let fileID: StaticString
    package let line: Int
    /// When it was found (when the registration was made).
    package let madeAt = ContinuousClock.now
  }

  /// Receives findings in the task that made the registration; set by the leak harness around a
  /// test (`@Test(.detectsLeaks)`).
  @TaskLocal package static var reporter: (@Sendable (Finding) -> Void)?

  package struct State {
    var warnedSites: Set<String> = []
    package var unclaimed: [Finding] = []
  }

  package static let state = LockedState(State())
  /// How many unclaimed findings are kept (the oldest are dropped).
  private static let unclaimedLimit = 64

  /// Reports `finding` to the task's reporter, or warns on standard error (once per call site) and
  /// keeps it for the harness to claim.
  static func report(_ finding: Finding) {
    if let reporter { return reporter(finding) }
    let isFirstAtSite = state.withLock { state in
      state.unclaimed.append(finding)
      if state.unclaimed.count > unclaimedLimit { state.unclaimed.removeFirst() }
      return state.warnedSites.insert("\(finding.fileID):\(finding.line)").inserted
    }
    if isFirstAtSite {
      FileHandle.standardError.write(Data("\(finding.fileID):\(finding.line): warning: \(finding.message)\n".utf8))
    }
  }
}

#if DEBUG
  extension RegistrationDiagnostics {
    /// The debug-build checks of a registration as it is made: its owner-bound handler does not
    /// capture its owner, and its sender filter is not a value cast to an object (``SenderCheck``).
    ///
    /// - Parameters:
    ///   - handler: The handler as the caller passed it (a main-actor one boxed to be released on
    ///     the main queue is scanned as the caller's).
    ///   - center: The public name of the center, as the message names it.
    ///   - form: The `observe` form, such as `observe(_:owner:)`.
    static func check(_ registration: Registration, handler: any Sendable, center: StaticString, form: StaticString) {
      let site = registration.site
      if let owner = registration.owner {
        OwnerLoadProbe.loaded(owner)
        let scanned: Any = (handler as? any MainActorReleasedValue)?.anyValue ?? handler
        OwnerCaptureCheck.check(owner: owner, handler: scanned, center: center, form: form, site: site)
      }
      // The caller's argument still holds the sender here, so this load finds it even when it is a
      // temporary that deinitialises as the `observe` call returns.
      if registration.flags.contains(.hasSender) {
        let sender = registration.sender
        if let sender { OwnerLoadProbe.loaded(sender) }
        SenderCheck.check(sender, fileID: site.fileID, line: site.line)
      }
    }
  }

  /// The debug-build check that an owner-bound handler does not capture its own owner, which would
  /// keep the owner alive for as long as the center lives.
  enum OwnerCaptureCheck {
    /// After this many registrations at one `observe` call whose handlers did not capture their
    /// owner, that call is not checked again: capturing the owner is a property of the code at the
    /// call, and registration-heavy code (a list observing per row) should not pay for a walk each
    /// time.
    static let cleanChecksPerCallSite = 8

    /// How many values the check reads in one handler, breadth first (the owner captured directly,
    /// or in a small value, is among the first): bounded so that `observe` pays at most tens of
    /// microseconds in a debug build whatever the handler captures (`presentation-bench
    /// --leak-walk`). The leak report reads further.
    static let visitsPerHandler = 32

    private static let cleanChecks = LockedState<[ObjectIdentifier: Int]>([:])

    /// Scans `handler`'s captures (closure contexts, boxes and values, not other objects' stored
    /// properties) for `owner`, and reports the registration made at `site` when it finds it.
    static func check(owner: AnyObject, handler: Any, center: StaticString, form: StaticString, site: Registration.Site)
    {
      let key = ObjectIdentifier(site)
      guard cleanChecks.withLock({ $0[key, default: 0] < cleanChecksPerCallSite }) else { return }
      let ownerID = ObjectIdentifier(owner)
      let found = CaptureScanner.scan(handler, for: [ownerID], followObjects: false, maximumVisits: visitsPerHandler)
      guard let path = found.paths[ownerID] else {
        cleanChecks.withLock { $0[key, default: 0] += 1 }
        return
      }
      let ownerName = String(describing: type(of: owner))
      let location = "\(site.fileID):\(site.line)"
      let route = CaptureScanner.route(path).map { " " + $0 } ?? ""
      let message =
        "The handler passed to \(center).\(form) at \(location) captures its owner, a \(ownerName)\(route): the "
        + "owner can never deinitialise while the center lives. Use the handler's owner argument instead."
      RegistrationDiagnostics.report(.init(message: message, fileID: site.fileID, line: site.line))
    }
  }
#endif
