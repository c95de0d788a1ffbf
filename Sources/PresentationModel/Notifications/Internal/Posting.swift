internal import Dispatch

// The post path, top to bottom:
// 1. `deliver` finds the channel of `N` and pins its storage (`beginPost`, under the lock);
// 2. calls each entry in order (`deliver(_:senderID:to:count:)`, then `Entry.deliver`), without
//    the lock;
// 3. unpins the storage (`endPost`, without the lock) and, if an ending was deferred while it
//    read, applies it (`reclaimDeferred`, under the lock).
//
// It is inlinable so that it is specialised for `N` where `post` is called: generic code would look
// up the metadata of `Channel<N>`, `EntryStorage<N>` and `Entry<N>` on every post.
extension TypedNotificationCenter {
  @inlinable @inline(__always)
  func deliver<N: TypedNotification>(_ notification: N, senderID: ObjectIdentifier?) {
    guard let (storage, count) = beginPost(of: N.self) else { return }
    deliver(notification, senderID: senderID, to: storage, count: count)
    endPost(storage)
  }

  /// The storage of `N`'s channel, counted as read (nothing mutates it until `endPost`), and the
  /// number of entries in it.
  @inlinable @inline(__always)
  func beginPost<N: TypedNotification>(of _: N.Type) -> (EntryStorage<N>, Int)? {
    let key = ObjectIdentifier(N.self)
    return state.withLock { state in
      guard let channel = state.channels[key] else { return nil }
      let storage = unsafeDowncast(channel, to: Channel<N>.self).storage
      return (storage, storage.beginRead())
    }
  }

  /// Calls each of the first `count` entries of `storage` in order.
  @inlinable @inline(__always)
  func deliver<N: TypedNotification>(
    _ notification: N, senderID: ObjectIdentifier?, to storage: EntryStorage<N>, count: Int
  ) {
    #if DEBUG
      RecursionGuard.enter(N.self)
      defer { RecursionGuard.leave() }
    #endif
    let entries = storage.entries
    var onMainQueue = MainQueueCheck()
    for index in 0..<count {
      Entry.deliver(notification, senderID: senderID, to: entries + index, onMainQueue: &onMainQueue)
    }
  }

  /// Counts the post out of `storage`; if it was the last reader and an ending was deferred while
  /// it read, applies it. The storage is released by the caller, outside the lock: when it was
  /// replaced meanwhile, that release may be its last and deinitialise its entries and handlers.
  @inlinable @inline(__always)
  func endPost<N: TypedNotification>(_ storage: EntryStorage<N>) {
    if storage.endRead() { reclaimDeferred(of: ObjectIdentifier(N.self)) }
  }

  /// Applies the endings deferred while posts were reading the storage of the channel of `key`.
  @usableFromInline
  func reclaimDeferred(of key: ObjectIdentifier) {
    let reclaimed = state.withLock { state in
      var reclaimed = Reclaimed()
      if let channel = state.channels[key], channel.reclaimIfUnread(into: &reclaimed), channel.count == 0 {
        state.removeChannel(for: key, into: &reclaimed)
      }
      return reclaimed
    }
    reclaimed.drop()
  }
}

extension Entry {
  /// Delivers `notification` from the sender identified by `senderID` to the entry at `entry`, if
  /// its registration has not ended and its filter matches.
  ///
  /// `entry` must lie in a storage the caller reads under the rules of ``EntryStorage``: it is not
  /// mutated during the call, so the entry's registration and handler outlive the call; the
  /// registration is therefore read without retaining it.
  @inlinable @inline(__always)
  static func deliver(
    _ notification: N, senderID: ObjectIdentifier?, to entry: UnsafeMutablePointer<Self>,
    onMainQueue: inout MainQueueCheck
  ) {
    // unowned(unsafe): the storage holding `entry` keeps the registration alive (see above).
    unowned(unsafe) let registration = entry.pointee.registration
    guard !registration.hasEnded else { return }
    let flags = registration.flags
    // The common case: a token-bound observer on the posting thread.
    if flags == .endsWithToken, let handler = entry.pointee.handler {
      handler(notification)
      return
    }
    // An owner-bound observer on the posting thread, without a sender filter. The owner is loaded
    // before the handler is read, so the handler is not held across the runtime call.
    if flags == .hasOwner {
      guard let owner = registration.owner else {
        registration.end()  // The owner deinitialised: this registration is over.
        return
      }
      #if DEBUG
        OwnerLoadProbe.loaded(owner)
      #endif
      if let handler = entry.pointee.ownedHandler { handler(owner, notification) }
      return
    }
    deliverSlowPath(notification, senderID: senderID, to: entry.pointee, onMainQueue: &onMainQueue)
  }

  /// Sender filters, main-actor observers, one-shots and streams.
  @usableFromInline
  static func deliverSlowPath(
    _ notification: N, senderID: ObjectIdentifier?, to entry: Self, onMainQueue: inout MainQueueCheck
  ) {
    let registration = entry.registration
    if registration.flags.contains(.hasSender) {
      guard let sender = registration.sender else {
        registration.end()  // The sender filter can never match again.
        return
      }
      #if DEBUG
        OwnerLoadProbe.loaded(sender)
      #endif
      guard let senderID, senderID == ObjectIdentifier(sender) else { return }
    }
    if registration.flags.contains(.mainActor) && !onMainQueue.isCurrent {
      DispatchQueue.main.async { call(notification, entry: entry) }
      return
    }
    call(notification, entry: entry)
  }

  /// Calls the handler, checking again that the registration has not ended (a main-actor delivery
  /// may run long after the post). A one-shot ends before its call, so no other post calls it too.
  private static func call(_ notification: N, entry: Self) {
    let registration = entry.registration
    if registration.flags.contains(.oneShot) {
      guard registration.beginEnding() else { return }
      invoke(notification, entry: entry)
      registration.finishEnding()
      return
    }
    guard !registration.hasEnded else { return }
    invoke(notification, entry: entry)
  }

  private static func invoke(_ notification: N, entry: Self) {
    #if DEBUG
      if entry.registration.flags.contains(.mainActor) {
        precondition(MainQueue.isCurrent, "a main-actor handler was about to run off the main queue")
      }
    #endif
    if let handler = entry.handler {
      handler(notification)
    } else if let handler = entry.ownedHandler {
      guard let owner = entry.registration.owner else {
        entry.registration.end()  // The owner deinitialised: this registration is over.
        return
      }
      #if DEBUG
        OwnerLoadProbe.loaded(owner)
      #endif
      handler(owner, notification)
    }
  }
}

/// Whether a post runs on the main queue, asked at most once per post: the answer cannot change
/// during it, and asking costs a dispatch look-up.
@usableFromInline
struct MainQueueCheck {
  private var answer: Bool?

  @inlinable init() {}

  var isCurrent: Bool {
    mutating get {
      if let answer { return answer }
      let current = MainQueue.isCurrent
      answer = current
      return current
    }
  }
}
