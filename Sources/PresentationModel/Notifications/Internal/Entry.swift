/// One observer in a channel: an immutable object holding the registration (shared with the token)
/// and the handler (held by the entry alone, so it is released when the entry is: as soon as the
/// registration ended and no post is reading the entry).
///
/// Why an object with `let` fields rather than a struct in the storage: a post calls the handler
/// straight from it. Through a guaranteed reference to an immutable object, the compiler calls a
/// `let` closure without retaining and releasing its context; a closure read from a mutable buffer
/// is copied (retained) for the call and released after it, 40 instructions per delivery that the
/// floor of the benchmark pays too. The kind of handler follows from the registration's flags
/// (`hasOwner`), so each subclass holds exactly one closure, the caller's.
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

  /// The handler, for diagnostics (the leak harness scans its captures).
  var anyHandler: Any { fatalError("abstract") }
}

/// Helpers that adapt the handlers `observe` receives.
enum EntryHandler<N: TypedNotification> {}

/// The entry of a registration without an owner: token-bound, main-actor and stream registrations.
@usableFromInline
final class PlainEntry<N: TypedNotification>: Entry, @unchecked Sendable {
  // @unchecked Sendable: adds one `let` `@Sendable` closure.
  @usableFromInline let handler: @Sendable (N) -> Void

  init(registration: Registration<N>, handler: @escaping @Sendable (N) -> Void) {
    self.handler = handler
    super.init(registration: registration)
  }

  override var anyHandler: Any { handler }
}

/// The entry of an owner-bound registration, as the post path sees it: it calls the handler with
/// the owner, loaded strongly from the registration's weak reference.
@usableFromInline
class OwnedEntry<N: TypedNotification>: Entry, @unchecked Sendable {
  // @unchecked Sendable: adds no stored state.

  /// Calls the handler with `owner`, the registration's owner.
  @usableFromInline func call(owner: AnyObject, _ notification: N) { fatalError("abstract") }
}

/// The entry of an owner-bound registration whose owner is an `Owner`: it holds the caller's
/// handler as given, and hands it the owner as an `Owner`. (An adapting closure would cost an
/// allocation and 32 bytes per registration, and a call per delivery.)
final class OwnerBoundEntry<Owner: AnyObject, N: TypedNotification>: OwnedEntry<N>, @unchecked Sendable {
  // @unchecked Sendable: adds one `let` `@Sendable` closure.
  let handler: @Sendable (Owner, N) -> Void

  init(registration: OwnedRegistration<N>, handler: @escaping @Sendable (Owner, N) -> Void) {
    self.handler = handler
    super.init(registration: registration)
  }

  override func call(owner: AnyObject, _ notification: N) {
    // unsafeDowncast: the owner is the one given to `observe` with this handler (loaded from the
    // registration's weak reference), so it is an `Owner`.
    handler(unsafeDowncast(owner, to: Owner.self), notification)
  }

  override var anyHandler: Any { handler }
}

extension EntryHandler {
  /// `handler` without its main-actor isolation in its type: for registrations flagged
  /// `mainActor`, which the center calls on the main queue only.
  ///
  /// Why it is safe: a `mainActor` registration never takes the post loop's two inlined fast paths
  /// (they require the flags to be exactly `.endsWithToken` or `.hasOwner`);
  /// `Delivery.deliverSlowPath` calls its handler at once only when `MainQueueCheck.isCurrent`,
  /// and otherwise from a block on the main queue. The main queue is the main actor's executor, so
  /// the handler always runs isolated to the main actor, as its type promised. A synchronous function's isolation is not part of its
  /// calling convention, so the cast changes the type only; it is what `MainActor.assumeIsolated`
  /// does inside, and calling that instead would allocate and check the executor on every
  /// delivery (`Delivery.invoke` checks the queue in debug builds).
  ///
  /// (The main-actor center casts inside structs, `IsolationDropped`, to keep reabstraction thunks
  /// off its calls; here that made no difference, counted: the handler is stored at its own
  /// abstraction either way.)
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
