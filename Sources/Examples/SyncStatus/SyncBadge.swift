public import PresentationModel

/// The sync panel's badge, without a platform view: the text it shows after each sync.
///
/// It observes ``SyncStatusChanged`` with an observation bound to its lifetime: close the panel,
/// let go of the badge, and nothing updates it any more. On Apple platforms, `SyncBadgeView` is the
/// same badge in SwiftUI, observing while it is on screen.
@MainActor
public final class SyncBadge {
  /// What the badge shows.
  public private(set) var text = "not synced yet"

  public init(center: MainActorNotificationCenter) {
    center.observe(SyncStatusChanged.self, owner: self) { badge, status in
      badge.text = status.summary
    }
  }
}
