import PresentationModel

/// A mutable value that any thread may read and change, one access at a time.
///
/// Locked with the core's pthread-based `LockedState`, which ThreadSanitizer sees (it cannot see
/// `Synchronization.Mutex` on Linux).
package final class LockedBox<Value: Sendable>: Sendable {
  private let storage: LockedState<Value>

  package init(_ value: Value) {
    storage = LockedState(value)
  }

  /// A snapshot of the value.
  package var value: Value { storage.withLock { $0 } }

  /// Runs `body` with exclusive access to the value. Not reentrant. What `body` returns is handed
  /// back after the lock is released, so returning an object taken out of the value (say, a removed
  /// dictionary entry) and dropping it runs its `deinit` outside the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withLock(body)
  }
}
