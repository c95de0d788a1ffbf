import Foundation
import PresentationModel

struct NodeDeleted: TypedNotification {
  let nodeID: Int
}

struct RelationshipsChanged: TypedNotification {}

struct Counted: TypedNotification {
  let value: Int
}

/// A value guarded by an `NSLock`. (Not `Synchronization.Mutex`: ThreadSanitizer cannot see it
/// on Linux, so tests guarded by it would report false races under `--sanitize=thread`.)
final class Protected<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is only touched inside `withLock`, under `lock`.
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

/// A thread-safe, Sendable log of what handlers saw, usable as an owner.
final class Recorder: Sendable {
  private let storage = Protected<[String]>([])

  var entries: [String] { storage.withLock { $0 } }

  func record(_ entry: String) {
    storage.withLock { $0.append(entry) }
  }
}

/// An owner that records into a shared log and can be released by the test.
final class Owner: Sendable {
  let name: String
  let log: Recorder

  init(_ name: String, log: Recorder) {
    self.name = name
    self.log = log
  }
}

/// A sender object; the center must never retain it.
final class Sender: Sendable {}
