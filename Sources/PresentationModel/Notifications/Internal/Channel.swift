/// What a channel operation removed: values whose release may run user code (handler captures,
/// deinitialisers), to be dropped only after the center's lock is released, and registrations
/// found dead that must be told so (`didEnd()`) outside the lock.
//
// @unchecked Sendable: a `Reclaimed` is built under the lock and handed, whole, to the thread that
// took the lock, which only drops it; no two threads ever access one.
struct Reclaimed: @unchecked Sendable {
  var garbage: [Any] = []
  var ended: [RegistrationCore] = []

  /// Finishes what was reclaimed; call after the lock is released.
  consuming func finish() {
    for registration in ended { registration.didEnd() }
    garbage = []
  }
}

/// The type-erased face of a channel, for the center's non-generic bookkeeping.
class AnyChannel {
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
/// Posting retains `storage` under the lock and iterates it outside, so a storage that is not
/// uniquely referenced is being read by a post and is never mutated: a change copies it first
/// (copy-on-write by hand, with `isKnownUniquelyReferenced`). Observers added during a delivery are
/// therefore not part of it.
///
/// Ending a registration turns its entry into a tombstone in O(1) through the registration's
/// `slot`, releasing the handler at once; while a post is iterating the storage the tombstone is
/// deferred until the post ends. Tombstones are swept out once they make up half the storage, so
/// ending a registration never scans the others (amortised O(1)).
final class Channel<N: TypedNotification>: AnyChannel {
  private(set) var storage = EntryStorage<N>.make(capacity: 4)
  /// Tombstoned or ended entries still in `storage`.
  private var endedCount = 0
  /// At this many entries, the next registration also sweeps entries whose owner or sender died
  /// unnoticed (nobody posted since).
  private var sweepThreshold = 32

  override var count: Int { storage.header.count }

  override var registrations: [RegistrationCore] {
    storage.withUnsafeMutablePointers { header, entries in
      (0..<header.pointee.count).map { entries[$0].registration }
    }
  }

  func append(_ registration: Registration<N>, handler: Handler<N>, into reclaimed: inout Reclaimed) {
    let header = storage.header
    if !isKnownUniquelyReferenced(&storage) || header.count == header.capacity || header.count >= sweepThreshold {
      rebuild(minimumCapacity: header.count - endedCount + 1, into: &reclaimed)
    }
    storage.withUnsafeMutablePointers { header, entries in
      registration.slot = header.pointee.count
      (entries + header.pointee.count).initialize(to: Entry(registration: registration, handler: handler))
      header.pointee.count += 1
    }
  }

  /// Releases the handler of `registration`, which has just ended.
  ///
  /// - Returns: `false` if a post is using the storage, so the tombstone was deferred.
  func tombstone(_ registration: Registration<N>, into reclaimed: inout Reclaimed) -> Bool {
    let slot = registration.slot
    guard slot >= 0, slot < storage.header.count else { return true }
    guard isKnownUniquelyReferenced(&storage) else { return false }
    storage.withUnsafeMutablePointerToElements { entries in
      guard entries[slot].registration === registration, let handler = entries[slot].handler else { return }
      entries[slot].handler = nil
      reclaimed.garbage.append(handler)
      endedCount += 1
    }
    if endedCount * 2 >= storage.header.count {
      rebuild(minimumCapacity: storage.header.count - endedCount, into: &reclaimed)
    }
    return true
  }

  override func reclaimIfUnused(into reclaimed: inout Reclaimed) -> Bool {
    guard isKnownUniquelyReferenced(&storage) else { return false }
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
    let unused = isKnownUniquelyReferenced(&storage)
    let old = storage
    let fresh = EntryStorage<N>.make(capacity: Swift.max(4, minimumCapacity * 2))
    old.withUnsafeMutablePointers { oldHeader, oldEntries in
      fresh.withUnsafeMutablePointers { header, entries in
        for index in 0..<oldHeader.pointee.count {
          let registration = oldEntries[index].registration
          var keep = oldEntries[index].handler != nil && !registration.hasEnded
          if keep && !registration.isLive {
            // Its owner or sender died and nobody noticed yet: end it here.
            keep = false
            if registration.markEnded() { reclaimed.ended.append(registration) }
          }
          if keep {
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
    sweepThreshold = Swift.max(32, storage.header.count * 2)
    reclaimed.garbage.append(old)  // a post may still hold it; never free it under the lock
  }
}

/// The header of an ``EntryStorage``.
struct EntryStorageHeader {
  var count: Int
  let capacity: Int
}

/// A growable, manually copy-on-write array of entries, so that the channel can tell with
/// `isKnownUniquelyReferenced` whether a post is reading it.
///
/// A storage is mutated only under the center's lock and only while uniquely referenced; a storage
/// shared with a post is read-only until that post releases it.
final class EntryStorage<N: TypedNotification>: ManagedBuffer<EntryStorageHeader, Entry<N>> {
  static func make(capacity: Int) -> EntryStorage<N> {
    let buffer = create(minimumCapacity: capacity) { _ in EntryStorageHeader(count: 0, capacity: capacity) }
    return unsafeDowncast(buffer, to: EntryStorage<N>.self)
  }

  deinit {
    _ = withUnsafeMutablePointers { header, entries in
      entries.deinitialize(count: header.pointee.count)
    }
  }
}
