/// What a channel operation removed: values whose release may run user code (handler captures,
/// deinitialisers), to be dropped only after the center's lock is released, and registrations
/// found dead that must be told so (`didEnd()`) outside the lock.
//
// @unchecked Sendable: a `Reclaimed` is built under the lock and handed, whole, to the thread that
// took the lock, which only drops it; no two threads ever access one.
//
// The first four values are kept inline, so that ending one registration (its handler and its
// registration) allocates nothing; more spill into an array.
@usableFromInline
struct Reclaimed: @unchecked Sendable {
  private var inline: (Any?, Any?, Any?, Any?) = (nil, nil, nil, nil)
  private var inlineCount = 0
  private var spilled: [Any] = []
  @usableFromInline var ended: [RegistrationCore] = []

  @usableFromInline init() {}

  /// Holds `value` until ``finish()``, so that its release happens after unlocking.
  @usableFromInline
  mutating func keep(_ value: Any) {
    switch inlineCount {
    case 0: inline.0 = value
    case 1: inline.1 = value
    case 2: inline.2 = value
    case 3: inline.3 = value
    default:
      spilled.append(value)
      return
    }
    inlineCount += 1
  }

  /// Finishes what was reclaimed; call after the lock is released.
  @usableFromInline
  consuming func finish() {
    for registration in ended { registration.didEnd() }
    inline = (nil, nil, nil, nil)
    spilled = []
  }
}

/// The type-erased face of a channel, for the center's non-generic bookkeeping.
@usableFromInline
class AnyChannel {
  /// Entries visited by this channel's rebuilds so far (for `TypedNotificationCenter.storageWork`).
  // @exclusivity(unchecked), here and on `Channel`'s counters: a channel is only ever touched under
  // the center's lock, which already makes every access exclusive; the dynamic checks would cost
  // every registration and ending two runtime calls each.
  @exclusivity(unchecked) var entriesVisited = 0
  var count: Int { fatalError("abstract") }
  var registrations: [RegistrationCore] { fatalError("abstract") }
  /// Removes every ended or dead entry if no post is using the storage.
  func reclaimIfUnused(into reclaimed: inout Reclaimed) -> Bool { fatalError("abstract") }
  /// Empties the channel (center deinit).
  func removeAll(into reclaimed: inout Reclaimed) { fatalError("abstract") }
}

/// The observers of one notification type, in registration order. Only touched under the center's
/// lock.
///
/// Posting retains `storage` and counts itself in its `readers` under the lock, iterates it outside
/// the lock, then leaves (decrement, release) under the lock again. A storage with readers is never
/// mutated: a change copies it first and retires the old one, which its last reader empties. So
/// observers added during a delivery are not part of it, and every hand-over of a storage between
/// threads goes through the lock, where ThreadSanitizer can see it (it cannot see the runtime's
/// reference counts, so `isKnownUniquelyReferenced` alone would look racy to it).
///
/// Ending a registration turns its entry into a tombstone in O(1) through the registration's
/// `slot`, releasing the handler at once; while a post is iterating the storage the tombstone is
/// deferred until the post ends. Tombstones at the end of the storage are popped at once (so
/// observing then cancelling, the churn of UI code, never compacts), and the others are swept out
/// once they make up half the storage, so ending a registration never scans the others (amortised
/// O(1)). A storage no post is reading is compacted in place; only growth or a reader forces a copy.
///
/// Under the lock a channel reads only a registration's own state (`hasEnded`), never its owner or
/// sender: a weak load makes a strong reference, and if the owner's last outside reference went
/// away meanwhile, releasing it would run the owner's `deinit` here, under the lock. Registrations
/// whose owner died unnoticed are found outside the lock (see `TypedNotificationCenter.prune`).
@usableFromInline
final class Channel<N: TypedNotification>: AnyChannel {
  // @exclusivity(unchecked): only ever accessed under the center's lock, which already makes
  // accesses exclusive; the dynamic check would cost the post path a runtime call.
  @usableFromInline @exclusivity(unchecked) private(set) var storage = EntryStorage<N>.make(capacity: 4)
  /// Tombstoned or ended entries still in `storage`.
  @exclusivity(unchecked) private var endedCount = 0
  /// At this many live entries, `append` asks for a sweep of entries whose owner or sender died
  /// unnoticed (nobody posted since); doubled after each, so sweeping is amortised O(1).
  @exclusivity(unchecked) private var sweepThreshold = 32

