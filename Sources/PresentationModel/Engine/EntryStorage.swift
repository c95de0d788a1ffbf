public import Synchronization  // public: the inlinable post path uses Atomic

/// A channel's entries: a fixed-capacity buffer that knows how many posts are reading it.
///
/// The rules that let posts read it outside its engine's exclusive section (the lock, or a change on
/// the main actor):
/// - A post counts itself in (`readers`, inside the section), reads the first `count` entries
///   outside it, then counts itself out (atomically, outside it).
/// - The channel changes a storage in place only inside the section and only when it reads no
///   readers; a storage being read is copied instead, and the copy replaces it.
/// - A removal that finds readers is deferred: it sets `hasDeferredEnds`, and the last reader to
///   leave enters the section and applies it (`Engine.reclaimDeferred`).
///
/// Every hand-over goes through the section or through `readers`, an atomic that ThreadSanitizer
/// sees (it cannot see the runtime's reference counts, so a check of `isKnownUniquelyReferenced`
/// alone would look racy to it).
@usableFromInline
final class EntryStorage {
  /// The entries in registration order; `nil` is a tombstone.
  @usableFromInline let entries: UnsafeMutablePointer<Entry?>
  /// Initialised entries. Changed only inside the exclusive section while `readers` is 0.
  // @exclusivity(unchecked): every access is inside the exclusive section or by a post that counted
  // itself in (which no writer overlaps, see above); the dynamic check would cost the post path a
  // runtime call.
  @usableFromInline @exclusivity(unchecked) var count = 0
  let capacity: Int
  /// Posts reading this storage now: incremented inside the exclusive section, decremented outside.
  @usableFromInline let readers = Atomic<Int>(0)
  /// Set inside the exclusive section when a removal was deferred because posts were reading.
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

  /// Whether no post reads the storage, so the channel may change it in place; inside the section.
  var isUnread: Bool { readers.load(ordering: .acquiring) == 0 }

  /// Records a removal the channel could not apply because posts were reading; inside the section.
  ///
  /// - Returns: `true` if the readers left meanwhile: the caller applies the removal itself, and the
  ///   record is cleared again (a reader that saw it only enters the section for nothing).
  func deferEnds() -> Bool {
    hasDeferredEnds.store(true, ordering: .sequentiallyConsistent)
    guard readers.load(ordering: .sequentiallyConsistent) == 0 else { return false }
    clearDeferredEnds()
    return true
  }

  /// Forgets deferred removals once the channel applied them; inside the section.
  func clearDeferredEnds() {
    hasDeferredEnds.store(false, ordering: .relaxed)  // ordered by the section
  }
}
