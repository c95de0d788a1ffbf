public import Synchronization  // public: the inlinable post path uses Atomic

/// A channel's entries: a fixed-capacity buffer that knows how many posts are reading it.
///
/// The rules that let posts read it without the lock:
/// - A post counts itself in (`readers`, under the center's lock), reads the first `count` entries
///   without the lock, then counts itself out (atomically, without the lock).
/// - The channel mutates a storage in place only under the lock and only when it reads no readers;
///   a storage being read is copied instead, and the copy replaces it.
/// - An ending that finds readers is deferred: it sets `hasDeferredEnds`, and the last reader to
///   leave takes the lock and applies it (see `TypedNotificationCenter.endPost`).
///
/// Every hand-over goes through the lock or through `readers`, an atomic that ThreadSanitizer sees
/// (it cannot see the runtime's reference counts, so a check of `isKnownUniquelyReferenced` alone
/// would look racy to it).
@usableFromInline
final class EntryStorage {
  /// The entries in registration order; `nil` is a tombstone.
  @usableFromInline let entries: UnsafeMutablePointer<Entry?>
  /// Initialised entries. Changed only under the center's lock while `readers` is 0.
  // @exclusivity(unchecked): every access is under the center's lock or by a post that counted
  // itself in (which no writer overlaps, see above); the dynamic check would cost the post path a
  // runtime call.
  @usableFromInline @exclusivity(unchecked) var count = 0
  let capacity: Int
  /// Posts reading this storage now: incremented under the lock, decremented without it.
  @usableFromInline let readers = Atomic<Int>(0)
  /// Set under the lock when an ending was deferred because posts were reading.
  @usableFromInline let hasDeferredEnds = Atomic<Bool>(false)

  init(capacity: Int) {
    self.capacity = capacity
    entries = .allocate(capacity: Swift.max(capacity, 1))
  }

  deinit {
    // Acquire every post's count-out, so that their reads of the entries happen before these
    // entries are destroyed (on whichever thread drops the last reference).
    _ = readers.load(ordering: .acquiring)
    entries.deinitialize(count: count)
    entries.deallocate()
  }

  /// Whether no post reads the storage, so the channel may change it in place; under the lock.
  var isUnread: Bool { readers.load(ordering: .acquiring) == 0 }

  /// Counts a post in and returns how many entries it may read; under the center's lock.
  @inlinable @inline(__always)
  func beginRead() -> Int {
    readers.wrappingAdd(1, ordering: .relaxed)  // ordered by the lock
    return count
  }

  /// Counts a post out, without the lock.
  ///
  /// - Returns: Whether this was the last reader and an ending was deferred meanwhile: the caller
  ///   must then apply it (`TypedNotificationCenter.reclaimDeferred`).
  ///
  /// Sequentially consistent, as is `deferEnds()`: a post counting out and a writer deferring an
  /// ending each write one atomic and then read the other's, so at least one of them sees the
  /// other and the ending is never left behind.
  @inlinable @inline(__always)
  func endRead() -> Bool {
    let left = readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
    return left == 0 && hasDeferredEnds.load(ordering: .sequentiallyConsistent)
  }

  /// Records an ending the channel could not apply because posts were reading; under the lock.
  ///
  /// - Returns: `true` if the readers left meanwhile: the caller applies the ending itself, and the
  ///   record is cleared again (a reader that saw it only takes the lock for nothing).
  func deferEnds() -> Bool {
    hasDeferredEnds.store(true, ordering: .sequentiallyConsistent)
    guard readers.load(ordering: .sequentiallyConsistent) == 0 else { return false }
    clearDeferredEnds()
    return true
  }

  /// Forgets deferred endings once the channel applied them; under the lock.
  func clearDeferredEnds() {
    hasDeferredEnds.store(false, ordering: .relaxed)  // ordered by the lock
  }
}
