import PresentationModel

/// Which live registrations an `expectNoObservers` check counts: those of one notification type
/// and/or one owner type (or all, when neither is given).
struct ObserverFilter {
  let notificationType: (any Any.Type)?
  let ownerType: (any AnyObject.Type)?

  /// The matching registrations among `snapshots` (a center's, in its listing order) with their
  /// owners, so that a failure can tell owners apart.
  func leftovers(among snapshots: [RegistrationSnapshot]) -> [LeftoverObserver] {
    snapshots.filter { matches($0.info) }.map { LeftoverObserver(registration: $0.info, owner: $0.owner) }
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
