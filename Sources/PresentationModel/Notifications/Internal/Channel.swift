/// The observers of one notification type, in registration order. Only touched under the center's
/// lock.
///
/// Posting reads `storage` under the rules of ``EntryStorage``: a storage with readers is never
/// mutated; a change copies it first and the copy replaces it, so observers added during a delivery
/// are not part of it.
///
/// Ending a registration turns its entry into a tombstone (`nil`) in O(1) through the registration's
/// `slot`, releasing the entry, and with it the handler, after unlocking; while a post reads the
/// storage the tombstone is deferred until the last reader leaves. Tombstones at the end of the
/// storage are popped at once (so observing then cancelling, the churn of UI code, never compacts),
/// and the others are swept out once they make up half the storage, so ending a registration never
/// scans the others (amortised O(1)). A storage no post reads is compacted in place; only growth or
/// a reader forces a copy.
///
/// A channel is not generic (see ``Entry``): the post path, specialised for the notification type,
/// is the only code that knows it.
///
/// Under the lock a channel reads only a registration's own state (`hasEnded`), never its owner or
/// sender: a weak load makes a strong reference, and if the owner's last outside reference went
/// away meanwhile, releasing it would run the owner's `deinit` here, under the lock. Registrations
/// whose owner died unnoticed are found outside the lock (`ObservationRegistry.endDeadRegistrations`).
@usableFromInline
final class Channel {
  /// Entries visited by this channel's rebuilds so far (for `TypedNotificationCenter.storageWork`).
  // @exclusivity(unchecked), here and on every property below: a channel is only ever touched
  // under the center's lock, which already makes every access exclusive; the dynamic checks would
  // cost every post, registration and ending runtime calls.
  @exclusivity(unchecked) var entriesVisited = 0
  @usableFromInline @exclusivity(unchecked) private(set) var storage = EntryStorage(capacity: 4)
  /// Tombstoned or ended entries still in `storage`.
  @exclusivity(unchecked) private var endedCount = 0
  /// At this many entries not known to have ended, `append` asks for a sweep of entries whose owner
  /// or sender died unnoticed (nobody posted since). Set by ``sweepFinished(liveCount:)`` to twice
  /// what the sweep found live (at least 32), so sweeping is amortised O(1) and dead entries never
  /// outnumber twice the live ones plus 32. (Set from the count before the sweep, dead entries
  /// included, it doubled at every sweep: a channel whose owners all died kept nearly all of them.)
  @exclusivity(unchecked) private var sweepThreshold = 32

  var count: Int { storage.count }

  /// The registrations of every entry that is not a tombstone (ended ones included), in
  /// registration order.
  var registrations: [RegistrationCore] {
    (0..<storage.count).compactMap { storage.entries[$0]?.registration }
  }

  /// The registrations that have not ended, in registration order.
  var unendedRegistrations: [RegistrationCore] {
    (0..<storage.count).compactMap { index in
      guard let registration = storage.entries[index]?.registration, !registration.hasEnded else { return nil }
      return registration
    }
  }

  /// The registrations that have not ended and that `isIncluded` accepts, with their handlers.
  func appendRegistrationsWithHandlers(
    to copies: inout [RegisteredHandler], where isIncluded: @Sendable (RegistrationCore) -> Bool
  ) {
    for index in 0..<storage.count {
      guard let entry = storage.entries[index], !entry.registration.hasEnded, isIncluded(entry.registration) else {
        continue
      }
      copies.append(RegisteredHandler(registration: entry.registration, handler: entry.anyHandler))
    }
  }

  /// Appends an entry for `registration`.
  ///
  /// - Returns: `true` when the channel has grown enough since its last sweep that the caller should
  ///   look for registrations whose owner or sender died unnoticed (``TypedNotificationCenter``
  ///   does that after unlocking: the look loads owners, which may run their `deinit`).
  func append(_ entry: Entry, into released: inout ReleasedAfterUnlock) -> Bool {
    if !storage.isUnread || storage.count == storage.capacity {
      rebuild(minimumCapacity: storage.count - endedCount + 1, into: &released)
    }
    entry.registration.slot = storage.count
    (storage.entries + storage.count).initialize(to: entry)
    storage.count += 1
    guard storage.count - endedCount >= sweepThreshold else { return false }
    sweepThreshold = .max  // one sweep at a time; `sweepFinished(liveCount:)` sets the next
    return true
  }

