// The observation layer: the one contract under `TypedNotificationCenter`,
// `MainActorNotificationCenter` and `FoundationNotificationBridge`.
//
// Each center is a delivery engine (its own storage, tuned for its post path) plugged into this
// contract. What a registration does from its start to its end, and everything that reads
// registrations (queries, the leak harness), is written once, here and in `RegistrationCore`:
// - the start: `admit` (the registration log, the owner-capture check, the starts-dead check);
// - the end: `RegistrationCore.end()` → `registry.detach(_:)` (the one back-reference);
// - the reads: `liveRegistrations(of:)` (owner loads after unlocking), the listing in one order
//   (`listing(of:)`: types sorted by name, registration order within a type), `observerCount`,
//   the snapshots the leak harness scans, and the sweep of registrations whose owner died unnoticed
//   (`endDeadRegistrations(of:)`);
// - the live-registry set (`LiveRegistries`) that diagnostics read.

/// What every center implements, so that registrations, queries and diagnostics work the same on
/// each.
///
/// Conformers never load an owner or a sender, and never release what may hold user values, while
/// their storage is locked or being rebuilt: they copy registrations out, and drop what they
/// removed after unlocking (``ReleasedAfterUnlock``), on the main queue when it may hold
/// main-actor state.
protocol ObservationRegistry: AnyObject, Sendable {
  /// The public name of the center, for every message and trap it raises.
  var registryName: StaticString { get }

  /// Which of the three conformers this is: a registration stores it next to a plain weak
  /// reference to the registry, instead of a weak existential (see ``RegistryKind``).
  var registryKind: RegistryKind { get }

  /// Releases what the registry holds for `registration` (its entry and handler, a Foundation
  /// observer), which has just ended.
  ///
  /// Called exactly once per registration, by ``RegistrationCore/finishEnding()``, on any thread,
  /// with no lock held. A registry whose handlers may hold main-actor state releases them on the
  /// main queue.
  func detach(_ registration: RegistrationCore)

  /// The registrations of `notificationType` (every type when `nil`) that have not ended: grouped
  /// by type, in registration order within a type. Copied out; loads no owner and changes nothing.
  func unendedRegistrations(of notificationType: ObjectIdentifier?) -> [RegistrationCore]

  /// ``unendedRegistrations(of:)`` for every type that `isIncluded` accepts, each with its handler
  /// (for the leak harness, which scans the handler's captures). A handler that may hold main-actor
  /// state is handed out in a ``MainActorReleased`` box.
  ///
  /// `isIncluded` is called with the registry's storage locked, before anything is copied, so that
  /// no handler the caller does not want is retained even for a moment (another test may be
  /// waiting for what it captures to go). It must not call into a center.
  func unendedRegistrationsWithHandlers(where isIncluded: @Sendable (RegistrationCore) -> Bool) -> [RegisteredHandler]
}

/// The conformers of ``ObservationRegistry``, one byte that a registration stores beside a weak
/// `AnyObject` reference to its registry and turns back into the registry with `unsafeDowncast`.
///
/// Why not a weak `any ObservationRegistry`: an existential is 16 bytes (the reference and the
/// witness table), which made a registration a 64-byte object in an 80-byte malloc chunk; with the
/// tag in the spare byte of its first word it is 56 bytes, in a 64-byte chunk: 16 bytes less per
/// observation. A fourth conformer adds a case here and an arm in
/// `RegistrationCore.registry`, which the compiler asks for.
enum RegistryKind: UInt8, Sendable {
  case typedCenter
  case mainActorCenter
  case foundationBridge
}

/// A registration and the handler its center calls, copied out of the center.
struct RegisteredHandler: @unchecked Sendable {
  // @unchecked Sendable: `handler` is either a `@Sendable` closure or a `MainActorReleased` box
  // (Sendable: it releases its value on the main queue only), held as `Any`.
  let registration: RegistrationCore
  let handler: Any
}

