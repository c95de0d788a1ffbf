import PresentationModel

/// Which registrations ``expectNoObservers(in:of:ownedBy:timeout:fileID:filePath:line:column:)``
/// counts, and how it words a failure.
enum ObserverFilter {
  /// Polls `listing` until no registration matches or `timeout` passes, and reports the leftovers
  /// at `callSite`. Runs on the caller's actor, so `listing` may read a main-actor center.
  static func expectNone(
    in listing: () -> [RegistrationInfo], notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?,
    timeout: Duration, at callSite: CallSite, isolation: isolated (any Actor)? = #isolation
  ) async -> [RegistrationInfo] {
    func leftovers() -> [RegistrationInfo] {
      listing().filter { matches($0, notificationType: notificationType, ownerType: ownerType) }
    }
    let clock = ContinuousClock()
    let start = clock.now
    await Deadline.poll(timeout: timeout) { leftovers().isEmpty }
    let remaining = leftovers()
    if !remaining.isEmpty {
      let message = failureMessage(
        remaining, notificationType: notificationType, ownerType: ownerType, waited: start.duration(to: clock.now))
      FailureReporter.fail(message, at: callSite)
    }
    return remaining
  }

  static func matches(
    _ registration: RegistrationInfo, notificationType: (any Any.Type)?,
    ownerType: (any AnyObject.Type)?
  ) -> Bool {
    if let notificationType, ObjectIdentifier(registration.notificationType) != ObjectIdentifier(notificationType) {
      return false
    }
    if let ownerType {
      guard let registeredOwner = registration.ownerType else { return false }
      return isSame(registeredOwner, orSubclassOf: ownerType)
    }
    return true
  }

  private static func isSame<Base: AnyObject>(_ candidate: any AnyObject.Type, orSubclassOf base: Base.Type) -> Bool {
    candidate is Base.Type
  }

  static func failureMessage(
    _ leftovers: [RegistrationInfo], notificationType: (any Any.Type)?,
    ownerType: (any AnyObject.Type)?, waited: Duration
  ) -> String {
    var scope: [String] = []
    if let notificationType { scope.append("of \(String(describing: notificationType))") }
    if let ownerType { scope.append("owned by \(String(describing: ownerType))") }
    let expected = scope.isEmpty ? "expected none" : "expected none " + scope.joined(separator: " ")
    let noun = leftovers.count == 1 ? "observer" : "observers"
    let header =
      "\(leftovers.count) \(noun) still registered (\(expected)) after \(waited.roundedSeconds) s:"
    return ([header] + leftovers.map { "- \($0)" }).joined(separator: "\n")
  }
}
