/// What a channel operation removed: values whose release may run user code (handler captures,
/// deinitialisers), to be dropped only after the center's lock is released, and registrations
/// found dead that must be told so (`didEnd()`) outside the lock.
//
// @unchecked Sendable: a `Reclaimed` is built under the lock and handed, whole, to the thread that
// took the lock, which only drops it; no two threads ever access one.
@usableFromInline
struct Reclaimed: @unchecked Sendable {
  @usableFromInline var garbage: [Any] = []
  @usableFromInline var ended: [RegistrationCore] = []

  @usableFromInline init() {}

  /// Finishes what was reclaimed; call after the lock is released.
  @usableFromInline
  consuming func finish() {
    for registration in ended { registration.didEnd() }
    garbage = []
  }
}

/// The type-erased face of a channel, for the center's non-generic bookkeeping.
@usableFromInline
class AnyChannel {
  /// Entries visited by this channel's rebuilds so far (for `TypedNotificationCenter.storageWork`).
  var entriesVisited = 0
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
/// deferred until the post ends. Tombstones are swept out once they make up half the storage, so
/// ending a registration never scans the others (amortised O(1)).
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
  private var endedCount = 0
  /// At this many live entries, `append` asks for a sweep of entries whose owner or sender died
  /// unnoticed (nobody posted since); doubled after each, so sweeping is amortised O(1).
  private var sweepThreshold = 32

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
    storage.withUnsafeMutablePointerToElements { entries in
      guard entries[slot].registration === registration, let handler = entries[slot].handler else { return }
      entries[slot].handler = nil  // not the last reference: `handler` holds it, then `reclaimed`
      reclaimed.garbage.append(handler)
      endedCount += 1
    }
    if endedCount * 2 >= storage.header.count {
      rebuild(minimumCapacity: storage.header.count - endedCount, into: &reclaimed)
    }
    return true
  }

  override func reclaimIfUnused(into reclaimed: inout Reclaimed) -> Bool {
    guard storageIsUnused() else { return false }
    rebuild(minimumCapacity: storage.header.count - endedCount, into: &reclaimed)
    return true
  }

  override func removeAll(into reclaimed: inout Reclaimed) {
    for registration in registrations where registration.markEnded() {
      reclaimed.ended.append(registration)
    }
    reclaimed.garbage.append(storage)
    storage = EntryStorage<N>.make(capacity: 0)
    endedCount = 0
  }

  /// Replaces `storage` with a fresh one holding only the live entries, renumbering their slots.
  /// Moves entries when the old storage is unused, copies them when a post is reading it.
  private func rebuild(minimumCapacity: Int, into reclaimed: inout Reclaimed) {
    let unused = storageIsUnused()
    let old = storage
    // Posts still reading the old storage hold it; the last of them empties it (`endRead`).
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
            reclaimed.garbage.append((oldEntries + index).move())
          }
        }
        if unused { oldHeader.pointee.count = 0 }  // everything was moved out
      }
    }
    storage = fresh
    endedCount = 0
    reclaimed.garbage.append(old)  // dropped after the lock is released
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

  /// Counts a post out; under the center's lock. The last reader of a retired storage moves its
  /// entries, and the storage itself, into `reclaimed`, so that the reader's release of its own
  /// reference is never the last one under the lock.
  @inlinable @inline(__always)
  func endRead(into reclaimed: inout Reclaimed?) {
    let isLastReaderOfRetired = withUnsafeMutablePointerToHeader { header in
      let readers = header.pointer(to: \.readers)!
      readers.pointee -= 1
      return readers.pointee == 0 && header.pointer(to: \.isRetired)!.pointee
    }
    if isLastReaderOfRetired { empty(into: &reclaimed) }
  }

  @usableFromInline
  func empty(into reclaimed: inout Reclaimed?) {
    var emptied = reclaimed ?? Reclaimed()
    withUnsafeMutablePointers { header, entries in
      for index in 0..<header.pointee.count { emptied.garbage.append((entries + index).move()) }
      header.pointee.count = 0
    }
    emptied.garbage.append(self)
    reclaimed = emptied
  }

  deinit {
    _ = withUnsafeMutablePointers { header, entries in
      entries.deinitialize(count: header.pointee.count)
    }
  }
}
