/// A registration for notifications of type `N`, in any center: `N` is a `TypedNotification`, a
/// `MainActorNotification`, a `FoundationNotification` or a Foundation message type.
@usableFromInline
class Registration<N>: RegistrationCore, @unchecked Sendable {
  // @unchecked Sendable: adds no stored state to RegistrationCore.

  override var notificationType: any Any.Type { N.self }
}

/// An owner-bound registration for notifications of type `N`: every center makes one when `observe`
/// is given an owner, and reads the owner through it. The only place an owner is stored.
@usableFromInline
final class OwnedRegistration<N>: Registration<N>, @unchecked Sendable {
  // @unchecked Sendable: adds a `weak let` and a `let` type.
  @usableFromInline weak let storedOwner: AnyObject?
  let storedOwnerType: any AnyObject.Type

  init(
    registry: any ObservationRegistry, owner: AnyObject, sender: AnyObject?, flags: RegistrationFlags,
    fileID: StaticString, line: Int
  ) {
    storedOwner = owner
    storedOwnerType = type(of: owner)
    super.init(registry: registry, sender: sender, flags: flags.union(.hasOwner), fileID: fileID, line: line)
  }

  @usableFromInline override var owner: AnyObject? { storedOwner }
  override var ownerType: (any AnyObject.Type)? { storedOwnerType }
}

extension Registration {
  /// A registration of `N` in `registry`: owner-bound when `owner` is given.
  static func make(
    in registry: any ObservationRegistry, owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags,
    fileID: StaticString, line: Int
  ) -> Registration<N> {
    guard let owner else {
      return Registration(registry: registry, sender: sender, flags: flags, fileID: fileID, line: line)
    }
    return OwnedRegistration(registry: registry, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
  }
}
