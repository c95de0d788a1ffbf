/// The registrations for one notification type, in registration order.
///
/// Only ever touched under the center's lock. Posting copies `entries` (a retain of the
/// buffer, no allocation) and iterates the copy outside the lock, so registrations added during
/// a delivery are not part of it and nothing is mutated under a running delivery.
///
/// Ended registrations are removed lazily: ending one only counts it, and once ended entries make
/// up half of the array a single pass removes them all. Each end is therefore amortised O(1) and
/// never scans the other registrations.
class AnyChannel {
  /// How many entries have ended since the last compaction (an upper bound; see `compact`).
  var endedCount = 0
  /// When `entries.count` reaches this, the next registration also sweeps out entries whose owner
  /// or sender died unnoticed (nobody posted since).
  var sweepThreshold = 32

  var count: Int { fatalError("abstract") }
  var registrationsInOrder: [RegistrationCore] { fatalError("abstract") }
  /// Drops every entry that is not live; returns those that were live-flagged but found dead, so
  /// the caller can finish them outside the lock.
  func compact() -> [RegistrationCore] { fatalError("abstract") }
  func removeAll() -> [RegistrationCore] { fatalError("abstract") }
}

final class Channel<N: TypedNotification>: AnyChannel {
  var entries: ContiguousArray<Registration<N>> = []

  override var count: Int { entries.count }

  override var registrationsInOrder: [RegistrationCore] { Array(entries) }

  override func compact() -> [RegistrationCore] {
    var foundDead: [RegistrationCore] = []
    entries.removeAll { registration in
      if registration.hasEnded { return true }
      if registration.isLive { return false }
      // Owner or sender died and nobody has noticed yet: end it here.
      if registration.markEnded() { foundDead.append(registration) }
      return true
    }
    endedCount = 0
    sweepThreshold = Swift.max(32, entries.count * 2)
    return foundDead
  }

  override func removeAll() -> [RegistrationCore] {
    defer { entries = [] }
    return Array(entries)
  }
}
