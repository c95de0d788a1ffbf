/// A live registration and the handler its center calls, copied out for diagnostics.
package struct RegistrationSnapshot: @unchecked Sendable {
  // @unchecked Sendable: `handler` is a `@Sendable` closure held as `Any`; `registration` is a
  // RegistrationCore, which is Sendable.
  package let info: RegistrationInfo
  /// The registration's handler, whose closure the leak harness scans for captures.
  package let handler: Any
  let registration: RegistrationCore

  /// The owner of an owner-bound registration, while it is alive.
  package var owner: AnyObject? { registration.owner }
  /// The identity of the registration, to compare with a token's.
  package var identity: ObjectIdentifier { ObjectIdentifier(registration) }

  /// A snapshot of `copied`, if its registration is still live.
  init?(_ copied: (registration: RegistrationCore, handler: Any)) {
    guard copied.registration.isLive else { return nil }
    self.init(info: copied.registration.info, handler: copied.handler, registration: copied.registration)
  }

  private init(info: RegistrationInfo, handler: Any, registration: RegistrationCore) {
    self.info = info
    self.handler = handler
    self.registration = registration
  }
}

extension TypedNotificationCenter {
  /// Every live registration with its handler, for diagnostics.
  ///
  /// The handlers are copied (retained) under the lock and returned; the caller drops them after
  /// the lock is released, so releasing what may be a handler's last reference never happens
  /// under it.
  package var registrationSnapshots: [RegistrationSnapshot] {
    copyLiveHandlers().compactMap(RegistrationSnapshot.init)
  }

  /// The registrations and handlers of every channel, retained; under the center's lock.
  func copyLiveHandlers() -> [(registration: RegistrationCore, handler: Any)] {
    state.withLock { state in
      state.channels.values.flatMap { $0.registrationsWithHandlers() }
    }
  }

  /// The identity of the registration behind `token`, to compare with ``RegistrationSnapshot/identity``.
  package static func registrationIdentity(of token: ObserverToken) -> ObjectIdentifier {
    ObjectIdentifier(token.registration)
  }
}