  override var count: Int { storage.header.count }

  override var registrations: [RegistrationCore] {
    storage.withUnsafeMutablePointers { header, entries in
      (0..<header.pointee.count).map { entries[$0].registration }
    }
  }

  /// Whether no post is reading `storage`, so it may be changed in place.
  private func storageIsUnused() -> Bool {
    storage.header.readers == 0 && isKnownUniquelyReferenced(&storage)
  }

  /// Appends an entry for `registration`.
  ///
  /// - Returns: `true` when the channel has grown enough since its last sweep that the caller should
  ///   look for registrations whose owner or sender died unnoticed (``TypedNotificationCenter``
  ///   does that after unlocking: the look loads owners, which may run their `deinit`).
  func append(_ registration: Registration<N>, handler: Handler<N>, into reclaimed: inout Reclaimed) -> Bool {
    let header = storage.header
    if !storageIsUnused() || header.count == header.capacity {
      rebuild(minimumCapacity: header.count - endedCount + 1, into: &reclaimed)
    }
    storage.withUnsafeMutablePointers { header, entries in
      registration.slot = header.pointee.count
      (entries + header.pointee.count).initialize(to: Entry(registration: registration, handler: handler))
      header.pointee.count += 1
    }
    let live = storage.header.count - endedCount
    guard live >= sweepThreshold else { return false }
    sweepThreshold = Swift.max(32, live * 2)
    return true
  }

  /// Releases the handler of `registration`, which has just ended.
  ///
  /// - Returns: `false` if a post is using the storage, so the tombstone was deferred.
  func tombstone(_ registration: Registration<N>, into reclaimed: inout Reclaimed) -> Bool {
    let slot = registration.slot
    guard slot >= 0, slot < storage.header.count else { return true }
    guard storageIsUnused() else { return false }
    storage.withUnsafeMutablePointers { header, entries in
      guard entries[slot].registration === registration, let handler = entries[slot].handler else { return }
      entries[slot].handler = nil  // not the last reference: `handler` holds it, then `reclaimed`
      reclaimed.keep(handler)
      endedCount += 1
      // Pop trailing tombstones; their registrations are released after unlocking too.
      while header.pointee.count > 0, entries[header.pointee.count - 1].handler == nil {
        header.pointee.count -= 1
        let popped = (entries + header.pointee.count).move()
        popped.registration.slot = -1
        reclaimed.keep(popped.registration)
        endedCount -= 1
      }
    }
    if endedCount > 0 && endedCount * 2 >= storage.header.count {
      rebuild(minimumCapacity: storage.header.count - endedCount, into: &reclaimed)
    }
    return true
  }

  override func reclaimIfUnused(into reclaimed: inout Reclaimed) -> Bool {
    guard storageIsUnused() else { return false }
    rebuild(minimumCapacity: storage.header.count - endedCount, into: &reclaimed)
    return true
  }

  /// Moves the live entries of the unused `storage` down over the ended ones.
  private func compactInPlace(into reclaimed: inout Reclaimed) {
    entriesVisited += storage.header.count
    storage.withUnsafeMutablePointers { header, entries in
      var kept = 0
      for index in 0..<header.pointee.count {
        // As in `rebuild`: only the registration's own state, never its owner or sender.
        if entries[index].handler != nil && !entries[index].registration.hasEnded {
          entries[index].registration.slot = kept
          if kept != index { (entries + kept).moveInitialize(from: entries + index, count: 1) }
          kept += 1
        } else {
          let dropped = (entries + index).move()
          dropped.registration.slot = -1
          reclaimed.keep(dropped.registration)
          if let handler = dropped.handler { reclaimed.keep(handler) }
        }
      }
      header.pointee.count = kept
    }
    endedCount = 0
  }

  override func removeAll(into reclaimed: inout Reclaimed) {
    for registration in registrations where registration.markEnded() {
      reclaimed.ended.append(registration)
    }
    reclaimed.keep(storage)
    storage = EntryStorage<N>.make(capacity: 0)
    endedCount = 0
  }

