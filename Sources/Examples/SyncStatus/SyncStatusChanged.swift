public import PresentationModel

/// Posted on the main actor by ``SyncStatusRelay`` for each finished sync: what the UI shows.
public struct SyncStatusChanged: MainActorNotification {
  /// How many items the sync changed.
  public let changedItems: Int
  /// The relay's count of syncs so far, this one included.
  public let syncCount: Int
}
