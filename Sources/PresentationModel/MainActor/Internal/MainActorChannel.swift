/// One observer of a main-actor channel: the registration (shared with the token) and the handler,
/// owned by the channel alone, which drops the entry (a `nil` tombstone in its place) once the
/// registration ended.
///
/// A class, read by the post through an unretained reference to a `let`, as the posting-thread
/// center's `Entry`: calling a handler then costs no retain and release of its context (which a
/// struct holding an optional enum of closures did, 1.4× the floor's instructions per post).
@usableFromInline
class MainActorEntry<N: MainActorNotification> {
  /// A `Registration<N>`, or an `OwnedRegistration<N>` when the flags contain `hasOwner`.
  @usableFromInline let registration: RegistrationCore

  fileprivate init(registration: RegistrationCore) {
    self.registration = registration
  }

  /// The entry for `handler`: a `MainActorPlainEntry` or, for an owner-bound one, a
  /// `MainActorOwnedEntry` (the post tells them apart by the registration's `hasOwner` flag).
  static func make(registration: RegistrationCore, handler: MainActorHandler<N>) -> MainActorEntry<N> {
    switch handler {
    case .plain(let body): MainActorPlainEntry(registration: registration, handler: body)
    case .owned(let body): MainActorOwnedEntry(registration: registration, handler: body)
    }
  }

  /// The handler, for diagnostics (the leak harness scans its captures).
  var anyHandler: Any { fatalError("abstract") }
}

/// The handlers of ``MainActorPlainEntry`` and ``MainActorOwnedEntry``, with and without their
/// isolation, for the cast that drops it.
///
/// Each function is cast inside a struct, not as itself: `unsafeBitCast` is generic, and a function
/// passed as a generic value is converted to its most general representation and back (two
/// reabstraction thunks, which every delivery would then go through). A struct is passed as it is,
/// and the two structs store their function the same way (a function of `N`, returning nothing).
private enum IsolationDropped<N: MainActorNotification> {
  private struct IsolatedPlain {
    let function: @MainActor (N) -> Void
  }
  private struct Plain {
    let function: (N) -> Void
  }
  private struct IsolatedOwned {
    let function: @MainActor (AnyObject, N) -> Void
  }
  private struct Owned {
    let function: (AnyObject, N) -> Void
  }

  static func plain(_ handler: @escaping @MainActor (N) -> Void) -> (N) -> Void {
    unsafeBitCast(IsolatedPlain(function: handler), to: Plain.self).function
  }

  static func owned(_ handler: @escaping @MainActor (AnyObject, N) -> Void) -> (AnyObject, N) -> Void {
    unsafeBitCast(IsolatedOwned(function: handler), to: Owned.self).function
  }
}

/// The entry of a registration without an owner.
///
/// Its handler is stored without its `@MainActor` isolation, so that the post's loop can be
/// nonisolated (the loop calls through unretained references to the entries, which takes a closure
/// that, formed in main-actor code, would check its isolation at run time once per observer). The
/// cast is sound because the handler is only ever called by `post`, which is `@MainActor`, on its
/// own thread: it runs isolated to the main actor, as its type promised. A synchronous function's
/// isolation is not part of its calling convention, so the cast changes the type only (the typed
/// center's main-actor observers do the same, `EntryHandler.onMainActor`).
@usableFromInline
final class MainActorPlainEntry<N: MainActorNotification>: MainActorEntry<N> {
  @usableFromInline let handler: (N) -> Void

  init(registration: RegistrationCore, handler: @escaping @MainActor (N) -> Void) {
    self.handler = IsolationDropped.plain(handler)
    super.init(registration: registration)
  }

  override var anyHandler: Any { handler }
}

/// The entry of an owner-bound registration: its handler takes the owner, loaded strongly from the
/// registration's weak reference for the call. Stored without its isolation, as in
/// ``MainActorPlainEntry`` and for the same reason.
@usableFromInline
final class MainActorOwnedEntry<N: MainActorNotification>: MainActorEntry<N> {
  @usableFromInline let handler: (AnyObject, N) -> Void

  init(registration: RegistrationCore, handler: @escaping @MainActor (AnyObject, N) -> Void) {
    self.handler = IsolationDropped.owned(handler)
    super.init(registration: registration)
  }

  override var anyHandler: Any { handler }
}

/// The type-erased face of a main-actor channel, for the center's non-generic bookkeeping.
///
/// Not `Sendable`: a channel is only touched on the main actor by its center, or, once, by the
/// center's deinit, which holds the last reference to it.
@usableFromInline
class AnyMainActorChannel {
  var registrations: [RegistrationCore] { fatalError("abstract") }
  var isEmpty: Bool { fatalError("abstract") }
  /// The registrations that have not ended and that `isIncluded` accepts, with their handlers, in
  /// registration order.
  func registrationsWithHandlers(where isIncluded: @Sendable (RegistrationCore) -> Bool) -> [RegisteredHandler] {
    fatalError("abstract")
  }
  /// Whether a post is reading the entries now.
  var isRead: Bool { fatalError("abstract") }
  /// Releases the handler of `registration`, which has ended; deferred while posts read.
  func tombstone(_ registration: RegistrationCore, into released: inout ReleasedAfterUnlock) {
    fatalError("abstract")
  }
}

