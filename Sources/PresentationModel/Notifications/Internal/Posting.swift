internal import Dispatch

// The post path, top to bottom:
// 1. `deliver` finds the channel of `N` and pins its storage (`beginPost`, under the lock);
// 2. calls each entry in order (`deliver(_:senderID:to:count:)`, then `Delivery.deliver`), without
//    the lock, and without retaining the entries or their handlers;
// 3. unpins the storage (`endPost`, without the lock) and, if an ending was deferred while it
//    read, applies it (`reclaimDeferred`, under the lock).
//
// It is inlinable so that it is specialised for `N` where `post` is called: unspecialised, it would
// pass the notification to each handler through `N`'s value witnesses. The downcasts of entries to
// `PlainEntry<N>` and `OwnedEntry<N>` cost nothing in release builds; in debug builds
// `unsafeDowncast` checks each one, so the tests verify that a channel holds only its own type.
extension TypedNotificationCenter {
  @inlinable @inline(__always)
  func deliver<N: TypedNotification>(_ notification: N, senderID: ObjectIdentifier?) {
    guard let (storage, count) = beginPost(of: N.self) else { return }
    deliver(notification, senderID: senderID, to: storage, count: count)
    endPost(storage, of: N.self)
  }

  /// The storage of `N`'s channel, counted as read (nothing mutates it until `endPost`), and the
  /// number of entries in it.
  @inlinable @inline(__always)
  func beginPost<N: TypedNotification>(of _: N.Type) -> (EntryStorage, Int)? {
    let key = ObjectIdentifier(N.self)
    return state.withLock { state in
      guard let channel = state.channels[key] else { return nil }
      let storage = channel.storage
      return (storage, storage.beginRead())
    }
  }

  /// Calls each of the first `count` entries of `storage` in order.
  @inlinable @inline(__always)
  func deliver<N: TypedNotification>(
    _ notification: N, senderID: ObjectIdentifier?, to storage: EntryStorage, count: Int
  ) {
    #if DEBUG
      RecursionGuard.enter(N.self, in: "TypedNotificationCenter", limit: Self.maximumNestedPostDepth)
      defer { RecursionGuard.leave() }
    #endif
    let entries = storage.entries
    var onMainQueue = MainQueueCheck()
    for index in 0..<count {
      // The entry is read as a raw pointer and used through an unretained, guaranteed reference:
      // the storage holds a strong reference to it and is not mutated while this post reads it
      // (the rules of `EntryStorage`), so it outlives the call. Its handler, a `let`, is then
      // called without retaining its context.
      guard let entry = UnsafeRawPointer(entries + index).load(as: UnsafeRawPointer?.self) else {
        continue  // a tombstone
      }
      Unmanaged<Entry>.fromOpaque(entry)._withUnsafeGuaranteedRef { entry in
        Delivery.deliver(notification, senderID: senderID, to: entry, onMainQueue: &onMainQueue)
      }
    }
  }

  /// Counts the post out of `storage`; if it was the last reader and an ending was deferred while
  /// it read, applies it. The storage is released by the caller, outside the lock: when it was
  /// replaced meanwhile, that release may be its last and deinitialise its entries and handlers.
  @inlinable @inline(__always)
  func endPost<N: TypedNotification>(_ storage: EntryStorage, of _: N.Type) {
    if storage.endRead() { reclaimDeferred(of: ObjectIdentifier(N.self)) }
  }

  /// Applies the endings deferred while posts were reading the storage of the channel of `key`.
  @usableFromInline
  func reclaimDeferred(of key: ObjectIdentifier) {
    let released = state.withLock { state in
      var released = ReleasedAfterUnlock()
      if let channel = state.channels[key], channel.reclaimIfUnread(into: &released), channel.count == 0 {
        state.removeChannel(for: key, into: &released)
      }
      return released
    }
    released.drop()
  }
}

/// Delivery to one entry of the channel of `N`, whose entries are all `PlainEntry<N>` or
/// `OwnedEntry<N>` (`register`).
@usableFromInline
enum Delivery<N: TypedNotification> {
  /// Delivers `notification` from the sender identified by `senderID` to `entry`, if its
  /// registration has not ended and its filter matches.
  ///
  /// `entry` is an unretained reference the caller keeps alive (see `TypedNotificationCenter.deliver(_:senderID:to:count:)`);
  /// everything read through it is a `let`, so nothing is retained for the call.
  @inlinable @inline(__always)
  static func deliver(
    _ notification: N, senderID: ObjectIdentifier?, to entry: Entry, onMainQueue: inout MainQueueCheck
  ) {
    let registration = entry.registration
    guard !registration.hasEnded else { return }
    let flags = registration.flags
    // The common case: a token-bound observer on the posting thread.
    if flags == .endsWithToken {
      // unsafeDowncast: an entry without `hasOwner` is a `PlainEntry` (`register`).
      unsafeDowncast(entry, to: PlainEntry<N>.self).handler(notification)
      return
    }
    // An owner-bound observer on the posting thread, without a sender filter.
    if flags == .hasOwner {
      callWithOwner(notification, entry: entry)
      return
    }
    deliverSlowPath(notification, senderID: senderID, to: entry, onMainQueue: &onMainQueue)
  }