extension ObservationRegistry {
  /// The start of every registration of every center: records it in the leak harness's log of the
  /// running test (``LeakScopeLog``), checks in debug builds that an owner-bound handler does not
  /// capture its owner and that a sender filter is not a value cast to an object (``SenderCheck``),
  /// and ends it at once if its owner or sender is already deinitialising.
  ///
  /// - Parameters:
  ///   - token: The token of the new registration, which is not yet in the center's storage.
  ///   - handler: The handler as the caller passed it, for the owner-capture check (debug builds
  ///     only: release builds never evaluate it).
  ///   - form: The `observe` form, for the owner-capture message (`observe(_:owner:)`).
  ///   - fileID: The `#fileID` of the `observe` call.
  ///   - line: The line of the `observe` call.
  /// - Returns: Whether the center should store it (`false`: it has ended).
  @inline(__always)
  func admit(
    _ token: ObserverToken, handler: @autoclosure () -> Any, form: StaticString, fileID: StaticString, line: Int
  ) -> Bool {
    let registration = token.registration
    LeakScopeLog.inScope?.record(token)
    #if DEBUG
      if registration.flags.contains(.hasOwner), let owner = registration.owner {
        OwnerLoadProbe.loaded(owner)
        // A main-actor handler boxed to be released on the main queue is scanned as the caller's.
        let handler = handler()
        OwnerCaptureCheck.check(
          owner: owner, handler: (handler as? any MainActorReleasedValue)?.anyValue ?? handler, center: registryName,
          form: form, fileID: fileID, line: line)
      }
      // The caller's argument still holds the sender here, so this load finds it even when it is a
      // temporary that deinitialises as the `observe` call returns.
      if registration.flags.contains(.hasSender) {
        let sender = registration.sender
        if let sender { OwnerLoadProbe.loaded(sender) }
        SenderCheck.check(sender, fileID: fileID, line: line)
      }
    #endif
    // An owner or sender already deinitialising cannot be referenced weakly: the weak load is nil
    // at once, so the registration could never deliver.
    guard !registration.startsDead else {
      registration.end()
      return false
    }
    return true
  }

  /// The live registrations of `notificationType` (every type when `nil`), in the order of
  /// ``unendedRegistrations(of:)``.
  ///
  /// The owners and senders are loaded here, after the center unlocked: a load makes a strong
  /// reference whose release may run the owner's `deinit`, which may call back into the center.
  func liveRegistrations(of notificationType: ObjectIdentifier?) -> [RegistrationCore] {
    unendedRegistrations(of: notificationType).filter(\.isLive)
  }

  /// The number of live registrations of `type`.
  func observerCount(of type: any Any.Type) -> Int {
    liveRegistrations(of: ObjectIdentifier(type)).count
  }

  /// Every live registration in the one order every center lists in: notification types sorted by
  /// name, registration order within a type. Changes nothing.
  var listing: [RegistrationInfo] {
    Self.listingOrder(liveRegistrations(of: nil), \.self).map(\.info)
  }

  /// Every live registration with its handler, in listing order, for the leak harness.
  var snapshots: [RegistrationSnapshot] {
    Self.listingOrder(
      unendedRegistrationsWithHandlers { _ in true }.compactMap(RegistrationSnapshot.init), \.registration)
  }

  /// Ends the registrations of `notificationType` (every type when `nil`) whose owner or sender
  /// died unnoticed, so that the center releases their handlers: the sweep a center runs after its
  /// storage has grown, outside its lock.
  ///
  /// - Returns: How many registrations it found live, from which the center sets its next sweep
  ///   (twice that, at least 32: dead registrations never outnumber twice the live ones plus 32).
  @discardableResult
  func endDeadRegistrations(of notificationType: ObjectIdentifier?) -> Int {
    var liveCount = 0
    for registration in unendedRegistrations(of: notificationType) {
      if registration.isLive { liveCount += 1 } else { registration.end() }
    }
    return liveCount
  }

  /// `items` sorted by the name of their registration's notification type, keeping their order
  /// within a type.
  private static func listingOrder<Item>(_ items: [Item], _ registration: (Item) -> RegistrationCore) -> [Item] {
    items.enumerated()
      .map { (name: String(reflecting: registration($0.element).notificationType), index: $0.offset, item: $0.element) }
      .sorted { ($0.name, $0.index) < ($1.name, $1.index) }
      .map(\.item)
  }
}
