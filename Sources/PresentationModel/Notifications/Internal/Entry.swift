/// One observer in a channel: an immutable object holding the registration (shared with the token)
/// and the handler (held by the entry alone, so it is released when the entry is: as soon as the
/// registration ended and no post is reading the entry).
///
/// Why an object with `let` fields rather than a struct in the storage: a post calls the handler
/// straight from it. Through a guaranteed reference to an immutable object, the compiler calls a
/// `let` closure without retaining and releasing its context; a closure read from a mutable buffer
/// is copied (retained) for the call and released after it, 40 instructions per delivery that the
/// floor of the benchmark pays too. The kind of handler follows from the registration's flags
/// (`hasOwner`), so each subclass holds exactly one closure.
///
/// The base class is not generic, so a channel's storage (`Entry?` references; `nil` is a
/// tombstone, see ``Channel``) is not either: the end path, which runs unspecialised (it starts from
/// a token), then moves and compares entries without looking up any generic type's metadata. The
/// post path, specialised for `N`, downcasts an entry of the channel of `N` to `PlainEntry<N>` or
/// `OwnedEntry<N>`: a channel only ever holds entries of its own notification type.
//
// @unchecked Sendable: every stored property is a `let` of a Sendable type; the subclasses add only
// `let` `@Sendable` closures.
@usableFromInline
class Entry: @unchecked Sendable {
  @usableFromInline let registration: RegistrationCore

  fileprivate init(registration: RegistrationCore) {
    self.registration = registration
  }

  /// The entry for `registration` and `handler`, for the channel of `N`.
  static func make<N>(registration: Registration<N>, handler: EntryHandler<N>) -> Entry {
    switch handler {
    case .plain(let body):
      precondition(!registration.flags.contains(.hasOwner), "an owner-bound registration needs an owned handler")
      return PlainEntry(registration: registration, handler: body)
    case .owned(let body):
      precondition(registration.flags.contains(.hasOwner), "an owned handler needs an owner-bound registration")
      return OwnedEntry(registration: registration, handler: body)
    }
  }

  /// The handler, for diagnostics (the leak harness scans its captures).
  var anyHandler: Any { fatalError("abstract") }
}

/// The handler as `observe` hands it to the center.
enum EntryHandler<N: TypedNotification> {
  case plain(@Sendable (N) -> Void)
  case owned(@Sendable (AnyObject, N) -> Void)
}

/// The entry of a registration without an owner: token-bound, main-actor and stream registrations.
@usableFromInline
final class PlainEntry<N: TypedNotification>: Entry, @unchecked Sendable {
  // @unchecked Sendable: adds one `let` `@Sendable` closure.
  @usableFromInline let handler: @Sendable (N) -> Void

  fileprivate init(registration: RegistrationCore, handler: @escaping @Sendable (N) -> Void) {
    self.handler = handler
    super.init(registration: registration)
  }

  override var anyHandler: Any { handler }
}

/// The entry of an owner-bound registration: its handler is called with the owner, loaded strongly
/// from the registration's weak reference.
@usableFromInline
final class OwnedEntry<N: TypedNotification>: Entry, @unchecked Sendable {
  // @unchecked Sendable: adds one `let` `@Sendable` closure.
  @usableFromInline let handler: @Sendable (AnyObject, N) -> Void

  fileprivate init(registration: RegistrationCore, handler: @escaping @Sendable (AnyObject, N) -> Void) {
    self.handler = handler
    super.init(registration: registration)
  }

  override var anyHandler: Any { handler }
}

extension EntryHandler {
  /// An owner-bound handler that receives its owner as the `Owner` it was registered with.
  static func owned<Owner: AnyObject>(by _: Owner.Type, _ handler: @escaping @Sendable (Owner, N) -> Void) -> Self {
    // unsafeDowncast: the center only ever passes the owner it was given, loaded from its weak
    // reference, so it is an `Owner`.
    .owned { owner, notification in handler(unsafeDowncast(owner, to: Owner.self), notification) }
  }
}

extension EntryHandler {
  /// `handler` without its main-actor isolation in its type: for registrations flagged
  /// `mainActor`, which the center calls on the main queue only.
  ///
  /// Why it is safe: a `mainActor` registration never takes the post path's two fast paths (they
  /// require the flags to be exactly `.endsWithToken` or `.hasOwner`); `Delivery.deliverSlowPath`
  /// calls it at once only when `MainQueue.isCurrent`, and otherwise from a block on the main
  /// queue. The main queue is the main actor's executor, so the handler always runs isolated to the
  /// main actor, as its type promised. A synchronous function's isolation is not part of its
  /// calling convention, so the cast changes the type only; it is what `MainActor.assumeIsolated`
  /// does inside, and calling that instead would allocate and check the executor on every
  /// delivery (`Delivery.invoke` checks the queue in debug builds).
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
