#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Android)
  internal import Android
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// State behind a `pthread_rwlock_t`: the reader's one lock for its caches. (A pthread lock, not
/// `Synchronization`'s, because ThreadSanitizer on Linux sees only `pthread_*` locks.)
///
/// `Sendable` only where its state is, so the compiler checks what a cache may hold.
final class ReadWriteLocked<State> {
  private var state: State
  private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

  init(_ state: State) {
    self.state = state
    lock.initialize(to: pthread_rwlock_t())
    let result = pthread_rwlock_init(lock, nil)
    precondition(result == 0, "ReadWriteLocked: pthread_rwlock_init failed (\(result))")
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  /// Reads the state under the read lock (several readers at once).
  func read<Result>(_ body: (borrowing State) -> Result) -> Result {
    pthread_rwlock_rdlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return body(state)
  }

  /// Changes the state under the write lock (alone).
  func write<Result>(_ body: (inout State) -> Result) -> Result {
    pthread_rwlock_wrlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return body(&state)
  }
}

// @unchecked Sendable: `state` is only read inside `read`, under the read lock, and only changed
// inside `write`, under the write lock, which excludes every reader and writer; the lock itself is
// only touched through pthread calls. `State: Sendable`, so what a caller takes out may cross threads.
extension ReadWriteLocked: @unchecked Sendable where State: Sendable {}

/// Values computed once per key and kept for the process's life, looked up by several threads at
/// once: read-mostly, so only a key's first sight takes the write lock. The value is computed
/// outside the lock (computing it may ask the runtime to instantiate metadata, which takes the
/// runtime's own locks, or read a file); two threads may compute the same value, and the second
/// store is harmless.
final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private let values = ReadWriteLocked<[Key: Value]>([:])

  /// The value for `key`, computed by `compute` (outside the lock) the first time.
  func value(for key: Key, compute: (Key) -> Value) -> Value {
    if let known = values.read({ $0[key] }) { return known }
    let value = compute(key)
    values.write { $0[key] = value }
    return value
  }
}

/// What the walk has learned about a piece of type metadata, keyed by an address in a binary image
/// (a mangled name, a metadata record), which lives as long as the process: each is read once.
final class LayoutCache<Value: Sendable>: Sendable {
  private let values = OnceCache<UInt, Value>()

  /// The value for `key`, computed by `compute` (outside the lock) the first time.
  func value(for key: UnsafeRawPointer, compute: (UnsafeRawPointer) -> Value) -> Value {
    values.value(for: UInt(bitPattern: key)) { compute(UnsafeRawPointer(bitPattern: $0)!) }
  }
}
