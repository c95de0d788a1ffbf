internal import Dispatch

/// A registration in a ``MainActorNotificationCenter``.
///
/// The state, owner, sender and call site live in `RegistrationCore`, so ``ObserverToken``,
/// ``ObserverBag`` and introspection work unchanged. The handler is not here: the center's channel
/// holds it, on the main actor, and releases it there.
//
// @unchecked Sendable: adds immutable stored properties to RegistrationCore: `storedOwner` (a
// `weak let`), `storedOwnerType` and `mainActorCenter`, a `weak let` to a main-actor class (a Sendable type; the runtime makes weak loads
// thread-safe). The center is only ever loaded on the main actor (see `didEnd()`), so its last
// release, and with it the release of the handlers it holds, happens there.
@usableFromInline
final class MainActorRegistration<N: MainActorNotification>: RegistrationCore, @unchecked Sendable {
  private weak let mainActorCenter: MainActorNotificationCenter?
  private weak let storedOwner: AnyObject?
  private let storedOwnerType: (any AnyObject.Type)?

  init(
    center: MainActorNotificationCenter, owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags,
    fileID: StaticString,
    line: Int
  ) {
    self.mainActorCenter = center
    self.storedOwner = owner
    self.storedOwnerType = owner.map { type(of: $0) }
    super.init(
      center: nil, sender: sender, flags: flags.union(owner == nil ? .mainActor : [.mainActor, .hasOwner]),
      fileID: fileID, line: line)
  }

  @usableFromInline override var owner: AnyObject? { storedOwner }
  override var ownerType: (any AnyObject.Type)? { storedOwnerType }

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
