/// A registration for notifications of type `N` in a ``TypedNotificationCenter``.
@usableFromInline
class Registration<N: TypedNotification>: RegistrationCore, @unchecked Sendable {
  // @unchecked Sendable: adds no stored state to RegistrationCore.

  override var notificationType: any Any.Type { N.self }

  override func detach(from center: TypedNotificationCenter) {
    center.detach(self, from: ObjectIdentifier(N.self))
  }
}

/// An owner-bound registration for notifications of type `N`: the typed center makes one when
/// `observe` is given an owner, and a post reads the owner through it.
@usableFromInline
final class OwnedRegistration<N: TypedNotification>: Registration<N>, @unchecked Sendable {
  // @unchecked Sendable: adds a `weak let` and a `let` type.
  @usableFromInline weak let storedOwner: AnyObject?
  let storedOwnerType: any AnyObject.Type

  init(
    center: TypedNotificationCenter, owner: AnyObject, sender: AnyObject?, flags: RegistrationFlags,
    fileID: StaticString, line: Int
  ) {
    storedOwner = owner
    storedOwnerType = type(of: owner)
    super.init(center: center, sender: sender, flags: flags.union(.hasOwner), fileID: fileID, line: line)
  }

  @usableFromInline override var owner: AnyObject? { storedOwner }
  override var ownerType: (any AnyObject.Type)? { storedOwnerType }
}
