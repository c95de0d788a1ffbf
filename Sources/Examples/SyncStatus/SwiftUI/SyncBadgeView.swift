#if canImport(SwiftUI)
  public import PresentationModel
  public import SwiftUI

  /// The sync panel's badge in SwiftUI: it shows the latest ``SyncStatusChanged`` while it is on
  /// screen. The observation starts when the view appears and ends when it disappears, so a closed
  /// panel's badge is never updated; the relay carries `NotificationCenter`'s post to it.
  public struct SyncBadgeView: View {
    /// Where ``SyncStatusRelay`` posts.
    public let center: MainActorNotificationCenter
    @State private var text = "not synced yet"

    public init(center: MainActorNotificationCenter) {
      self.center = center
    }

    public var body: some View {
      Text(text)
        .onNotification(SyncStatusChanged.self, in: center) { status in text = status.summary }
    }
  }
#endif
