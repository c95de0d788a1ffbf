import Foundation

/// A value behind a lock that ThreadSanitizer understands.
///
/// `Synchronization.Mutex` would otherwise do, but on Linux its contended path runs inside the
/// uninstrumented Synchronization library, so ThreadSanitizer misses the ordering it provides and
/// reports races that are not there. `NSLock` is a pthread mutex, which ThreadSanitizer intercepts.
//
// @unchecked Sendable: `value` is only read or written while `lock` is held, and `Value` itself is
// Sendable.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
