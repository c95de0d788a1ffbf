public import Foundation  // public: the inlinable `withLock` calls pthread_mutex_*, which Foundation re-exports

/// A value guarded by a `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer cannot see `Mutex` on Linux
/// (its lock operations live in an uninstrumented library), so every state it guards would be
/// reported as racy and real races would drown. ThreadSanitizer intercepts `pthread_mutex_*`.
///
/// `withLock` is inlinable so that the center's inlinable post path is specialised in full where it
/// is called.
///
/// It is `Sendable` only when its state is (as swift-async-algorithms' `ManagedCriticalState`): a
/// value of the state may leave the lock through `withLock`'s result or the body's captures, which
/// the compiler then checks.
@usableFromInline
package struct LockedState<State> {
  @usableFromInline let storage: Storage

  package init(_ initial: State) {
    storage = Storage.make(initial)
  }

  /// Runs `body` with exclusive access to the state. Not reentrant: calling `withLock` on the same
  /// value from inside `body` deadlocks.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { state, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&state.pointee)
    }
  }

  /// Runs `body` holding the mutex, for a lock that guards state kept elsewhere (an engine's
  /// storage). The empty state is not touched: an access to it, at the buffer's header, would read
  /// as a race to ThreadSanitizer's access checks, which cannot tell an empty value from a word.
  @inlinable @inline(__always)
  package func whileLocked<Result>(_ body: () throws -> Result) rethrows -> Result where State == Void {
    try storage.withUnsafeMutablePointerToElements { mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body()
    }
  }

  @usableFromInline
  final class Storage: ManagedBuffer<State, pthread_mutex_t> {
    static func make(_ initial: State) -> Storage {
      let buffer = create(minimumCapacity: 1) { _ in initial }
      let storage = unsafeDowncast(buffer, to: Storage.self)
      storage.withUnsafeMutablePointerToElements { mutex in
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "LockedState: pthread_mutex_init failed (\(result))")
      }
      return storage
    }

    deinit {
      withUnsafeMutablePointerToElements { mutex in
        pthread_mutex_destroy(mutex)
        _ = mutex.deinitialize(count: 1)
      }
    }
  }
}

// @unchecked Sendable: `State` is only reachable through `withLock`, which holds the mutex for the
// whole access, so no two threads ever touch it at once; and `State` is `Sendable`, so what leaves
// the lock may cross threads.
extension LockedState: @unchecked Sendable where State: Sendable {}
