/// A live registration and the handler its center calls, copied out for diagnostics.
package struct RegistrationSnapshot: @unchecked Sendable {
  // @unchecked Sendable: `copied.handler` is a `@Sendable` closure, or a `MainActorReleased` box
  // around one that may hold main-actor state (read here, never called, and released on the main
  // queue by the box); `copied.registration` is a RegistrationCore, which is Sendable.
  private let copied: RegisteredHandler

  /// What the registration observes, who owns it and which line made it (made on each read: a
  /// report over 10,000 registrations needs it only for those that hold a survivor).
  package var info: RegistrationInfo { registration.info }
  /// The notification type, the `observe` line and a key for its file: what a listing sorts by,
  /// without making an ``info``.
  package var notificationType: any Any.Type { registration.notificationType }
  package var line: Int { registration.line }
  /// Equal for registrations made by the same `#fileID` literal; the file's name is ``fileID``.
  package var fileIDKey: Int { registration.fileIDKey }
  package var fileID: String { registration.fileID }

  /// The registration's handler, whose closure the leak harness scans for captures.
  package var handler: Any { (copied.handler as? any MainActorReleasedValue)?.anyValue ?? copied.handler }
  /// Whether the copy holds its handler in a ``MainActorReleased`` box, whose last release off the
  /// main queue is finished by a block on the main queue.
  var isReleasedOnMainQueue: Bool { copied.handler is any MainActorReleasedValue }
  var registration: RegistrationCore { copied.registration }

  /// The owner of an owner-bound registration, while it is alive.
  package var owner: AnyObject? { registration.owner }
  /// The identity of the registration, to compare with ``ObserverToken/registrationIdentity``.
  package var identity: ObjectIdentifier { ObjectIdentifier(registration) }

  /// A snapshot of `copied`, if its registration is still live.
  init?(_ copied: RegisteredHandler) {
    guard copied.registration.isLive else { return nil }
    self.copied = copied
  }
}

extension ObserverToken {
  /// The identity of the registration behind the token, to compare with
  /// ``RegistrationSnapshot/identity``.
  package var registrationIdentity: ObjectIdentifier { ObjectIdentifier(registration) }
}

// Each center's snapshots, for `expectNoObservers` (the owners of leftovers) and tests: the
// listing of ``ObservationRegistry/registrationSnapshots``.
extension TypedNotificationCenter {
  /// Every live registration with its handler, in listing order.
  package var registrationSnapshots: [RegistrationSnapshot] { snapshots }
}

extension MainActorNotificationCenter {
  /// Every live registration with its handler, in listing order.
  package var registrationSnapshots: [RegistrationSnapshot] { snapshots }
}

extension FoundationNotificationBridge {
  /// Every live registration with its handler, in listing order.
  package var registrationSnapshots: [RegistrationSnapshot] { snapshots }
}
