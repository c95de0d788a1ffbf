/// A registration feeding an async sequence, in any center: ending it finishes the sequence, and
/// the sequence's end (its consuming task cancelled, it and its iterators released) ends it.
///
/// Each center makes one through ``make(in:sender:flags:bufferingPolicy:fileID:line:)`` and stores
/// it with a handler that yields into ``continuation``, like any other handler: the ending,
/// listing and leak checks are those of every registration.
//
// @unchecked Sendable: adds an immutable `Bool` and an immutable `AsyncStream.Continuation`, which
// is Sendable (its `finish()` may be called on any thread; `yield` is called only by the center's
// delivery, on the main actor for a main-actor center's registration).
final class StreamRegistration<N>: Registration, @unchecked Sendable {
  let continuation: AsyncStream<N>.Continuation
  /// Whether its notifications may hold main-actor state: a main-actor center's.
  private let releasesOnMainQueue: Bool

  private init(
    in engine: Engine, sender: AnyObject?, flags: Flags, fileID: StaticString, line: Int,
    continuation: AsyncStream<N>.Continuation
  ) {
    self.continuation = continuation
    self.releasesOnMainQueue = engine.isMainActor
    super.init(
      in: engine, N.self, owner: nil, sender: sender, flags: flags.union(.stream), fileID: fileID, line: line)
  }

  /// A registration of `engine`'s center and the stream it feeds, tied both ways: ending the
  /// registration finishes the stream (after it handed out what it buffered), and the stream's
  /// termination ends the registration.
  static func make(
    in engine: Engine, sender: AnyObject?, flags: Flags, bufferingPolicy: NotificationBufferingPolicy,
    fileID: StaticString, line: Int
  ) -> (registration: StreamRegistration<N>, stream: AsyncStream<N>) {
    let (stream, continuation) = AsyncStream.makeStream(of: N.self, bufferingPolicy: bufferingPolicy.streamPolicy())
    let registration = StreamRegistration(
      in: engine, sender: sender, flags: flags, fileID: fileID, line: line, continuation: continuation)
    // Weak: the stream's storage holds this closure, and the registration holds the storage.
    continuation.onTermination = { [weak registration] _ in registration?.end() }
    return (registration, stream)
  }

  override func didEnd() {
    continuation.finish()
  }

  deinit {
    // The stream's storage keeps what it buffered until the last continuation and iterator go. A
    // main-actor center's notifications may hold main-actor state, so when this registration (a
    // token held elsewhere, a diagnostics copy) goes last off the main queue, its continuation is
    // released there, as the center's handlers are.
    if releasesOnMainQueue { MainActorReleased.release(continuation) }
  }
}