  /// Leaves only the live entries in `storage`, renumbering their slots, with room for at least
  /// `minimumCapacity`: in place when no post reads the storage and it is large enough; otherwise
  /// in a fresh storage, moving the entries when the old one is unused and copying them when a post
  /// is reading it.
  private func rebuild(minimumCapacity: Int, into reclaimed: inout Reclaimed) {
    let unused = storageIsUnused()
    if unused && minimumCapacity <= storage.header.capacity {
      compactInPlace(into: &reclaimed)
      return
    }
    let old = storage
    // Posts still reading the old storage hold it; the last of them releases it, unlocked (`endPost`).
    if !unused { old.header.isRetired = true }
    // Grows by half rather than doubling: one entry per registration, so the slack is paid per
    // registration (on average a quarter of an entry instead of half).
    let fresh = EntryStorage<N>.make(capacity: Swift.max(4, minimumCapacity + minimumCapacity / 2))
    entriesVisited += old.header.count
    old.withUnsafeMutablePointers { oldHeader, oldEntries in
      fresh.withUnsafeMutablePointers { header, entries in
        for index in 0..<oldHeader.pointee.count {
          // Only the registration's own state is read here, never its owner or sender: loading one
          // makes a strong reference that may turn out to be the last, and its release would run
          // the owner's deinit under the lock (which may call back into the center). This copy of
          // the registration is not the last reference either: the entry holds it until it is
          // moved out below, into the fresh storage or into `reclaimed`.
          let registration = oldEntries[index].registration
          if oldEntries[index].handler != nil && !registration.hasEnded {
            registration.slot = header.pointee.count
            if unused {
              (entries + header.pointee.count).moveInitialize(from: oldEntries + index, count: 1)
            } else {
              (entries + header.pointee.count).initialize(to: oldEntries[index])
            }
            header.pointee.count += 1
          } else if unused {
            let dropped = (oldEntries + index).move()
            reclaimed.keep(dropped.registration)
            if let handler = dropped.handler { reclaimed.keep(handler) }
          }
        }
        if unused { oldHeader.pointee.count = 0 }  // everything was moved out
      }
    }
    storage = fresh
    endedCount = 0
    reclaimed.keep(old)  // dropped after the lock is released
  }
}

/// The header of an ``EntryStorage``.
@usableFromInline
struct EntryStorageHeader {
  @usableFromInline var count: Int
  @usableFromInline let capacity: Int
  /// Posts iterating this storage now. Changed only under the center's lock.
  @usableFromInline var readers = 0
  /// Set when the channel replaced this storage while posts were reading it.
  @usableFromInline var isRetired = false

  @usableFromInline init(count: Int, capacity: Int) {
    self.count = count
    self.capacity = capacity
  }
}

/// A growable, manually copy-on-write array of entries that knows how many posts are reading it.
///
/// A storage is mutated only under the center's lock and only while no post reads it; a storage
/// being read is read-only until its last reader leaves.
@usableFromInline
final class EntryStorage<N: TypedNotification>: ManagedBuffer<EntryStorageHeader, Entry<N>> {
  static func make(capacity: Int) -> EntryStorage<N> {
    let buffer = create(minimumCapacity: capacity) { _ in EntryStorageHeader(count: 0, capacity: capacity) }
    return unsafeDowncast(buffer, to: EntryStorage<N>.self)
  }

  /// Counts a post in and returns how many entries it may read; under the center's lock.
  @inlinable @inline(__always)
  func beginRead() -> Int {
    withUnsafeMutablePointerToHeader { header in
      // Field pointers, so that ThreadSanitizer sees an access to `readers` only, not to the whole
      // header (whose `count` other posts may be reading).
      header.pointer(to: \.readers)!.pointee += 1
      return header.pointer(to: \.count)!.pointee
    }
  }

  /// Counts a post out; under the center's lock.
  ///
  /// - Returns: Whether this was the last reader of a storage the channel has retired. Nothing else
  ///   references such a storage any more (but a rebuild's `Reclaimed`, about to drop it), so the
  ///   caller must release it only after unlocking: that release deinitialises its entries and
  ///   their handlers.
  @inlinable @inline(__always)
  func endRead() -> Bool {
    withUnsafeMutablePointerToHeader { header in
      // Field pointers, as in `beginRead`.
      let readers = header.pointer(to: \.readers)!
      readers.pointee -= 1
      return readers.pointee == 0 && header.pointer(to: \.isRetired)!.pointee
    }
  }

  deinit {
    _ = withUnsafeMutablePointers { header, entries in
      entries.deinitialize(count: header.pointee.count)
    }
  }
}
