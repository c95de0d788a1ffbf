/// A bridged registration's entry in the bridge's engine: the handler as the caller gave it (for
/// diagnostics, which scan its captures), and the removal of the observer the registration
/// installed in the Foundation center, whose block holds the handler for delivery.
///
/// The engine releases the entry once the registration ended, after unlocking; releasing it removes
/// the Foundation observer, and with it the block and the handler (main-actor handlers are boxed in
/// ``MainActorReleased``, so they are released on the main queue wherever Foundation drops the
/// block).
final class FoundationEntry: Entry {
  private let caller: any Sendable
  private let removeObserver: () -> Void

  init(registration: Registration, handler: any Sendable, removeObserver: @escaping () -> Void) {
    self.caller = handler
    self.removeObserver = removeObserver
    super.init(registration: registration)
  }

  override var handler: any Sendable { caller }

  deinit {
    removeObserver()
  }
}
