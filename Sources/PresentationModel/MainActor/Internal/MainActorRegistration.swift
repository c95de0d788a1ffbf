internal import Dispatch

/// A registration in a ``MainActorNotificationCenter``.
///
/// The state, owner, sender and call site live in `RegistrationCore`, so ``ObserverToken``,
/// ``ObserverBag`` and introspection work unchanged. The handler is not here: the center's channel
/// holds it, on the main actor, and releases it there.
//
// @unchecked Sendable: adds two immutable stored properties to RegistrationCore: `key` (a value)
// and `mainActorCenter`, a `weak let` to a main-actor class (a Sendable type; the runtime makes weak loads
// thread-safe). The center is only ever loaded on the main actor (see `didEnd()`), so its last
// release, and with it the release of the handlers it holds, happens there.
@usableFromInline
final class MainActorRegistration<N: MainActorNotification>: RegistrationCore, @unchecked Sendable {
  private weak let mainActorCenter: MainActorNotificationCenter?

  init(
    center: MainActorNotificationCenter, owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags,
    fileID: StaticString,
    line: Int
  ) {
    self.mainActorCenter = center
    super.init(
      center: nil, owner: owner, sender: sender, flags: flags.union(.mainActor), fileID: fileID, line: line)
  }

  override var notificationType: any Any.Type { N.self }

  /// Detaches from the center on the main actor. `end()` may run on any thread (a token cancelled
  /// or released elsewhere): the ended state is already set, so no post calls the handler again;
  /// releasing the handler, which may capture non-Sendable state, waits for the main queue.
  override func didEnd() {
    if MainQueue.isCurrent {
      // assumeIsolated: MainQueue.isCurrent means this runs on the main queue, the main actor's
      // executor (or on the main thread), which is what the main actor's isolation check accepts.
      MainActor.assumeIsolated { detachFromCenter() }
    } else {
      DispatchQueue.main.async {
        // assumeIsolated: a block on the main queue runs on the main actor's executor.
        MainActor.assumeIsolated { self.detachFromCenter() }
      }
    }
  }

  @MainActor
  private func detachFromCenter() {
    mainActorCenter?.detach(self)
  }
}
