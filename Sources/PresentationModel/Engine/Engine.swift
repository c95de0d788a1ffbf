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
final class Engine: @unchecked Sendable {
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

  var isMainActor: Bool { exclusion.isMainActor }

  /// Whether this thread must hop to the main queue before the storage is exclusive: a main-actor
  /// engine used elsewhere (an ending, a center released there).
  private var mustHopToMainQueue: Bool { isMainActor && !MainQueue.isCurrent }

  /// A change of the storage: `body` inside the exclusive section, the storage's rules checked
  /// after it (in builds with `PRESENTATION_INTERNAL_CHECKS`), what it released dropped after it.
  private func change<Result>(
    of key: ObjectIdentifier?, _ body: (inout ChannelTable, inout ReleasedAfterUnlock) -> Result
  ) -> Result {
    var released = ReleasedAfterUnlock()
    let result = exclusion.withExclusiveAccess(to: self) {
      let result = body(&channels, &released)
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
    change(of: key) { channels, released in
      channels.modify(key) { $0.remove(registration, into: &released) }
      Self.removeIfEmpty(key, from: &channels, into: &released)
    }
  }

  /// Applies the removals deferred while posts read the storage of the channel of `key`: called by
  /// the last of those posts.
  @usableFromInline
  func reclaimDeferred(of key: ObjectIdentifier) {
    change(of: key) { channels, released in
      if channels.modify(key, { $0.reclaimIfUnread(into: &released) }) == true {
        Self.removeIfEmpty(key, from: &channels, into: &released)
      }
    }
  }

  private static func removeIfEmpty(
    _ key: ObjectIdentifier, from channels: inout ChannelTable, into released: inout ReleasedAfterUnlock
  ) {
    guard channels.modify(key, { $0.count == 0 && $0.storage.isUnread }) == true else { return }
    if let removed = channels.remove(key) { released.keep(removed.storage) }
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
      let emptied = channels.all.map(\.channel)
      channels = ChannelTable()
      return emptied.flatMap { channel in
        released.keep(channel.storage)
        return channel.entries.map(\.registration)
      }
    }
    for registration in registrations { registration.endRemoved() }
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
        channel.entries.filter { !$0.registration.hasEnded && isIncluded($0.registration) }
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
  func unendedRegistrationsWithHandlers(where isIncluded: (Registration) -> Bool) -> [RegistrationSnapshot] {
    unendedEntries(of: nil, where: isIncluded).map { entry in
      RegistrationSnapshot(entry.registration, handler: isMainActor ? MainActorReleased(entry.handler) : entry.handler)
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

  /// Every live registration with its handler, in listing order, for the leak harness.
  var snapshots: [RegistrationSnapshot] {
    Self.listingOrder(unendedRegistrationsWithHandlers { _ in true }.filter(\.registration.isLive), \.registration)
  }

  /// `items` sorted by the name of their registration's notification type, keeping their order
  /// within a type.
  private static func listingOrder<Item>(_ items: [Item], _ registration: (Item) -> Registration) -> [Item] {
    items.enumerated()
      .map {
        (name: String(reflecting: registration($0.element).site.notificationType), index: $0.offset, item: $0.element)
      }
      .sorted { ($0.name, $0.index) < ($1.name, $1.index) }
      .map(\.item)
  }
}
