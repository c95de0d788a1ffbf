public import Foundation

/// A Foundation notification (a `Notification.Name` posted through a Foundation
/// `NotificationCenter`) seen as a typed value: declare the conversion once, then observe it
/// through a ``FoundationNotificationBridge`` like a notification of ours.
///
/// ```swift
/// import Foundation
///
/// struct ThumbnailCacheTrimmed: FoundationNotification {
///   static var name: Notification.Name { Notification.Name("ThumbnailCacheTrimmed") }
///   let freedBytes: Int
///
///   init?(_ notification: Notification) {
///     guard let freedBytes = notification.userInfo?["freedBytes"] as? Int else { return nil }
///     self.freedBytes = freedBytes
///   }
/// }
/// ```
///
/// A notification whose `init?(_:)` returns `nil` is skipped: no handler is called, nothing
/// crashes, and a debug build prints one line to standard error the first time it happens for
/// the type. The conversion runs on the thread that posted, before any hop to the main actor, which
/// is why the type is `Sendable`.
public protocol FoundationNotification: Sendable {
  /// The name the notification is posted under.
  static var name: Notification.Name { get }

  /// Reads the payload from a posted notification; `nil` when it does not fit (the notification is
  /// then skipped).
  init?(_ notification: Notification)
}
