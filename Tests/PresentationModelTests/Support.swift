import PresentationModel

struct NodeDeleted: TypedNotification {
  let nodeID: Int
}

struct RelationshipsChanged: TypedNotification {}

struct Counted: TypedNotification {
  let value: Int
}

/// A thread-safe, Sendable log of what handlers saw, usable as an owner.
final class Recorder: Sendable {
  private let storage = LockedState<[String]>([])

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
