/// A registration feeding an async sequence, in any center: ending it finishes the sequence, and
/// the sequence's end (its consuming task cancelled, it and its iterators released) ends it.
///
/// Each center makes one for the stream of a sequence it hands out, and stores it with a handler
/// that yields into ``continuation``, like any other handler: the ending,
/// listing and leak checks are those of every registration.
//
// @unchecked Sendable: adds an immutable `Bool` and an immutable `AsyncStream.Continuation`, which
// is Sendable (its `finish()` may be called on any thread; `yield` is called only by the center's
// delivery, on the main actor for a main-actor center's registration).
final class StreamRegistration<N>: Registration, @unchecked Sendable {
  let continuation: AsyncStream<N>.Continuation
  /// Whether its notifications may hold main-actor state: a main-actor center's.
  private let releasesOnMainQueue: Bool

  /// A registration of `engine`'s center feeding `continuation`'s stream, tied both ways: ending the
  /// registration finishes the stream (after it handed out what it buffered), and the stream's
  /// termination ends the registration.
  init(
    in engine: Engine, sender: AnyObject?, fileID: StaticString, line: Int,
    feeding continuation: AsyncStream<N>.Continuation
  ) {
    self.continuation = continuation
    self.releasesOnMainQueue = engine.isMainActor
    super.init(in: engine, N.self, owner: nil, sender: sender, flags: .stream, fileID: fileID, line: line)
    // Weak: the stream's storage holds this closure, and the registration holds the storage.
    continuation.onTermination = { [weak self] _ in self?.end() }
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
