/// One observer in a channel's storage: an immutable object holding the registration (shared with
/// the token) and the handler (held by the entry alone, so it is released when the entry is: once
/// the registration ended and no post reads the entry). Every center's observers are entries of
/// this one hierarchy: `PlainEntry` and `OwnerEntry` for the engine's posts, the bridge's
/// `FoundationEntry` for a Foundation observer.
///
/// Why an object with `let` fields rather than a struct in the storage: a post calls the handler
/// straight from it. Through a guaranteed reference to an immutable object, the compiler calls a
/// `let` closure without retaining and releasing its context; a closure read from a mutable buffer
/// is copied (retained) for the call and released after it, 40 instructions per delivery that the
/// floor of the benchmark pays too.
///
/// The base class is not generic, so a channel's storage is not either: the end path, which runs
/// unspecialised (it starts from a token), moves and compares entries without looking up any
/// generic type's metadata. The post path, specialised for `N`, downcasts an entry of the channel
/// of `N` to `PlainEntry<N>` or `OwnedEntry<N>` (by the registration's `hasOwner` flag);
/// `unsafeDowncast` checks each in debug builds.
@usableFromInline
class Entry {
  @usableFromInline let registration: Registration

  init(registration: Registration) {
    self.registration = registration
  }

  /// The handler, for diagnostics (the leak harness scans its captures).
  var handler: any Sendable { fatalError("abstract") }
}

/// The entry of a registration without an owner: token-bound, one-shot and stream registrations.
@usableFromInline
final class PlainEntry<N>: Entry {
  @usableFromInline let call: @Sendable (N) -> Void

  /// `call` is a main-actor center's handler with its isolation dropped (``Isolation``) or a
  /// `@Sendable` handler of the typed center.
  init(registration: Registration, call: @escaping @Sendable (N) -> Void) {
    self.call = call
    super.init(registration: registration)
  }

  override var handler: any Sendable { call }
}

/// The entry of an owner-bound registration, as the post path sees it: it calls the handler with
/// the owner, loaded strongly from the registration's weak reference.
@usableFromInline
class OwnedEntry<N>: Entry {
  /// Calls the handler with `owner`, the registration's owner.
  @usableFromInline func call(owner: AnyObject, _ notification: N) { fatalError("abstract") }
}

/// The entry of an owner-bound registration whose owner is an `Owner`: it holds the caller's
/// handler as given, and hands it the owner as an `Owner` (an adapting closure would cost an
/// allocation and 32 bytes per registration, and a call per delivery).
final class OwnerEntry<Owner: AnyObject, N>: OwnedEntry<N> {
  let call: @Sendable (Owner, N) -> Void

  init(registration: Registration, call: @escaping @Sendable (Owner, N) -> Void) {
    self.call = call
    super.init(registration: registration)
  }

  override func call(owner: AnyObject, _ notification: N) {
    // unsafeDowncast: the owner is the one given to `observe` with this handler (loaded from the
    // registration's weak reference), so it is an `Owner`.
    call(unsafeDowncast(owner, to: Owner.self), notification)
  }

  override var handler: any Sendable { call }
}

/// Main-actor handlers without their isolation in their type, for entries: the engine calls them on
/// the main actor only, so they run isolated to it, as their type promised.
///
/// Where that holds: the main-actor center posts on the main actor; the typed center's `mainActor`
/// registrations never take the post loop's two inlined fast paths (they require the flags to be
/// exactly `.endsWithToken` or `.hasOwner`), and its slow path calls them at once only when the post
/// runs on the main queue, and otherwise from a block enqueued there. A synchronous function's
/// isolation is not part of its calling convention, so the cast changes the type only; it is what
/// `MainActor.assumeIsolated` does inside, and calling that instead would allocate and check the
/// executor on every delivery. The main-actor center's handlers are not `Sendable` either: the
/// entries holding them never leave the main actor but to be released on the main queue, and
/// diagnostics receive them boxed (``MainActorReleased``). (Cast inside structs, to keep the
/// generic `unsafeBitCast` from reabstracting the function, the post cost the same, counted.)
enum Isolation {
  static func dropped<N>(_ handler: @escaping @MainActor (N) -> Void) -> @Sendable (N) -> Void {
    unsafeBitCast(handler, to: (@Sendable (N) -> Void).self)
  }

  static func dropped<Owner, N>(_ handler: @escaping @MainActor (Owner, N) -> Void) -> @Sendable (Owner, N) -> Void {
    unsafeBitCast(handler, to: (@Sendable (Owner, N) -> Void).self)
  }
}
