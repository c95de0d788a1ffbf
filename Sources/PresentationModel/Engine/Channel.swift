/// The observers of one notification type, in registration order: the one tombstone-and-compaction
/// of every center. Only changed while its engine's storage is exclusive.
///
/// Posting reads `storage` under the rules of ``EntryStorage``: a storage with readers is never
/// mutated; a change copies it first and the copy replaces it, so observers added during a delivery
/// are not part of it.
///
/// Removing an ended registration turns its entry into a tombstone (`nil`) in O(1) through the
/// registration's `slot`, releasing the entry, and with it the handler, after the exclusive
/// section; while a post reads the storage the tombstone is deferred until the last reader leaves.
/// Tombstones at the end are popped at once (so observing then cancelling, the churn of UI code,
/// never compacts), and the others are swept out once they make up half the storage, in
/// registration order: removing one never scans the others (amortised O(1)). A storage no post reads
/// is compacted in place; only growth or a reader forces a copy.
///
/// A channel reads only a registration's own state (its lifecycle), never its owner or sender: a
/// weak load makes a strong reference, and if the owner's last outside reference went away
/// meanwhile, releasing it would run the owner's `deinit` here, inside the exclusive section (one
/// that registers would be lost when the storage is replaced). Registrations whose owner died
/// unnoticed are found outside it (`Engine.sweep`).
@usableFromInline
struct Channel {
  @usableFromInline private(set) var storage = EntryStorage(capacity: 4)
  /// Tombstones in `storage`.
  private var tombstones = 0
  /// When `append` asks for a sweep of registrations whose owner or sender died unnoticed.
  var sweep = SweepPolicy(minimum: 32)

  /// The entries that are not tombstones, in registration order (ended ones included).
  var entries: [Entry] {
    (0..<storage.count).compactMap { storage.entries[$0] }
  }

  /// Appends `entry`, whose registration has just been stored.
  ///
  /// - Returns: Whether a sweep is due: the engine runs it after the exclusive section (it loads
  ///   owners, which may run their `deinit`).
  mutating func append(_ entry: Entry, into released: inout ReleasedAfterUnlock) -> Bool {
    if !storage.isUnread || storage.count == storage.capacity {
      rebuild(minimumCapacity: storage.count - tombstones + 1, into: &released)
    }
    entry.registration.slot = storage.count
    (storage.entries + storage.count).initialize(to: entry)
    storage.count += 1
    return sweep.isDue(count: storage.count - tombstones)
  }

  /// Releases the entry of `registration`, which has ended, after the exclusive section, or leaves
  /// that to the last post reading the storage.
  mutating func remove(_ registration: Registration, into released: inout ReleasedAfterUnlock) {
    let slot = registration.slot
    guard slot >= 0, slot < storage.count, storage.entries[slot]?.registration === registration else { return }
    guard storage.isUnread || storage.deferEnds() else { return }
    let entries = storage.entries
    if let entry = entries[slot].take() { released.keep(entry) }
    registration.slot = -1
    tombstones += 1
    while storage.count > 0, entries[storage.count - 1] == nil {
      storage.count -= 1
      (entries + storage.count).deinitialize(count: 1)
      tombstones -= 1
    }
    if tombstones > 0 && tombstones * 2 >= storage.count {
      rebuild(minimumCapacity: storage.count - tombstones, into: &released)
    }
  }

  /// Applies the removals deferred while posts read the storage, if none does any more.
  mutating func reclaimIfUnread(into released: inout ReleasedAfterUnlock) {
    guard storage.isUnread else { return }
    storage.clearDeferredEnds()
    rebuild(minimumCapacity: storage.count - tombstones, into: &released)
  }

  /// Leaves only the entries of registrations that have not ended, in order, renumbering their
  /// slots, with room for at least `minimumCapacity`: in place when no post reads the storage and it
  /// is large enough; otherwise in a fresh storage, moving the entries when the old one is unread
  /// and copying them when a post reads it.
  private mutating func rebuild(minimumCapacity: Int, into released: inout ReleasedAfterUnlock) {
    let old = storage
    let unread = old.isUnread
    // Grows by half rather than doubling: one entry per registration, so the slack is paid per
    // registration (on average a quarter of an entry instead of half).
    let target =
      unread && minimumCapacity <= old.capacity
      ? old : EntryStorage(capacity: Swift.max(4, minimumCapacity + minimumCapacity / 2))
    TestHooks.count(.entriesVisited, old.count)
    var kept = 0
    for index in 0..<old.count {
      let source = old.entries + index
      if let entry = source.pointee, !entry.registration.lifecycle.hasEnded {
        entry.registration.slot = kept
        if !unread {
          (target.entries + kept).initialize(to: entry)  // posts still read the old one
        } else if target !== old || kept != index {
          (target.entries + kept).moveInitialize(from: source, count: 1)
        }
        kept += 1
      } else if unread, let dropped = source.move() {
        // Ended, but its removal has not reached the channel yet: it will find the slot gone.
        dropped.registration.slot = -1
        released.keep(dropped)
      }
    }
    if unread && target !== old { old.count = 0 }  // everything was moved out
    target.count = kept
    tombstones = 0
    if target !== old {
      storage = target
      // Posts still reading the old storage hold it; the last reference is dropped after the
      // exclusive section, by them or by `released`.
      released.keep(old)
    }
  }
}

#if PRESENTATION_INTERNAL_CHECKS
  internal import Synchronization

  extension Channel {
    /// Where the next check of a large channel starts reading: each check reads at most
    /// `entriesPerCheck` entries, so that checking after every change keeps changes amortised O(1).
    private static let nextWindow = Atomic<Int>(0)
    private static let entriesPerCheck = 256

    /// Stops the program when the storage of the channel of `key` breaks a rule the code above
    /// relies on. Called after every change of it, in builds with `PRESENTATION_INTERNAL_CHECKS`:
    /// the counts in full; the entries all at once up to `entriesPerCheck` of them, in a window that
    /// moves from check to check beyond.
    func _checkInvariants(key: ObjectIdentifier) {
      precondition(storage.count > 0, "Channel: an empty channel was kept")
      precondition(storage.count <= storage.capacity, "Channel: \(storage.count) entries in \(storage.capacity) slots")
      precondition(storage.entries[storage.count - 1] != nil, "Channel: a tombstone was left at the end")
      precondition(tombstones == 0 || tombstones * 2 < storage.count, "Channel: half the entries are tombstones")
      sweep._checkInvariants()
      let isWhole = storage.count <= Self.entriesPerCheck
      let start = isWhole ? 0 : Self.nextWindow.add(Self.entriesPerCheck, ordering: .relaxed).oldValue % storage.count
      var found = 0
      for index in (0..<min(storage.count, Self.entriesPerCheck)).map({ (start + $0) % storage.count }) {
        guard let entry = storage.entries[index] else {
          found += 1
          continue
        }
        let registration = entry.registration
        precondition(registration.slot == index, "Channel: the entry at \(index) has slot \(registration.slot)")
        precondition(registration.site.key == key, "Channel: an entry of \(registration.site.notificationType) here")
        precondition(registration.lifecycle.current != .pending, "Channel: a pending registration is stored")
      }
      precondition(!isWhole || found == tombstones, "Channel: \(found) tombstones, \(tombstones) counted")
    }
  }
#endif
