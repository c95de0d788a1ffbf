public import Synchronization  // public: the inlinable post path uses Atomic

/// The one engine under every center: a center's registrations, by notification type, in storage
/// its posts read outside the exclusive section; and everything a center does to a registration,
/// written once: storing it (`register`), releasing what an ended one leaves (`detach`), the sweep of
/// registrations whose owner died unnoticed, the queries and the copies diagnostics read, the
/// center's end.
///
/// ``TypedNotificationCenter`` and ``MainActorNotificationCenter`` are faces over one each, told
/// apart by their ``Exclusion`` (its lock, or the main actor); ``FoundationNotificationBridge`` keeps
/// its registrations in one too, with its lock, while the Foundation center delivers.
///
/// While the storage is exclusive, no owner or sender is loaded and nothing that may hold user
/// values is released: what a change removes goes into a ``ReleasedAfterUnlock``, dropped after the
/// section (on the main queue for a main-actor engine), and owners are loaded only by deliveries and
/// by the queries' callers, outside it.
//
// @unchecked Sendable: `channels`, the one mutable property, is read and changed only inside
// `exclusion.withExclusiveAccess` (the lock, or the main actor, which a main-actor engine hops to
// first from other threads); the others are immutable.
@usableFromInline
package final class Engine: @unchecked Sendable {
  @usableFromInline let exclusion: any Exclusion.Type
  /// The lock of a `Locked` engine (a main-actor engine never takes it).
  @usableFromInline let lock = LockedState(())
  /// The public name of the center, for every message and trap it raises.
  @usableFromInline let centerName: StaticString
  // @exclusivity(unchecked): every access is inside the exclusive section (above), which already
  // makes every access exclusive; the dynamic checks would cost every post a runtime call.
  @usableFromInline @exclusivity(unchecked) var channels = ChannelTable()

  init(_ centerName: StaticString, exclusion: any Exclusion.Type) {
    self.centerName = centerName
    self.exclusion = exclusion
    LiveRegistries.insert(self)
  }

  /// Whether the storage is the main actor's (``OnMainActor``), so that it is read and changed there
  /// only, and what it releases may hold main-actor state.
  package var isMainActor: Bool { exclusion == OnMainActor.self }

  /// Whether this thread must hop to the main queue before the storage is exclusive: a main-actor
  /// engine used elsewhere (an ending, a center released there).
  private var mustHopToMainQueue: Bool { isMainActor && !MainQueue.isCurrent }

  /// A change of the storage: `body` inside the exclusive section; then the channel of `key`
  /// removed if the change emptied it and no post reads it, the storage's rules checked (in builds
  /// with `PRESENTATION_INTERNAL_CHECKS`), and what it released dropped after the section.
  private func change<Result>(
    of key: ObjectIdentifier?, _ body: (inout ChannelTable, inout ReleasedAfterUnlock) -> Result
  ) -> Result {
    var released = ReleasedAfterUnlock()
    let result = exclusion.withExclusiveAccess(to: self) {
      let result = body(&channels, &released)
      if let key, let storage = channels.storage(of: key), storage.count == 0, storage.isUnread {
        _ = channels.remove(key)
        released.keep(storage)
      }
      #if PRESENTATION_INTERNAL_CHECKS
        channels._checkInvariants(touching: key)
      #endif
      return result
    }
    if isMainActor { released.dropOnMainQueue() } else { released.drop() }
    return result
  }

  /// The start of every registration of every center: records the token in the running test's
  /// log (``LeakScopeLog``), checks in debug builds that an owner-bound handler does not capture its
  /// owner and that a sender filter is not a temporary, ends it at once if its owner or sender is
  /// already deinitialising, then stores `entry` unless the registration has ended (its lifecycle
  /// decides), and sweeps the channel when it has doubled since its last sweep.
  ///
  /// - Parameter form: The `observe` form, for the owner-capture message (`observe(_:owner:)`).
  func register(_ entry: Entry, form: StaticString) -> ObserverToken {
    let registration = entry.registration
    let token = ObserverToken(registration: registration)
    LeakScopeLog.inScope?.record(token)
    #if DEBUG
      RegistrationDiagnostics.check(registration, handler: entry.handler, center: centerName, form: form)
    #endif
    // An owner or sender already deinitialising cannot be referenced weakly: the weak load is nil
    // at once, so the registration could never deliver.
    if registration.startsDead { registration.end() }
    let key = registration.site.key
    let sweepDue = change(of: key) { channels, released in
      switch registration.lifecycle.store() {
      case .append: return channels.modifyOrInsert(key) { $0.append(entry, into: &released) }
      case .release:
        released.keep(entry)
        return false
      }
    }
    if sweepDue { sweep(key) }
    return token
  }

  /// Registers `call` for notifications of `type` without an owner: token-bound, main-actor and
  /// one-shot observers.
  func register<N>(
    _ type: N.Type, sender: AnyObject?, flags: Registration.Flags, fileID: StaticString, line: Int,
    call: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    let registration = Registration(
      in: self, N.self, owner: nil, sender: sender, flags: flags, fileID: fileID, line: line)
    return register(PlainEntry(registration: registration, call: call), form: "observe(_:)")
  }

  /// Registers `call` for notifications of `type`, bound to `owner`.
  func register<Owner: AnyObject, N>(
    _ type: N.Type, owner: Owner, sender: AnyObject?, flags: Registration.Flags, fileID: StaticString, line: Int,
    call: @escaping @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    let registration = Registration(
      in: self, N.self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    let form: StaticString =
      flags.contains(.oneShot)
      ? "observeOnce(_:owner:)" : flags.contains(.mainActor) ? "observeOnMainActor(_:owner:)" : "observe(_:owner:)"
    return register(OwnerEntry(registration: registration, call: call), form: form)
  }

  /// Releases what the engine holds for `registration`, which has just ended: its entry (and with
  /// it the handler), after the exclusive section, or leaves that to the last post reading the
  /// storage. Called once per registration, by its `end()`, on any thread.
  func detach(_ registration: Registration) {
    guard !mustHopToMainQueue else { return MainQueue.runOnMainActor { self.detach(registration) } }
    let key = registration.site.key
    change(of: key) { channels, released in _ = channels.modify(key) { $0.remove(registration, into: &released) } }
  }

  /// Applies the removals deferred while posts read the storage of the channel of `key`: called by
  /// the last of those posts.
  @usableFromInline
  func reclaimDeferred(of key: ObjectIdentifier) {
    change(of: key) { channels, released in _ = channels.modify(key) { $0.reclaimIfUnread(into: &released) } }
  }

  /// Ends the registrations of the channel of `key` whose owner or sender died unnoticed, outside
  /// the exclusive section, and sets the channel's next sweep from how many it found live: dead
  /// registrations never outnumber twice the live ones plus 32.
  private func sweep(_ key: ObjectIdentifier) {
    var liveCount = 0
    for registration in unendedRegistrations(of: key) {
      if registration.isLive { liveCount += 1 } else { registration.end() }
    }
    change(of: key) { channels, _ in _ = channels.modify(key) { $0.sweep.finished(keeping: liveCount) } }
  }

  /// The center's end (from its `deinit`): the engine leaves the live set, every channel is emptied
  /// and each registration ends (a sequence finishes after handing out what it buffered). A
  /// main-actor engine released off the main queue does this on the main queue.
  func endAll() {
    LiveRegistries.remove(self)
    guard !mustHopToMainQueue else { return MainQueue.runOnMainActor { self.endAll() } }
    let registrations = change(of: nil) { channels, released in
      defer { channels = ChannelTable() }  // its storages are kept in `released`
      return channels.all.flatMap { _, channel in
        released.keep(channel.storage)
        return channel.entries.map(\.registration)
      }
    }
    // Each `end()` finds its entry gone: its `detach` changes nothing.
    for registration in registrations { registration.end() }
  }
}

// The reads every query and diagnostic shares: copied out inside the exclusive section, loading no
// owner; owners and senders are loaded after it (a load makes a strong reference whose release may
// run the owner's `deinit`, which may call back into the center). A main-actor engine is read on
// the main actor only: by its center's main-actor queries, and by `LiveRegistries` on the main
// queue.
extension Engine {
  /// The entries of `key` (every type when `nil`) whose registration has not ended, grouped by
  /// type, in registration order within a type.
  private func unendedEntries(of key: ObjectIdentifier?, where isIncluded: (Registration) -> Bool) -> [Entry] {
    exclusion.withExclusiveAccess(to: self) {
      channels.all.filter { key == nil || $0.key == key }.flatMap { _, channel in
        channel.entries.filter { !$0.registration.lifecycle.hasEnded && isIncluded($0.registration) }
      }
    }
  }

  /// The registrations of `key` (every type when `nil`) that have not ended, in the order of
  /// `unendedEntries`.
  func unendedRegistrations(of key: ObjectIdentifier?) -> [Registration] {
    unendedEntries(of: key) { _ in true }.map(\.registration)
  }

  /// The registrations that have not ended and that `isIncluded` accepts, with their handlers, for
  /// the leak harness. `isIncluded` is called inside the exclusive section, before anything is
  /// copied, so that no handler the caller does not want is retained even for a moment (another
  /// test may be waiting for what it captures to go); it must not call into a center. A main-actor
  /// engine's handlers are handed out boxed (``MainActorReleased``).
  package func unendedRegistrationsWithHandlers(
    where isIncluded: (Registration) -> Bool
  ) -> [(registration: Registration, handler: any Sendable)] {
    unendedEntries(of: nil, where: isIncluded).map { entry in
      (entry.registration, isMainActor ? MainActorReleased(entry.handler) : entry.handler)
    }
  }

  /// The number of live registrations of `type`.
  func observerCount(of type: any Any.Type) -> Int {
    unendedRegistrations(of: ObjectIdentifier(type)).count { $0.isLive }
  }

  /// Every live registration in the one order every center lists in: notification types sorted by
  /// name, registration order within a type.
  var listing: [RegistrationInfo] {
    Self.listingOrder(unendedRegistrations(of: nil).filter(\.isLive), \.self).map(\.info)
  }

  /// `items` sorted by the name of their registration's notification type, keeping their order
  /// within a type.
  package static func listingOrder<Item>(_ items: [Item], _ registration: (Item) -> Registration) -> [Item] {
    items.enumerated()
      .map {
        (name: String(reflecting: registration($0.element).site.notificationType), index: $0.offset, item: $0.element)
      }
      .sorted { ($0.name, $0.index) < ($1.name, $1.index) }
      .map(\.item)
  }
}

/// What makes an engine's storage exclusive while it is read or changed: its lock (``Locked``: the
/// typed center and the bridge, used from any thread), or the main actor (``OnMainActor``: the
/// main-actor center, whose every change runs there and whose post takes no lock at all).
///
/// The post path is generic over it, so each center's post is specialised with its own; the other
/// paths ask the engine's `exclusion` at run time.
@usableFromInline
protocol Exclusion {
  /// Runs `body` with `engine`'s storage exclusive. The caller of ``OnMainActor``'s runs on the main
  /// actor (checked in debug builds); an engine used from elsewhere hops there first (an ending,
  /// `Engine.detach`; a center released there, `Engine.endAll`).
  static func withExclusiveAccess<Result>(to engine: Engine, _ body: () throws -> Result) rethrows -> Result
}

/// The lock of an engine that any thread may use.
@usableFromInline
enum Locked: Exclusion {
  @inlinable @inline(__always)
  static func withExclusiveAccess<Result>(to engine: Engine, _ body: () throws -> Result) rethrows -> Result {
    try engine.lock.whileLocked {
      #if DEBUG
        try TestHooks.inExclusiveSection(body)
      #else
        try body()
      #endif
    }
  }
}

/// The main actor, which serialises every use of a main-actor center: no lock to take.
@usableFromInline
enum OnMainActor: Exclusion {
  @inlinable @inline(__always)
  static func withExclusiveAccess<Result>(to engine: Engine, _ body: () throws -> Result) rethrows -> Result {
    #if DEBUG
      MainActor.preconditionIsolated("\(engine.centerName) was used off the main actor")
      return try TestHooks.inExclusiveSection(body)
    #else
      return try body()
    #endif
  }
}

// The post path of the typed and main-actor centers, top to bottom:
// 1. `post` finds the channel of `N` and pins its storage inside the exclusive section (the lock, or
//    nothing on the main actor);
// 2. calls each entry in order (`Delivery.deliver`) outside it, without retaining the entries or
//    their handlers;
// 3. unpins the storage (outside) and, if a removal was deferred while it read, applies it
//    (`reclaimDeferred`).
//
// It is inlinable so that it is specialised for `N` and the exclusion where each center posts:
// unspecialised, it would pass the notification to each handler through `N`'s value witnesses. The
// downcasts of entries to `PlainEntry<N>` and `OwnedEntry<N>` cost nothing in release builds; in
// debug builds `unsafeDowncast` checks each one, so the tests verify that a channel holds only its
// own type.
extension Engine {
  /// Delivers `notification`, posted by the sender identified by `senderID`, to every entry of its
  /// channel, in order; `enqueueOnMainQueue` takes a main-actor delivery of a post made elsewhere
  /// (only the typed center has such registrations).
  @inlinable @inline(__always)
  func post<N, X: Exclusion>(
    _ notification: N, from senderID: ObjectIdentifier?, under _: X.Type,
    enqueueOnMainQueue: (Registration) -> Void
  ) {
    let key = ObjectIdentifier(N.self)
    let pinned = X.withExclusiveAccess(to: self) { () -> (EntryStorage, Int)? in
      guard let storage = channels.storage(of: key) else { return nil }
      return (storage, storage.beginRead())
    }
    guard let (storage, count) = pinned else { return }
    #if DEBUG
      RecursionGuard.enter(N.self, in: centerName, limit: TypedNotificationCenter.maximumNestedPostDepth)
      defer { RecursionGuard.leave() }
    #endif
    let entries = storage.entries
    var onMainQueue: Bool?
    for index in 0..<count {
      // The entry is read as a raw pointer and used through an unretained, guaranteed reference:
      // the storage holds a strong reference to it and is not changed while this post reads it
      // (the rules of `EntryStorage`), so it outlives the call. Its handler, a `let`, is then called
      // without retaining its context.
      guard let entry = UnsafeRawPointer(entries + index).load(as: UnsafeRawPointer?.self) else {
        continue  // a tombstone
      }
      Unmanaged<Entry>.fromOpaque(entry)._withUnsafeGuaranteedRef { entry in
        Delivery.deliver(
          notification, from: senderID, to: entry, onMainQueue: &onMainQueue, enqueue: enqueueOnMainQueue)
      }
    }
    // The storage is released by this post, outside the section: when it was replaced meanwhile,
    // that release may be its last and deinitialise its entries and handlers.
    if storage.endRead() { reclaimDeferred(of: key) }
  }

  /// Enqueues the delivery of `notification` to `registration`, a main-actor observer of a post
  /// made off the main queue, in the order of posting. The delivery decides there, as every
  /// delivery does (`Registration.deliver`): an observer that ended before it runs is not called.
  @usableFromInline
  func deliverOnMainQueue<N: Sendable>(
    _ notification: N, from senderID: ObjectIdentifier?, to registration: Registration
  ) {
    MainQueue.runOnMainActor { [self] in
      guard let entry = storedEntry(of: registration) else { return }
      registration.deliver(from: senderID) { owner in Delivery.call(notification, entry: entry, owner: owner) }
    }
  }

  /// The entry of `registration` while it is stored (at its slot in its channel's storage).
  private func storedEntry(of registration: Registration) -> Entry? {
    exclusion.withExclusiveAccess(to: self) {
      let slot = registration.slot
      guard slot >= 0, let storage = channels.storage(of: registration.site.key), slot < storage.count else {
        return nil
      }
      return storage.entries[slot]?.registration === registration ? storage.entries[slot] : nil
    }
  }
}

/// Delivery of a post to one entry of the channel of `N`, whose entries are all `PlainEntry<N>` or
/// `OwnedEntry<N>`.
@usableFromInline
enum Delivery<N> {
  /// The two common kinds inline (a token-bound and an owner-bound observer called where the post
  /// is made: the decision of `Registration.deliver`, specialised), anything else through
  /// `deliverSlowPath`.
  ///
  /// `entry` is an unretained reference the caller keeps alive; everything read through it is a
  /// `let`, so nothing is retained for the call.
  @inlinable @inline(__always)
  static func deliver(
    _ notification: N, from senderID: ObjectIdentifier?, to entry: Entry, onMainQueue: inout Bool?,
    enqueue: (Registration) -> Void
  ) {
    let registration = entry.registration
    guard registration.lifecycle.isLive else { return }
    let flags = registration.flags
    if flags == .endsWithToken {
      // unsafeDowncast: an entry without `hasOwner` is a `PlainEntry`.
      return unsafeDowncast(entry, to: PlainEntry<N>.self).call(notification)
    }
    if flags == .hasOwner {
      guard let owner = registration.owner else { return registration.end() }  // the owner deinitialised
      OwnerLoadProbe.loaded(owner)
      // unsafeDowncast: an entry with `hasOwner` is an `OwnedEntry`.
      return unsafeDowncast(entry, to: OwnedEntry<N>.self).call(owner: owner, notification)
    }
    deliverSlowPath(notification, from: senderID, to: entry, onMainQueue: &onMainQueue, enqueue: enqueue)
  }

  /// Sender filters, one-shots, streams, and main-actor observers of the typed center.
  ///
  /// Inlinable so that it is specialised for `N` where `post` is called (unspecialised, every
  /// main-actor delivery passed the notification through `N`'s value witnesses), but never inlined,
  /// so the fast paths' loop stays as small as it is.
  @inlinable @inline(never)
  static func deliverSlowPath(
    _ notification: N, from senderID: ObjectIdentifier?, to entry: Entry, onMainQueue: inout Bool?,
    enqueue: (Registration) -> Void
  ) {
    let registration = entry.registration
    if registration.flags.contains(.mainActor) && !MainQueue.isCurrent(rememberedIn: &onMainQueue) {
      return enqueue(registration)
    }
    registration.deliver(from: senderID) { owner in call(notification, entry: entry, owner: owner) }
  }

  /// Calls the handler of `entry`, with `owner` for an owner-bound one.
  @inlinable @inline(__always)
  static func call(_ notification: N, entry: Entry, owner: AnyObject?) {
    #if DEBUG
      if entry.registration.flags.contains(.mainActor) {
        precondition(MainQueue.isCurrent, "a main-actor handler was about to run off the main queue")
      }
    #endif
    if let owner {
      unsafeDowncast(entry, to: OwnedEntry<N>.self).call(owner: owner, notification)
    } else {
      unsafeDowncast(entry, to: PlainEntry<N>.self).call(notification)
    }
  }
}

// The post's side of the rules of `EntryStorage`: counting in and out.
extension EntryStorage {
  /// Counts a post in and returns how many entries it may read; inside the section.
  @inlinable @inline(__always)
  func beginRead() -> Int {
    readers.wrappingAdd(1, ordering: .relaxed)  // ordered by the section
    return count
  }

  /// Counts a post out, outside the section.
  ///
  /// - Returns: Whether this was the last reader and a removal was deferred meanwhile: the caller
  ///   must then apply it (`Engine.reclaimDeferred`).
  ///
  /// Sequentially consistent, as is `deferEnds()`: a post counting out and a writer deferring a
  /// removal each write one atomic and then read the other's, so at least one of them sees the
  /// other and the removal is never left behind.
  @inlinable @inline(__always)
  func endRead() -> Bool {
    let left = readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
    return left == 0 && hasDeferredEnds.load(ordering: .sequentiallyConsistent)
  }
}
