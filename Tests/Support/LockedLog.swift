import PresentationModel

/// An append-only log that any thread (or a `deinit`) may record into; read it once the writers are
/// done, or at any time for a snapshot.
///
/// Locked with the core's pthread-based `LockedState`, which ThreadSanitizer sees (it cannot see
/// `Synchronization.Mutex` on Linux).
package final class LockedLog<Entry: Sendable>: Sendable {
  private let storage = LockedState<[Entry]>([])

  package init() {}

  /// Everything recorded so far, in order.
  package var entries: [Entry] { storage.withLock { $0 } }

  package func record(_ entry: Entry) {
    storage.withLock { $0.append(entry) }
  }

  package func removeAll() {
    storage.withLock { $0.removeAll() }
  }
}
