/// One observer in a channel: the registration (shared with the token) and the handler (owned by
/// the channel alone, dropped as soon as the registration ended and no post is reading the entry).
///
/// The handler is held in one of two plain optional closures rather than an enum of closures: a
/// post calls it straight from the entry, where an enum would be copied (and its payload's context
/// retained and released through outlined functions) on every delivery. Exactly one is set while
/// the entry is live; both are `nil` in a tombstone.
@usableFromInline
struct Entry<N: TypedNotification>: Sendable {
  @usableFromInline let registration: Registration<N>
  /// Called with the notification: token-bound, main-actor and stream registrations.
  @usableFromInline var handler: (@Sendable (N) -> Void)?
  /// Called with the (weakly held, then strongly loaded) owner and the notification.
  @usableFromInline var ownedHandler: (@Sendable (AnyObject, N) -> Void)?

  init(registration: Registration<N>, handler: Handler) {
    self.registration = registration
    switch handler {
    case .plain(let body): self.handler = body
    case .owned(let body): self.ownedHandler = body
    }
  }

  /// Whether the entry still holds its handler (it is not a tombstone).
  var hasHandler: Bool { handler != nil || ownedHandler != nil }

  /// The handler, for diagnostics (the leak harness scans its captures).
  var anyHandler: Any? { handler ?? ownedHandler.map { $0 as Any } }

  /// Moves the handler out into `reclaimed`, leaving a tombstone.
  ///
  /// The closure is kept wrapped in a struct: a closure over `N` converted to `Any` on its own
  /// would be wrapped in a reabstraction thunk, one allocation per ending.
  mutating func moveHandler(into reclaimed: inout Reclaimed) {
    if let handler { reclaimed.keep(Held(body: handler)) }
    if let ownedHandler { reclaimed.keep(HeldOwned(body: ownedHandler)) }
    handler = nil
    ownedHandler = nil
  }

  private struct Held { let body: (N) -> Void }
  private struct HeldOwned { let body: (AnyObject, N) -> Void }

  /// The handler as `observe` hands it to the center.
  enum Handler {
    case plain(@Sendable (N) -> Void)
    case owned(@Sendable (AnyObject, N) -> Void)
  }
}

extension Entry.Handler {
  /// An owner-bound handler that receives its owner as the `Owner` it was registered with.
  static func owned<Owner: AnyObject>(by _: Owner.Type, _ handler: @escaping @Sendable (Owner, N) -> Void) -> Self {
    // unsafeDowncast: the center only ever passes the owner it was given, loaded from its weak
    // reference, so it is an `Owner`.
    .owned { owner, notification in handler(unsafeDowncast(owner, to: Owner.self), notification) }
  }
}

extension Entry.Handler {
  /// `handler` without its main-actor isolation in its type: for registrations flagged
  /// `mainActor`, which the center calls on the main queue only.
  ///
  /// Why it is safe: a `mainActor` registration never takes the post path's two fast paths (they
  /// require the flags to be exactly `.endsWithToken` or `.hasOwner`); `Entry.deliverSlowPath`
  /// calls it at once only when `MainQueue.isCurrent`, and otherwise from a block on the main
  /// queue. The main queue is the main actor's executor, so the handler always runs isolated to the
  /// main actor, as its type promised. A synchronous function's isolation is not part of its
  /// calling convention, so the cast changes the type only; it is what `MainActor.assumeIsolated`
  /// does inside, and calling that instead would allocate and check the executor on every
  /// delivery (`Entry.invoke` checks the queue in debug builds).
  static func onMainActor(_ handler: @escaping @MainActor @Sendable (N) -> Void) -> @Sendable (N) -> Void {
    unsafeBitCast(handler, to: (@Sendable (N) -> Void).self)
  }

  /// The owner-bound form of `onMainActor(_:)`.
  static func onMainActor<Owner: AnyObject>(
    _ handler: @escaping @MainActor @Sendable (Owner, N) -> Void
  ) -> @Sendable (Owner, N) -> Void {
    unsafeBitCast(handler, to: (@Sendable (Owner, N) -> Void).self)
  }
}
