/// A registration feeding an async sequence: ending it finishes the sequence.
final class StreamRegistration<N: TypedNotification>: Registration<N>, @unchecked Sendable {
  // @unchecked Sendable: adds only an immutable `AsyncStream.Continuation`, which is Sendable.
  let continuation: AsyncStream<N>.Continuation

  init(
    registry: TypedNotificationCenter, sender: AnyObject?, fileID: StaticString, line: Int,
    continuation: AsyncStream<N>.Continuation
  ) {
    self.continuation = continuation
    super.init(registry: registry, sender: sender, flags: .stream, fileID: fileID, line: line)
  }

  override func didEnd() {
    continuation.finish()
  }
}
