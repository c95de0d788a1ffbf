import PresentationModel

/// One `expectNoObservers` check: which registrations of a center count as leftovers, and the
/// failure that lists them.
struct ObserverCheck {
  let center: TypedNotificationCenter
  let notificationType: (any Any.Type)?
  let ownerType: (any AnyObject.Type)?

  /// The live registrations that match the filters, by notification type name, then in
  /// registration order.
  func leftovers() -> [RegistrationSnapshot] {
    center.registrationSnapshots.enumerated()
      .filter { ObserverFilter.matches($0.element.info, notificationType: notificationType, ownerType: ownerType) }
      .sorted { lhs, rhs in
        let left = String(reflecting: lhs.element.info.notificationType)
        let right = String(reflecting: rhs.element.info.notificationType)
        return (left, lhs.offset) < (right, rhs.offset)
      }
      .map(\.element)
  }

  /// Fails at `site` if leftovers remain; returns them.
  func finish(waited: Duration, at site: CallSite) -> [RegistrationInfo] {
    let remaining = leftovers()
    if !remaining.isEmpty {
      let message = ObserverFilter.failureMessage(
        remaining, notificationType: notificationType, ownerType: ownerType, waited: waited)
      FailureReporter.fail(message, at: site)
    }
    return remaining.map(\.info)
  }
}
