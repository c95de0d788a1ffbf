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

/// The notifications of one type, as an `AsyncSequence` that may be iterated anywhere; made by
/// ``TypedNotificationCenter/notifications(of:from:bufferingPolicy:fileID:line:)`` and, for
/// Foundation notifications, ``FoundationNotificationBridge/notifications(of:from:bufferingPolicy:fileID:line:)``.
///
/// The observation ends when the consuming task is cancelled, when this sequence and all its
/// iterators are released, when ``token`` is cancelled, or when the center (or bridge)
/// deinitialises; the sequence then finishes after handing out what it had buffered.
///
/// A ``MainActorNotificationCenter`` hands out a ``MainActorNotificationSequence`` instead, which is
/// iterated on the main actor only.
public struct TypedNotificationSequence<Notification: Sendable>: AsyncSequence, Sendable {
  /// The notification type the sequence hands out.
  public typealias Element = Notification
  /// The sequence never throws.
  public typealias Failure = Never

  let stream: AsyncStream<Notification>

  /// The observation behind this sequence; cancel it to finish the sequence from outside.
  public let token: ObserverToken

  /// A sequence of the notifications `registry` delivers from now on: `store` adds the new stream
  /// registration to the registry's storage with the handler it is given (which yields into the
  /// stream) and returns its token. The typed center's and the bridge's one path.
  init(
    in registry: any ObservationRegistry, sender: AnyObject?, bufferingPolicy: NotificationBufferingPolicy,
    fileID: StaticString, line: Int,
    store: (StreamRegistration<Notification>, _ handler: @escaping @Sendable (Notification) -> Void) -> ObserverToken
  ) {
    let (registration, stream) = StreamRegistration<Notification>.make(
      in: registry, sender: sender, flags: [], bufferingPolicy: bufferingPolicy, fileID: fileID, line: line)
    let continuation = registration.continuation
    self.stream = stream
    self.token = store(registration) { _ = continuation.yield($0) }
  }

  /// Makes an iterator; while it lives, it keeps the observation alive.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator(), token: token)
  }

  /// Hands out the notifications in the order they were posted.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<Notification>.Iterator
    /// Keeps the observation alive for as long as the iterator is.
    let token: ObserverToken

    /// The next notification, waiting for one if none is buffered; `nil` once the observation
    /// ended and the buffer is empty.
    public mutating func next() async -> Notification? {
      await base.next()
    }

    /// The next notification, as ``next()``, without leaving the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Notification? {
      await base.next(isolation: actor)
    }
  }
}
