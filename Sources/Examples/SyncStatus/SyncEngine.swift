public import Foundation

/// Code the app does not own yet, written against Foundation: it posts
/// ``SyncEngine/didFinishNotification`` to a `NotificationCenter` after each sync, on whatever
/// thread the sync ran, with its figures in `userInfo`.
///
/// ```swift
/// import Foundation
///
/// let engine = SyncEngine(notificationCenter: NotificationCenter())
/// engine.finishSync(changedItems: 3)  // posts SyncEngineDidFinish with userInfo ["changedItems": 3]
/// ```
public final class SyncEngine: Sendable {
  /// The name the engine posts under.
  public static let didFinishNotification = Notification.Name("SyncEngineDidFinish")
  /// The `userInfo` key of the number of items the sync changed (an `Int`).
  public static let changedItemsKey = "changedItems"

  /// Where the engine posts.
  public let notificationCenter: NotificationCenter

  public init(notificationCenter: NotificationCenter) {
    self.notificationCenter = notificationCenter
  }

  /// Posts ``didFinishNotification`` from this engine, on the calling thread.
  public func finishSync(changedItems: Int) {
    notificationCenter.post(
      name: Self.didFinishNotification, object: self, userInfo: [Self.changedItemsKey: changedItems])
  }
}
