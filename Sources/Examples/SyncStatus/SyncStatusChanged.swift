public import PresentationModel

/// Posted on the main actor by ``SyncStatusRelay`` for each finished sync: what the UI shows.
public struct SyncStatusChanged: MainActorNotification {
  /// How many items the sync changed.
  public let changedItems: Int
  /// The relay's count of syncs so far, this one included.
  public let syncCount: Int

  /// What a badge shows for it: `1 change synced`, `3 changes synced`.
  public var summary: String {
    changedItems == 1 ? "1 change synced" : "\(changedItems) changes synced"
  }
}
