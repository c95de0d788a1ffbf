import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

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

/// Captured by a handler and tracked by a `LeakTracker`: it deallocates when the handler is released.
final class HandlerCapture: Sendable {
  init(
    trackedBy tracker: LeakTracker, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: Int = #line, column: Int = #column
  ) {
    tracker.track(self, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// Expects every object `tracker` tracks to have deallocated already, here: one check, no waiting,
/// so it is as strict as `#expect(weakObject == nil)` at this line, and a failure names each
/// survivor, where it was tracked and what still holds it.
///
/// For a check in the middle of a test, or at its end while something the test still holds (the
/// center, a token) could be what keeps the object alive; the `.detectsLeaks` trait checks only
/// after the test has returned and everything it held is gone.
func expectReleased(
  _ tracker: LeakTracker, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  let report = tracker.checkForLeaks(timeout: .zero)
  if report.hasLeaks {
    Issue.record("\(comment.map { "\($0.rawValue): " } ?? "")\(report)", sourceLocation: sourceLocation)
  }
}

/// The same check from async code, which Swift picks there: it waits for another test's leak
/// report to let go of its copies of the handlers as the synchronous one cannot on the main queue
/// (a copy of a main-actor handler is released there; see `LeakTracker.checkForLeaks`), so a
/// `@MainActor` test's check is not made to fail by a report running in parallel.
func expectReleased(
  _ tracker: LeakTracker, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) async {
  let report = await tracker.checkForLeaks(timeout: .zero)
  if report.hasLeaks {
    Issue.record("\(comment.map { "\($0.rawValue): " } ?? "")\(report)", sourceLocation: sourceLocation)
  }
}
