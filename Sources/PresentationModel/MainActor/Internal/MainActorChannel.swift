/// How a main-actor entry calls its observer.
@usableFromInline
enum MainActorHandler<N: MainActorNotification> {
  /// Called with the notification.
  case plain(@MainActor (N) -> Void)
  /// Called with the (weakly held, then strongly loaded) owner and the notification.
  case owned(@MainActor (AnyObject, N) -> Void)
}

extension MainActorHandler {
  /// An owner-bound handler that receives its owner as the `Owner` it was registered with.
  static func owned<Owner: AnyObject>(by _: Owner.Type, _ handler: @escaping @MainActor (Owner, N) -> Void) -> Self {
    // unsafeDowncast: the center only ever passes the owner it was given, loaded from its weak
    // reference, so it is an `Owner`.
    .owned { owner, notification in handler(unsafeDowncast(owner, to: Owner.self), notification) }
  }
}

/// One observer of a main-actor channel: the registration (shared with the token) and the handler
/// (owned by the channel alone; `nil` once the registration ended and the handler was released).
@usableFromInline
struct MainActorEntry<N: MainActorNotification> {
  @usableFromInline let registration: MainActorRegistration<N>
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
  /// Ends every registration (the center is going away) and hands back what must be released.
  func endAll(into garbage: inout [Any]) { fatalError("abstract") }
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
/// mutated: it is moved into `garbage`, which the caller drops after every mutation is over, so a
/// deinitialiser that calls back into the center never meets an access in progress.
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
  /// At this many entries, the next registration also sweeps entries whose owner or sender died
  /// unnoticed (nobody posted since).
  private var sweepThreshold = 32

  override var registrations: [RegistrationCore] { entries.map(\.registration) }

  override var isEmpty: Bool { entries.isEmpty }

  func append(_ registration: MainActorRegistration<N>, handler: MainActorHandler<N>, into garbage: inout [Any]) {
    if readers == 0 && entries.count >= sweepThreshold {
      compact(into: &garbage)
      sweepThreshold = Swift.max(32, entries.count * 2)
    }
    registration.slot = entries.count
    entries.append(MainActorEntry(registration: registration, handler: handler))
  }

  /// Releases the handler of `registration`, which has ended; deferred while posts read.
  func tombstone(_ registration: MainActorRegistration<N>, into garbage: inout [Any]) {
    let slot = registration.slot
    guard slot >= 0, slot < entries.count, entries[slot].registration === registration else { return }
    guard readers == 0 else {
      needsSweep = true
      return
    }
    guard let handler = entries[slot].handler else { return }
    entries[slot].handler = nil  // `handler` still holds it: nothing is released in this access
    garbage.append(handler)
    endedCount += 1
    if endedCount * 2 >= entries.count { compact(into: &garbage) }
  }

  /// Called by a post after it counted itself out: sweeps what ended while posts were reading.
  @usableFromInline
  func sweepAfterReaders() {
    var garbage: [Any] = []
    needsSweep = false
    compact(into: &garbage)
    garbage = []  // released after the mutation is over
  }

  /// Keeps only the live entries, in order, renumbering their slots; registrations whose owner or
  /// sender died unnoticed are ended here.
  private func compact(into garbage: inout [Any]) {
    var kept = ContiguousArray<MainActorEntry<N>>()
    kept.reserveCapacity(entries.count - endedCount)
    for entry in entries {
      let registration = entry.registration
      var keep = entry.handler != nil && !registration.hasEnded
      if keep && !registration.isLive {
        keep = false
        _ = registration.beginEnding()  // its didEnd would only detach it, which this does
      }
      if keep {
        registration.slot = kept.count
        kept.append(entry)
      }
    }
    let old = entries
    entries = kept
    garbage.append(old)  // the dropped entries' handlers are released with it, by the caller
    endedCount = 0
  }

  override func endAll(into garbage: inout [Any]) {
    for entry in entries { _ = entry.registration.beginEnding() }
    garbage.append(entries)
    entries = []
    endedCount = 0
  }
}
