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

  /// A sequence of the notifications `engine`'s center delivers from now on: `store` adds the new
  /// stream registration to the center with the handler it is given (which yields into the stream)
  /// and returns its token. The typed center's and the bridge's one path.
  init(
    in engine: Engine, sender: AnyObject?, bufferingPolicy: NotificationBufferingPolicy,
    fileID: StaticString, line: Int,
    store: (StreamRegistration<Notification>, _ handler: @escaping @Sendable (Notification) -> Void) -> ObserverToken
  ) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Notification.self, bufferingPolicy: bufferingPolicy.streamPolicy())
    let registration = StreamRegistration(in: engine, sender: sender, fileID: fileID, line: line, feeding: continuation)
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
