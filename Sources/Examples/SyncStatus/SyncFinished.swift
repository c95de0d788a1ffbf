public import Foundation
public import PresentationModel

/// ``SyncEngine``'s Foundation notification as a typed value: converted once, on the posting
/// thread, where ``FoundationNotificationBridge`` receives it.
public struct SyncFinished: FoundationNotification {
  public static var name: Notification.Name { SyncEngine.didFinishNotification }

  /// How many items the sync changed.
  public let changedItems: Int

  /// `nil` (the post is skipped) when `userInfo` has no `Int` under ``SyncEngine/changedItemsKey``.
  public init?(_ notification: Notification) {
    guard let changedItems = notification.userInfo?[SyncEngine.changedItemsKey] as? Int else { return nil }
    self.changedItems = changedItems
  }
}