  /// Sets the next sweep once the one `append` asked for has ended the dead registrations it found.
  func sweepFinished(liveCount: Int) {
    sweepThreshold = Swift.max(32, liveCount * 2)
  }

  /// Releases the entry of `registration`, which has just ended, after unlocking.
  ///
  /// - Returns: `false` if a post is reading the storage, so the tombstone was deferred to the last
  ///   reader.
  func tombstone(_ registration: RegistrationCore, into released: inout ReleasedAfterUnlock) -> Bool {
    let slot = registration.slot
    guard slot >= 0, slot < storage.count, storage.entries[slot]?.registration === registration else { return true }
    guard storage.isUnread || storage.deferEnds() else { return false }
    let entries = storage.entries
    if let entry = entries[slot].take() { released.keep(entry) }
    registration.slot = -1
    endedCount += 1
    // Pop trailing tombstones.
    while storage.count > 0, entries[storage.count - 1] == nil {
      storage.count -= 1
      (entries + storage.count).deinitialize(count: 1)
      endedCount -= 1
    }
    if endedCount > 0 && endedCount * 2 >= storage.count {
      rebuild(minimumCapacity: storage.count - endedCount, into: &released)
    }
    return true
  }

  /// Applies deferred endings if no post reads the storage; `false` if one still does.
  func reclaimIfUnread(into released: inout ReleasedAfterUnlock) -> Bool {
    guard storage.isUnread else { return false }
    storage.clearDeferredEnds()
    rebuild(minimumCapacity: storage.count - endedCount, into: &released)
    return true
  }

  /// Empties the channel (the center is going away) and returns the registrations it held.
  func removeAll(into released: inout ReleasedAfterUnlock) -> [RegistrationCore] {
    let registrations = self.registrations
    released.keep(storage)
    storage = EntryStorage(capacity: 0)
    endedCount = 0
    return registrations
  }

  /// Leaves only the live entries in `storage`, renumbering their slots, with room for at least
  /// `minimumCapacity`: in place when no post reads the storage and it is large enough; otherwise
  /// in a fresh storage, moving the entries when the old one is unread and copying them when a post
  /// is reading it.
  private func rebuild(minimumCapacity: Int, into released: inout ReleasedAfterUnlock) {
    let old = storage
    let unread = old.isUnread
    // Grows by half rather than doubling: one entry per registration, so the slack is paid per
    // registration (on average a quarter of an entry instead of half).
    let target =
      unread && minimumCapacity <= old.capacity
      ? old : EntryStorage(capacity: Swift.max(4, minimumCapacity + minimumCapacity / 2))
    entriesVisited += old.count
    var kept = 0
    for index in 0..<old.count {
      // Only the registration's own state is read here, never its owner or sender: loading one
      // makes a strong reference that may turn out to be the last, and its release would run the
      // owner's deinit under the lock (which may call back into the center).
      let source = old.entries + index
      if let entry = source.pointee, !entry.registration.hasEnded {
        entry.registration.slot = kept
        if !unread {
          (target.entries + kept).initialize(to: entry)  // posts still read the old one
        } else if target !== old || kept != index {
          (target.entries + kept).moveInitialize(from: source, count: 1)
        }
        kept += 1
      } else if unread, let dropped = source.move() {
        // Ended, but its ending has not reached the channel yet: it will find the slot gone.
        dropped.registration.slot = -1
        released.keep(dropped)
      }
    }
    if unread && target !== old { old.count = 0 }  // everything was moved out
    target.count = kept
    endedCount = 0
    if target !== old {
      storage = target
      // Posts still reading the old storage hold it; the last reference is dropped after unlocking,
      // by them or by `released`.
      released.keep(old)
    }
  }
}
