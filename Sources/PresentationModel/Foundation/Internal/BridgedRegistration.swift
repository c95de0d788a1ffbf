internal import Foundation

/// A registration made through a ``FoundationNotificationBridge``: it lives in the bridge's list
/// (for ``FoundationNotificationBridge/registrations``), and its handler lives only in the block it
/// installed in the Foundation center. Ending it removes that block from the Foundation center.
//
// @unchecked Sendable: adds to RegistrationCore its owner (a `weak let`) and the owner's
// type, a `weak let` to the (Sendable) bridge, an immutable
// reference to a Foundation `NotificationCenter` (Sendable), and the Foundation observer, which is
// only read and written under its own `LockedState`.
final class BridgedRegistration<N>: RegistrationCore, @unchecked Sendable {
  private weak let bridge: FoundationNotificationBridge?
  private let notificationCenter: NotificationCenter
  private let observation = LockedState<FoundationObservation?>(nil)
  private weak let storedOwner: AnyObject?
  private let storedOwnerType: (any AnyObject.Type)?

  init(
    bridge: FoundationNotificationBridge, owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags,
    fileID: StaticString, line: Int
  ) {
    self.bridge = bridge
    self.notificationCenter = bridge.notificationCenter
    self.storedOwner = owner
    self.storedOwnerType = owner.map { type(of: $0) }
    super.init(
      center: nil, sender: sender, flags: owner == nil ? flags : flags.union(.hasOwner), fileID: fileID, line: line)
  }

  override var owner: AnyObject? { storedOwner }
  override var ownerType: (any AnyObject.Type)? { storedOwnerType }

  override var notificationType: any Any.Type { N.self }

  /// Keeps the Foundation observer this registration installed, to remove it when it ends. If it
  /// ended meanwhile (its owner died during a post on another thread), removes it at once.
  func install(_ installed: FoundationObservation) {
    observation.withLock { $0 = installed }
    // `didEnd()` takes the observer after setting the ended state; this reads the state after
    // storing it: at least one of the two sees the other, and `removeFoundationObserver` is
    // idempotent.
    if hasEnded { removeFoundationObserver() }
  }

  /// Whether a delivery may go ahead: not ended, sender filter alive (ends it otherwise).
  func admitsDelivery() -> Bool {
    guard !hasEnded else { return false }
    if flags.contains(.hasSender) && sender == nil {
      end()
      return false
    }
    return true
  }

  /// The owner, if a delivery may go ahead and the owner is alive; otherwise ends the registration
  /// (when the owner died) and returns `nil`.
  func liveOwner() -> AnyObject? {
    guard admitsDelivery() else { return nil }
    guard let owner else {
      end()  // The owner deinitialised: this registration is over.
      return nil
    }
    return owner
  }

  override func didEnd() {
    removeFoundationObserver()
    bridge?.forget(self)
  }

  private func removeFoundationObserver() {
    let taken = observation.withLock { observation in
      defer { observation = nil }
      return observation
    }
    // Outside the lock: removing the observer releases the block, and with it the handler.
    taken?.remove(from: notificationCenter)
  }
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