/// The observers of one main-actor notification type, in registration order.
///
/// Only touched on the main actor, so it needs no lock. A post copies `entries` (a retain: arrays
/// are copy-on-write) and counts itself in `readers`; while a post reads, ended registrations keep
/// their entry (their ended state stops any call) and are swept out when the last post leaves.
/// Without readers, ending a registration releases its entry, and so its handler, at once through
/// its `slot` (a `nil` tombstone takes its place), and the entries are compacted once half of them
/// are tombstones: ending one never scans the others (amortised O(1)), as in
/// ``TypedNotificationCenter``.
///
/// Nothing that may release user code (a handler, an entry) is dropped while `entries` is being
/// mutated: it is moved into a ``ReleasedAfterUnlock``, which the caller drops after every mutation
/// is over, so a deinitialiser that calls back into the center never meets an access in progress.
/// And no owner or sender is loaded while `entries` is being rebuilt (the rule of the typed
/// center's channel): registrations whose owner died unnoticed are ended by the center's sweep,
/// after the rebuild (`ObservationRegistry.endDeadRegistrations`).
@usableFromInline
final class MainActorChannel<N: MainActorNotification>: AnyMainActorChannel {
  // @exclusivity(unchecked) on the three below: they are only touched on the main actor, every
  // access is momentary and none spans user code (a post iterates a copy of `entries`; what may
  // release user code is dropped after the access ended); the dynamic check would cost every post
  // three runtime calls.
  // An `Array`, not a `ContiguousArray`: the post hands it to a function taking a pointer to its
  // elements (an implicit conversion only arrays have), which a closure-taking
  // `withUnsafeBufferPointer` would not do for free in main-actor code (see `deliver`).
  @usableFromInline @exclusivity(unchecked) var entries: [MainActorEntry<N>?] = []
  /// Posts iterating a copy of `entries` now.
  @usableFromInline @exclusivity(unchecked) var readers = 0
  /// Entries whose registration ended while posts were reading; swept when the last one leaves.
  @usableFromInline @exclusivity(unchecked) var needsSweep = false
  /// Tombstones in `entries`.
  private var endedCount = 0
  /// At this many entries not known to have ended, `append` asks for a sweep of entries whose owner
  /// or sender died unnoticed (nobody posted since); `.max` while the sweep runs, then twice what it
  /// found live (at least 32, `sweepFinished(liveCount:)`), so dead entries never outnumber twice
  /// the live ones plus 32.
  private var sweepThreshold = 32

  override var registrations: [RegistrationCore] { entries.compactMap { $0?.registration } }

  override var isEmpty: Bool { entries.isEmpty }

  override func registrationsWithHandlers(where isIncluded: @Sendable (RegistrationCore) -> Bool) -> [RegisteredHandler]
  {
    entries.compactMap { entry in
      guard let entry, !entry.registration.hasEnded, isIncluded(entry.registration) else { return nil }
      return RegisteredHandler(registration: entry.registration, handler: MainActorReleased(entry.anyHandler))
    }
  }

  /// Appends an entry for `registration`.
  ///
  /// - Returns: `true` when the channel has grown enough since its last sweep that the center
  ///   should look for registrations whose owner or sender died unnoticed (after this mutation:
  ///   the look loads owners, which may run their `deinit`).
  func append(_ registration: RegistrationCore, handler: MainActorHandler<N>) -> Bool {
    registration.slot = entries.count
    entries.append(MainActorEntry.make(registration: registration, handler: handler))
    guard entries.count - endedCount >= sweepThreshold else { return false }
    sweepThreshold = .max  // one sweep at a time
    return true
  }

  /// Sets the next sweep once the one `append` asked for has ended the dead registrations it found
  /// (their tombstones compact the entries, or the last reader does).
  func sweepFinished(liveCount: Int) {
    sweepThreshold = Swift.max(32, liveCount * 2)
  }

  override var isRead: Bool { readers > 0 }

  override func tombstone(_ registration: RegistrationCore, into released: inout ReleasedAfterUnlock) {
    let slot = registration.slot
    guard slot >= 0, slot < entries.count, let entry = entries[slot], entry.registration === registration else {
      return
    }
    guard readers == 0 else {
      needsSweep = true
      return
    }
    entries[slot] = nil  // `entry` still holds it: nothing is released in this access
    released.keep(entry)
    registration.slot = -1
    endedCount += 1
    if endedCount * 2 >= entries.count { compact(into: &released) }
  }

  /// Called by a post after it counted itself out: sweeps what ended while posts were reading.
  @usableFromInline
  func sweepAfterReaders() {
    var released = ReleasedAfterUnlock()
    needsSweep = false
    compact(into: &released)
    released.drop()  // after the mutation is over, on the main actor
  }

  /// Keeps only the entries whose registration has not ended, in order, renumbering their slots.
  ///
  /// Reads only each registration's own state (`hasEnded`), never its owner or sender: loading one
  /// makes a strong reference that may turn out to be the last, and its release would run the
  /// owner's `deinit` in the middle of this rebuild (a `deinit` that registers would then be lost
  /// when `entries` is replaced).
  private func compact(into released: inout ReleasedAfterUnlock) {
    var kept: [MainActorEntry<N>?] = []
    kept.reserveCapacity(entries.count - endedCount)
    for case let entry? in entries where !entry.registration.hasEnded {
      entry.registration.slot = kept.count
      kept.append(entry)
    }
    let old = entries
    entries = kept
    released.keep(value: old)  // the dropped entries' handlers are released with it, by the caller
    endedCount = 0
  }
}
