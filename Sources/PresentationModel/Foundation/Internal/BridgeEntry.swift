internal import Foundation

/// What a ``FoundationNotificationBridge`` holds for one registration: its place in the listing,
/// the observer it installed in the Foundation center (whose block holds the handler for delivery),
/// and the handler as given (for the leak harness, which scans its captures).
///
/// Detaching the registration removes the entry under the bridge's lock, then, after unlocking,
/// removes the Foundation observer; the block and the handler go with it (main-actor handlers are
/// boxed in ``MainActorReleased``, so they are released on the main queue wherever Foundation drops
/// the block).
struct BridgeEntry: @unchecked Sendable {
  // @unchecked Sendable: `handler` is a `@Sendable` closure or a `MainActorReleased` box (Sendable),
  // held as `Any`; `observation` holds the observer Foundation returned (thread-safe to remove from
  // any thread, which is all the bridge does with it) or a `@Sendable` closure; the rest is
  // Sendable.
  /// Registration order, for the listing.
  let order: Int
  let registration: RegistrationCore
  let handler: Any
  /// `nil` until the bridge installed it.
  var observation: FoundationObservation?
}

/// What a bridged registration installed in a Foundation center.
enum FoundationObservation {
  /// `addObserver(forName:object:queue:using:)`.
  case classic(any NSObjectProtocol)
  /// `addObserver(of:for:using:)` for a typed message: removes its `ObservationToken` (a type
  /// that Apple platforms gate by availability, so it is captured rather than stored).
  case message(remove: @Sendable (NotificationCenter) -> Void)

  func remove(from center: NotificationCenter) {
    switch self {
    case .classic(let observer): center.removeObserver(observer)
    case .message(let remove): remove(center)
    }
  }
}
