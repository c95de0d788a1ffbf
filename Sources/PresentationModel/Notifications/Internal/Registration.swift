/// A registration for notifications of type `N` in a ``TypedNotificationCenter``.
@usableFromInline
class Registration<N: TypedNotification>: RegistrationCore, @unchecked Sendable {
  // @unchecked Sendable: adds no stored state to RegistrationCore.

  override var notificationType: any Any.Type { N.self }

  override func detach(from center: TypedNotificationCenter) {
    center.detach(self, from: ObjectIdentifier(N.self))
  }
}
