import PresentationModel
import PresentationTestSupport

struct NodeDeleted: TypedNotification {
  let nodeID: Int
}

struct RelationshipsChanged: TypedNotification {}

struct Counted: TypedNotification {
  let value: Int
}

/// An owner that records into a shared log and can be released by the test.
final class Owner: Sendable {
  let name: String
  let log: LockedLog<String>

  init(_ name: String, log: LockedLog<String>) {
    self.name = name
    self.log = log
  }
}

/// A sender object; the center must never retain it.
final class Sender: Sendable {}
