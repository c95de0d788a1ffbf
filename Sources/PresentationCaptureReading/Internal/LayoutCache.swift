#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Android)
  internal import Android
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// What the walk has learned about a piece of type metadata, keyed by an address in a binary image
/// (a mangled name, a metadata record), which lives as long as the process: each is read once.
///
/// Read-mostly, so it sits behind a `pthread_rwlock_t`: walks on several threads look layouts up
/// at once, and only the first sight of a type writes. (A pthread lock, not `Synchronization`'s,
/// because ThreadSanitizer on Linux sees only `pthread_*` locks.) The value is computed outside the
/// lock, since computing it may ask the runtime to instantiate metadata, which takes the runtime's
/// own locks; two threads may compute the same value, and the second store is harmless.
final class LayoutCache<Value>: @unchecked Sendable {
  // @unchecked Sendable: `values` is only read under the read lock and only written under the
  // write lock; `Value`s are metatypes, integers, strings and plans made of them, immutable once stored.
  private var values: [UnsafeRawPointer: Value] = [:]
  private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

  init() {
    lock.initialize(to: pthread_rwlock_t())
    let result = pthread_rwlock_init(lock, nil)
    precondition(result == 0, "LayoutCache: pthread_rwlock_init failed (\(result))")
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  /// The value for `key`, computed by `compute` (outside the lock) the first time.
  func value(for key: UnsafeRawPointer, compute: (UnsafeRawPointer) -> Value) -> Value {
    pthread_rwlock_rdlock(lock)
    let known = values[key]
    pthread_rwlock_unlock(lock)
    if let known { return known }
    let value = compute(key)
    pthread_rwlock_wrlock(lock)
    values[key] = value
    pthread_rwlock_unlock(lock)
    return value
  }
}
