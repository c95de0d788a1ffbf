import PresentationModel

/// Which live registrations an `expectNoObservers` check counts: those of one notification type
/// and/or one owner type (or all, when neither is given).
struct ObserverFilter {
  let notificationType: (any Any.Type)?
  let ownerType: (any AnyObject.Type)?

  /// The matching registrations of `center` with their owners (so that a failure can tell owners
  /// apart), by notification type name, then in registration order.
  func leftovers(in center: TypedNotificationCenter) -> [LeftoverObserver] {
    center.registrationSnapshots.enumerated()
      .filter { matches($0.element.info) }
      .sorted { lhs, rhs in
        let left = String(reflecting: lhs.element.info.notificationType)
        let right = String(reflecting: rhs.element.info.notificationType)
        return (left, lhs.offset) < (right, rhs.offset)
      }
      .map { LeftoverObserver(registration: $0.element.info, owner: $0.element.owner) }
  }

  /// The matching registrations among `registrations` (of a center that does not expose owners),
  /// in their order.
  func leftovers(among registrations: [RegistrationInfo]) -> [LeftoverObserver] {
    registrations.filter(matches).map { LeftoverObserver(registration: $0, owner: nil) }
  }

  func matches(_ registration: RegistrationInfo) -> Bool {
    if let notificationType, ObjectIdentifier(registration.notificationType) != ObjectIdentifier(notificationType) {
      return false
    }
    if let ownerType {
      guard let registeredOwner = registration.ownerType else { return false }
      return Self.isSame(registeredOwner, orSubclassOf: ownerType)
    }
    return true
  }

  private static func isSame<Base: AnyObject>(_ candidate: any AnyObject.Type, orSubclassOf base: Base.Type) -> Bool {
    candidate is Base.Type
  }
}
