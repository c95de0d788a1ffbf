import PresentationModel

/// Which registrations `expectNoObservers(in:)` counts, and how it polls for them and reports them
/// (worded by `SurvivorWording`).
enum ObserverFilter {
  /// Polls `leftovers` until it is empty or `timeout` passes, and reports what is left at
  /// `callSite`. Runs on the caller's actor, so `leftovers` may read a main-actor center.
  static func expectNone<Leftover>(
    _ leftovers: () -> [Leftover], info: (Leftover) -> RegistrationInfo, describe: (Leftover) -> String,
    notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?, timeout: Duration,
    at callSite: CallSite, isolation: isolated (any Actor)? = #isolation
  ) async -> [RegistrationInfo] {
    let start = ContinuousClock.now
    await Deadline.poll(timeout: timeout) { leftovers().isEmpty }
    return report(
      leftovers(), info: info, describe: describe, notificationType: notificationType, ownerType: ownerType,
      waited: start.duration(to: .now), at: callSite)
  }

  /// The blocking form of ``expectNone(_:info:describe:notificationType:ownerType:timeout:at:isolation:)``.
  static func expectNoneBlocking<Leftover>(
    _ leftovers: () -> [Leftover], info: (Leftover) -> RegistrationInfo, describe: (Leftover) -> String,
    notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?, timeout: Duration,
    at callSite: CallSite
  ) -> [RegistrationInfo] {
    let start = ContinuousClock.now
    Deadline.pollBlocking(timeout: timeout) { leftovers().isEmpty }
    return report(
      leftovers(), info: info, describe: describe, notificationType: notificationType, ownerType: ownerType,
      waited: start.duration(to: .now), at: callSite)
  }

  /// Fails at `callSite` listing `remaining`, if any; returns their infos.
  private static func report<Leftover>(
    _ remaining: [Leftover], info: (Leftover) -> RegistrationInfo, describe: (Leftover) -> String,
    notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?, waited: Duration, at callSite: CallSite
  ) -> [RegistrationInfo] {
    if !remaining.isEmpty {
      let message = SurvivorWording.observers(
        remaining.map(describe), notificationType: notificationType, ownerType: ownerType, waited: waited)
      FailureReporter.fail(message, at: callSite)
    }
    return remaining.map(info)
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
}
