/// A description of one live registration: what it observes, who owns it, and which line made it.
///
/// ```swift
/// struct Ping: TypedNotification {}
/// let center = TypedNotificationCenter()
/// let token = center.observe(Ping.self) { _ in }
/// for registration in center.registrations {
///   print(registration)  // "Ping observed (token) at MyApp/File.swift:3, posting thread"
/// }
/// token.cancel()
/// ```
public struct RegistrationInfo: Sendable, CustomStringConvertible {
  /// How a registration's handler is called.
  public enum Delivery: Sendable, Hashable, CustomStringConvertible {
    /// Synchronously, on the thread that posts.
    case postingThread
    /// On the main actor: synchronously when posted there, enqueued on the main queue otherwise.
    case mainActor
    /// Buffered into a ``TypedNotificationSequence``.
    case asyncSequence
    /// In a task that Foundation starts for each message, after the post returned (a
    /// `NotificationCenter.AsyncMessage` observed through ``FoundationNotificationBridge``).
    case task

    /// `posting thread`, `main actor`, `async sequence` or `task`, as a registration's description
    /// shows it.
    public var description: String {
      switch self {
      case .postingThread: "posting thread"
      case .mainActor: "main actor"
      case .asyncSequence: "async sequence"
      case .task: "task"
      }
    }
  }

  /// The observed notification type: a ``TypedNotification``, a ``MainActorNotification``, a
  /// ``FoundationNotification`` or a Foundation message type.
  public let notificationType: any Any.Type
  /// The owner's type for an owner-bound registration; `nil` when a token bounds it.
  public let ownerType: (any AnyObject.Type)?
  /// The `#fileID` of the `observe` call.
  public let fileID: String
  /// The line of the `observe` call.
  public let line: Int
  /// How the handler is called.
  public let delivery: Delivery
  /// Whether the registration ends after its first delivery.
  public let isOneShot: Bool
  /// Whether only notifications from one sender are delivered.
  public let filtersBySender: Bool

  /// For example `NodeDeleted observed by NodeWidget at NodeEditor/NodeWidget.swift:42, main actor`.
  public var description: String {
    let who = ownerType.map { "by \(String(describing: $0))" } ?? "(token)"
    var text = "\(String(describing: notificationType)) observed \(who) at \(fileID):\(line), \(delivery)"
    if isOneShot { text += ", one-shot" }
    if filtersBySender { text += ", filtered by sender" }
    return text
  }
}
