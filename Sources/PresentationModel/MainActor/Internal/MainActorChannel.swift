/// One observer of a main-actor channel: the registration (shared with the token) and the handler
/// (owned by the channel alone; `nil` once the registration ended and the handler was released).
@usableFromInline
struct MainActorEntry<N: MainActorNotification> {
  /// A `Registration<N>`, or an `OwnedRegistration<N>` when the flags contain `hasOwner`.
  @usableFromInline let registration: RegistrationCore
  @usableFromInline var handler: MainActorHandler<N>?
}

/// The type-erased face of a main-actor channel, for the center's non-generic bookkeeping.
///
/// Not `Sendable`: a channel is only touched on the main actor by its center, or, once, by the
/// center's deinit, which holds the last reference to it.
@usableFromInline
class AnyMainActorChannel {
  var registrations: [RegistrationCore] { fatalError("abstract") }
  var isEmpty: Bool { fatalError("abstract") }
  /// The registrations that have not ended, with their handlers, in registration order.
  var registrationsWithHandlers: [RegisteredHandler] { fatalError("abstract") }
  /// Whether a post is reading the entries now.
  var isRead: Bool { fatalError("abstract") }
  /// Releases the handler of `registration`, which has ended; deferred while posts read.
  func tombstone(_ registration: RegistrationCore, into released: inout ReleasedAfterUnlock) {
    fatalError("abstract")
  }
}

/// The observers of one main-actor notification type, in registration order.
///
/// Only touched on the main actor, so it needs no lock. A post copies `entries` (a retain: arrays
/// are copy-on-write) and counts itself in `readers`; while a post reads, ended registrations keep
/// their entry (their ended state stops any call) and are swept out when the last post leaves.
/// Without readers, ending a registration releases its handler at once through its `slot`, and the
/// entries are compacted once half of them are ended: ending one never scans the others
/// (amortised O(1)), as in ``TypedNotificationCenter``.
///
/// Nothing that may release user code (a handler, an entry) is dropped while `entries` is being
/// mutated: it is moved into a ``ReleasedAfterUnlock``, which the caller drops after every mutation
/// is over, so a deinitialiser that calls back into the center never meets an access in progress.
/// And no owner or sender is loaded while `entries` is being rebuilt (the rule of the typed
/// center's channel): registrations whose owner died unnoticed are ended by the center's sweep,
/// after the rebuild (`ObservationRegistry.endDeadRegistrations`).
@usableFromInline
final class MainActorChannel<N: MainActorNotification>: AnyMainActorChannel {
  // @exclusivity(unchecked) on the three below: they are only touched on the main actor, every
  // access is momentary and none spans user code (a post iterates a copy of `entries`; what may
  // release user code is dropped after the access ended); the dynamic check would cost every post
  // three runtime calls.
  @usableFromInline @exclusivity(unchecked) var entries: ContiguousArray<MainActorEntry<N>> = []
  /// Posts iterating a copy of `entries` now.
  @usableFromInline @exclusivity(unchecked) var readers = 0
  /// Entries whose registration ended while posts were reading; swept when the last one leaves.
  @usableFromInline @exclusivity(unchecked) var needsSweep = false
  /// Ended entries still in `entries`.
  private var endedCount = 0
  /// At this many entries not known to have ended, `append` asks for a sweep of entries whose owner
  /// or sender died unnoticed (nobody posted since); `.max` while the sweep runs, then twice what it
  /// found live (at least 32, `sweepFinished(liveCount:)`), so dead entries never outnumber twice
  /// the live ones plus 32.
  private var sweepThreshold = 32

  override var registrations: [RegistrationCore] { entries.map(\.registration) }

  override var isEmpty: Bool { entries.isEmpty }

  override var registrationsWithHandlers: [RegisteredHandler] {
    entries.compactMap { entry in
      guard let handler = entry.handler, !entry.registration.hasEnded else { return nil }
      return RegisteredHandler(registration: entry.registration, handler: MainActorReleased(handler))
    }
  }

  /// Appends an entry for `registration`.
  ///
  /// - Returns: `true` when the channel has grown enough since its last sweep that the center
  ///   should look for registrations whose owner or sender died unnoticed (after this mutation:
  ///   the look loads owners, which may run their `deinit`).
  func append(_ registration: RegistrationCore, handler: MainActorHandler<N>) -> Bool {
    registration.slot = entries.count
    entries.append(MainActorEntry(registration: registration, handler: handler))
    guard entries.count - endedCount >= sweepThreshold else { return false }
    sweepThreshold = .max  // one sweep at a time
    return true
  }

  /// Sets the next sweep once the one `append` asked for has ended the dead registrations it found
  /// (their tombstones compact the entries, or the last reader does).
  func sweepFinished(liveCount: Int) {
    sweepThreshold = Swift.max(32, liveCount * 2)
  }

  override var isRead: Bool { readers > 0 }

  override func tombstone(_ registration: RegistrationCore, into released: inout ReleasedAfterUnlock) {
    let slot = registration.slot
    guard slot >= 0, slot < entries.count, entries[slot].registration === registration else { return }
    guard readers == 0 else {
      needsSweep = true
      return
    }
    guard let handler = entries[slot].handler else { return }
    entries[slot].handler = nil  // `handler` still holds it: nothing is released in this access
    released.keep(value: handler)
    registration.slot = -1
    endedCount += 1
    if endedCount * 2 >= entries.count { compact(into: &released) }
  }

  /// Called by a post after it counted itself out: sweeps what ended while posts were reading.
  @usableFromInline
  func sweepAfterReaders() {
    var released = ReleasedAfterUnlock()
    needsSweep = false
    compact(into: &released)
    released.drop()  // after the mutation is over, on the main actor
  }

  /// Keeps only the entries whose registration has not ended, in order, renumbering their slots.
  ///
  /// Reads only each registration's own state (`hasEnded`), never its owner or sender: loading one
  /// makes a strong reference that may turn out to be the last, and its release would run the
  /// owner's `deinit` in the middle of this rebuild (a `deinit` that registers would then be lost
  /// when `entries` is replaced).
  private func compact(into released: inout ReleasedAfterUnlock) {
    var kept = ContiguousArray<MainActorEntry<N>>()
    kept.reserveCapacity(entries.count - endedCount)
    for entry in entries where entry.handler != nil && !entry.registration.hasEnded {
      entry.registration.slot = kept.count
      kept.append(entry)
    }
    let old = entries
    entries = kept
    released.keep(value: old)  // the dropped entries' handlers are released with it, by the caller
    endedCount = 0
  }
}
