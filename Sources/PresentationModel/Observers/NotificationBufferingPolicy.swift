/// What a ``TypedNotificationSequence`` does with notifications that arrive faster than its
/// consumer takes them.
///
/// There is no default: every sequence states its policy where it is made.
public struct NotificationBufferingPolicy: Sendable, Hashable {
  enum Kind: Hashable {
    case unbounded
    case oldest(Int)
    case newest(Int)
  }

  let kind: Kind

  /// Keeps every notification until it is consumed. Memory grows while the consumer lags.
  public static let unbounded = NotificationBufferingPolicy(kind: .unbounded)

  /// Keeps at most `limit` waiting notifications, the oldest ones; newer arrivals are dropped while
  /// the buffer is full.
  ///
  /// - Precondition: `limit >= 1`.
  public static func bufferingOldest(_ limit: Int) -> NotificationBufferingPolicy {
    precondition(limit >= 1, "NotificationBufferingPolicy.bufferingOldest: limit must be at least 1, got \(limit)")
    return NotificationBufferingPolicy(kind: .oldest(limit))
  }

  /// Keeps at most `limit` waiting notifications, the newest ones; the oldest waiting one is
  /// dropped to make room. `.bufferingNewest(1)` always hands the consumer the latest state.
  ///
  /// - Precondition: `limit >= 1`.
  public static func bufferingNewest(_ limit: Int) -> NotificationBufferingPolicy {
    precondition(limit >= 1, "NotificationBufferingPolicy.bufferingNewest: limit must be at least 1, got \(limit)")
    return NotificationBufferingPolicy(kind: .newest(limit))
  }

  func streamPolicy<Element>() -> AsyncStream<Element>.Continuation.BufferingPolicy {
    switch kind {
    case .unbounded: .unbounded
    case .oldest(let limit): .bufferingOldest(limit)
    case .newest(let limit): .bufferingNewest(limit)
    }
  }
}
