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
      guard slot >= 0, let storage = channels.storage(of: registration.site.key), slot < storage.count,
        let entry = storage.entries[slot], entry.registration === registration
      else { return nil }
      return entry
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
      unsafeDowncast(entry, to: PlainEntry<N>.self).call(notification)
      return
    }
    if flags == .hasOwner {
      guard let owner = registration.owner else { return registration.end() }  // the owner deinitialised
      OwnerLoadProbe.loaded(owner)
      // unsafeDowncast: an entry with `hasOwner` is an `OwnedEntry`.
      unsafeDowncast(entry, to: OwnedEntry<N>.self).call(owner: owner, notification)
      return
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
        precondition(MainQueue.isCurrentForPost(), "a main-actor handler was about to run off the main queue")
      }
    #endif
    if let owner {
      unsafeDowncast(entry, to: OwnedEntry<N>.self).call(owner: owner, notification)
    } else {
      unsafeDowncast(entry, to: PlainEntry<N>.self).call(notification)
    }
  }
}
