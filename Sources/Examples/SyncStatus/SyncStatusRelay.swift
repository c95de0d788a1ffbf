public import PresentationModel

/// Carries ``SyncEngine``'s Foundation notification into the app's main-actor UI: it observes it
/// through a ``FoundationNotificationBridge`` on the main actor and posts ``SyncStatusChanged`` to a
/// ``MainActorNotificationCenter``, where every UI piece observes it.
///
/// One relay per app window (or scene) rather than one bridge observation per view: the
/// notification is converted once, the Foundation center sees one observer, and the views get a
/// main-actor type in registration order (a Foundation center on Linux does not keep order).
/// The relay's observation is bound to it: when the window goes, so does the Foundation observer.
///
/// ```swift
/// import Foundation
/// import PresentationModel
///
/// @MainActor func relayOnce() {
///   let notificationCenter = NotificationCenter()
///   let ui = MainActorNotificationCenter()
///   let relay = SyncStatusRelay(bridge: FoundationNotificationBridge(notificationCenter), center: ui)
///   let badge = SyncBadge(center: ui)
///   SyncEngine(notificationCenter: notificationCenter).finishSync(changedItems: 3)
///   print(badge.text, relay.syncCount)  // 3 changes synced 1
/// }
/// ```
@MainActor
public final class SyncStatusRelay {
  /// Where ``SyncStatusChanged`` is posted.
  public let center: MainActorNotificationCenter
  /// How many syncs the relay has seen.
  public private(set) var syncCount = 0

  /// Starts relaying what `bridge`'s Foundation center receives from any ``SyncEngine``, for as
  /// long as the relay lives.
  public init(bridge: FoundationNotificationBridge, center: MainActorNotificationCenter) {
    self.center = center
    // On the main actor: a post made there is relayed before it returns; one made on another
    // thread is converted there and relayed on the main queue.
    bridge.observeOnMainActor(SyncFinished.self, owner: self) { relay, finished in
      relay.syncCount += 1
      relay.center.post(SyncStatusChanged(changedItems: finished.changedItems, syncCount: relay.syncCount))
    }
  }
}