  /// Sender filters, main-actor observers, one-shots and streams.
  ///
  /// Inlinable so that it is specialised for `N` where `post` is called (unspecialised, every
  /// main-actor delivery passed the notification through `N`'s value witnesses), but never inlined,
  /// so the fast paths' loop stays as small as it is.
  @inlinable @inline(never)
  static func deliverSlowPath(
    _ notification: N, senderID: ObjectIdentifier?, to entry: Entry, onMainQueue: inout MainQueueCheck
  ) {
    let registration = entry.registration
    let flags = registration.flags
    if flags.contains(.hasSender) {
      guard let sender = registration.sender else {
        registration.end()  // The sender filter can never match again.
        return
      }
      #if DEBUG
        OwnerLoadProbe.loaded(sender)
      #endif
      guard let senderID, senderID == ObjectIdentifier(sender) else { return }
    }
    if flags.contains(.mainActor) && !onMainQueue.isCurrent {
      callOnMainQueue(notification, entry: entry)
      return
    }
    // `deliver` found the registration live just now, and no code of yours ran since.
    callLive(notification, entry: entry, flags: flags)
  }

  /// Enqueues `call` on the main queue, for a main-actor delivery of a post made elsewhere.
  @usableFromInline
  static func callOnMainQueue(_ notification: N, entry: Entry) {
    DispatchQueue.main.async { call(notification, entry: entry) }
  }

  /// Calls the handler of a delivery enqueued on the main queue, checking again that the
  /// registration has not ended, since it may run long after the post.
  @usableFromInline
  static func call(_ notification: N, entry: Entry) {
    let registration = entry.registration
    guard !registration.hasEnded else { return }
    callLive(notification, entry: entry, flags: registration.flags)
  }

  /// Calls the handler of a registration found live, with its `flags`. A one-shot ends before its
  /// call, so no other post calls it too. Inlinable, as the slow path that calls it, so that both
  /// are specialised for `N` (unspecialised, a main-actor delivery cost half as much again).
  @inlinable @inline(__always)
  static func callLive(_ notification: N, entry: Entry, flags: RegistrationFlags) {
    guard flags.contains(.oneShot) else {
      invoke(notification, entry: entry, flags: flags)
      return
    }
    let registration = entry.registration
    guard registration.beginEnding() else { return }
    invoke(notification, entry: entry, flags: flags)
    registration.finishEnding()
  }

  @inlinable @inline(__always)
  static func invoke(_ notification: N, entry: Entry, flags: RegistrationFlags) {
    #if DEBUG
      if flags.contains(.mainActor) {
        precondition(
          MainQueue.isCurrentForPost(),
          "TypedNotificationCenter: a main-actor handler was about to run off the main queue")
      }
    #endif
    guard flags.contains(.hasOwner) else {
      unsafeDowncast(entry, to: PlainEntry<N>.self).handler(notification)
      return
    }
    callWithOwner(notification, entry: entry)
  }

  /// Loads the owner of an owner-bound entry and calls the handler with it; ends the registration
  /// if the owner deinitialised.
  @inlinable @inline(__always)
  static func callWithOwner(_ notification: N, entry: Entry) {
    // unsafeDowncast: the typed center makes an `OwnedRegistration` and an `OwnedEntry` for every
    // registration with an owner (`register`); the final registration class lets the owner be read
    // without a dynamic dispatch.
    let registration = entry.registration
    guard let owner = unsafeDowncast(registration, to: OwnedRegistration<N>.self).owner else {
      registration.end()  // The owner deinitialised: this registration is over.
      return
    }
    #if DEBUG
      OwnerLoadProbe.loaded(owner)
    #endif
    unsafeDowncast(entry, to: OwnedEntry<N>.self).call(owner: owner, notification)
  }
}

/// Whether a post runs on the main queue, asked at most once per post: the answer cannot change
/// during it, and asking costs a dispatch look-up.
@usableFromInline
struct MainQueueCheck {
  @usableFromInline var answer: Bool?

  @inlinable init() {}

  @inlinable var isCurrent: Bool {
    mutating get {
      if let answer { return answer }
      let current = MainQueue.isCurrentForPost()
      answer = current
      return current
    }
  }
}
