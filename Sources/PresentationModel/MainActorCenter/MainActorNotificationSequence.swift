/// The notifications of one main-actor type, as an `AsyncSequence` iterated on the main actor; made
/// by ``MainActorNotificationCenter/notifications(of:from:bufferingPolicy:fileID:line:)``.
///
/// The observation ends when the consuming task is cancelled, when this sequence and all its
/// iterators are released, when ``token`` is cancelled, or when the center deinitialises; the
/// sequence then finishes after handing out what it had buffered.
///
/// ```swift
/// struct LayerMoved: MainActorNotification {
///   let index: Int
/// }
///
/// @MainActor func logMoves(in center: MainActorNotificationCenter) async {
///   let moves = center.notifications(of: LayerMoved.self, bufferingPolicy: .unbounded)
///   for await move in moves {
///     print("moved to \(move.index)")
///     if move.index == 0 { break }  // ends the observation
///   }
/// }
/// ```
///
/// Its notifications need not be `Sendable`, so they must stay on the main actor, where they are
/// posted: the conformance to `AsyncSequence` (and its iterator's to `AsyncIteratorProtocol`) is
/// isolated to the main actor (`@MainActor AsyncSequence`, SE-0470). A `for await` loop in
/// main-actor code, in a `Task {}` started there, or over `map` or `prefix` of it compiles; one in
/// a `Task.detached` or a `nonisolated` async function does not ("main actor-isolated instance
/// method 'makeAsyncIterator()' cannot be called from outside of the actor", in Swift 6.3). Each
/// `next()` resumes on the main actor.
///
/// > Important: Swift 6.3 still lets a value with a main-actor conformance be passed to a generic
/// > `nonisolated` async function, which may then iterate it off the main actor (swiftlang/swift
/// > pull request 88030 closes that gap). ``makeAsyncIterator()`` therefore checks that it runs on
/// > the main actor and stops the program otherwise. Do not pass this sequence, or an iterator of
/// > it, to such a function; to hand notifications to other threads, post a `Sendable`
/// > ``TypedNotification`` through a ``TypedNotificationCenter`` instead.
public struct MainActorNotificationSequence<Notification: MainActorNotification>: @MainActor AsyncSequence {
  /// The notification type the sequence hands out.
  public typealias Element = Notification
  /// The sequence never throws.
  public typealias Failure = Never

  let stream: AsyncStream<Notification>

  /// The observation behind this sequence; cancel it to finish the sequence from outside (from any
  /// thread).
  public let token: ObserverToken

  /// Makes an iterator; while it lives, it keeps the observation alive.
  ///
  /// - Precondition: Runs on the main actor (see the note above on generic functions).
  @MainActor
  public func makeAsyncIterator() -> AsyncIterator {
    // The compiler already proves this for every caller but a generic nonisolated async function
    // (see above); the check costs one executor comparison per loop.
    MainActor.preconditionIsolated("MainActorNotificationSequence is iterated on the main actor only")
    return AsyncIterator(base: stream.makeAsyncIterator(), token: token)
  }

  /// Hands out the notifications in the order they were posted, on the main actor.
  public struct AsyncIterator: @MainActor AsyncIteratorProtocol {
    var base: AsyncStream<Notification>.Iterator
    /// Keeps the observation alive for as long as the iterator is.
    let token: ObserverToken

    /// The next notification, waiting for one if none is buffered; `nil` once the observation
    /// ended and the buffer is empty.
    @MainActor
    public mutating func next() async -> Notification? {
      // Resumes on the main actor: the notification never leaves it.
      await base.next(isolation: MainActor.shared)
    }
  }
}
