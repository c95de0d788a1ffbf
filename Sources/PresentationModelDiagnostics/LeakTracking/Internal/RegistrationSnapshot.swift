/// A registration and the handler its center calls, copied out for diagnostics (which keep only
/// the live ones, asked after the copy): what the leak harness, `expectNoObservers` and the demo
/// read of it. The core hands out the pairs (`Engine.unendedRegistrationsWithHandlers(where:)`).
package struct RegistrationSnapshot: Sendable {
  package let registration: Registration
  /// A `@Sendable` closure, or a `MainActorReleased` box around one that may hold main-actor
  /// state.
  let copied: any Sendable

  init(_ copy: (registration: Registration, handler: any Sendable)) {
    self.registration = copy.registration
    self.copied = copy.handler
  }

  /// What the registration observes, who owns it and which line made it (made on each read: a
  /// report over 10,000 registrations needs it only for those that hold a survivor).
  package var info: RegistrationInfo { registration.info }
  /// The notification type, the `observe` line and a key for its file: what a listing sorts by,
  /// without making an ``info``.
  package var notificationType: any Any.Type { registration.site.notificationType }
  package var line: Int { registration.site.line }
  /// Equal for registrations made by the same `#fileID` literal; the file's name is ``fileID``.
  package var fileIDKey: Int { Int(bitPattern: Registration.Site.key(of: registration.site.fileID)) }
  package var fileID: String { registration.site.fileID.description }

  /// The registration's handler, whose closure the leak harness scans for captures.
  package var handler: Any { (copied as? any MainActorReleasedValue)?.anyValue ?? copied }

  /// The owner of an owner-bound registration, while it is alive.
  package var owner: AnyObject? { registration.owner }
  /// The identity of the registration, to compare with ``ObserverToken/registrationIdentity``.
  package var identity: ObjectIdentifier { ObjectIdentifier(registration) }
}

extension ObserverToken {
  /// The identity of the registration behind the token, to compare with
  /// ``RegistrationSnapshot/identity``.
  package var registrationIdentity: ObjectIdentifier { ObjectIdentifier(registration) }
}

extension Engine {
  /// Every live registration with its handler, in listing order.
  var snapshots: [RegistrationSnapshot] {
    Self.listingOrder(
      unendedRegistrationsWithHandlers { _ in true }.map(RegistrationSnapshot.init).filter(\.registration.isLive),
      \.registration)
  }
}

// Each center's snapshots, for `expectNoObservers` (the owners of leftovers) and tests.
extension TypedNotificationCenter {
  /// Every live registration with its handler, in listing order.
  package var registrationSnapshots: [RegistrationSnapshot] { engine.snapshots }
}

extension MainActorNotificationCenter {
  /// Every live registration with its handler, in listing order.
  package var registrationSnapshots: [RegistrationSnapshot] { engine.snapshots }
}

extension FoundationNotificationBridge {
  /// Every live registration with its handler, in listing order.
  package var registrationSnapshots: [RegistrationSnapshot] { engine.snapshots }
}
