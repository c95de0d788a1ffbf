import PresentationModel

/// Which registrations of a `TypedNotificationCenter` an `expectNoObservers` check counts as
/// leftovers, with their owners, so that the failure can tell owners apart.
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
}
