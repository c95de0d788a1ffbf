import Dispatch
import Foundation
import PresentationModelTesting
import Synchronization
import Testing

/// The documented blind spots of `.everyObject`: an object made in a detached task, a Dispatch
/// block or a `Thread` is not the test's (they do not inherit its task-local values), so its leak
/// is missed, and never blamed on another test. Each test leaks such an object into a global on
/// purpose inside the trait's scope, expects no issue, and shows that the object did outlive the
/// check.
@Suite(.everyObjectRuns) struct BlindSpotCases {
  typealias Leak = Corpus.Leak

  final class Upload {
    let id: Int
    init(id: Int) { self.id = id }
  }

  /// What each test leaks on purpose, one global per test.
  enum Kept {
    static let fromDetachedTask = Mutex<Upload?>(nil)
    static let fromDispatch = Mutex<Upload?>(nil)
    static let fromThread = Mutex<Upload?>(nil)
  }

  @Test func anObjectMadeInADetachedTaskIsMissed() async throws {
    try await Corpus.expectMissed {
      await Task.detached { Kept.fromDetachedTask.withLock { $0 = Upload(id: 1) } }.value
      let upload = try #require(Kept.fromDetachedTask.withLock { $0 })
      return Leak(upload) { Kept.fromDetachedTask.withLock { $0 = nil } }
    }
  }

  @Test func anObjectMadeInADispatchBlockIsMissed() async throws {
    try await Corpus.expectMissed {
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          Kept.fromDispatch.withLock { $0 = Upload(id: 2) }
          continuation.resume()
        }
      }
      let upload = try #require(Kept.fromDispatch.withLock { $0 })
      return Leak(upload) { Kept.fromDispatch.withLock { $0 = nil } }
    }
  }

  @Test func anObjectMadeOnAThreadIsMissed() async throws {
    try await Corpus.expectMissed {
      await withCheckedContinuation { continuation in
        Thread {
          Kept.fromThread.withLock { $0 = Upload(id: 3) }
          continuation.resume()
        }
        .start()
      }
      let upload = try #require(Kept.fromThread.withLock { $0 })
      return Leak(upload) { Kept.fromThread.withLock { $0 = nil } }
    }
  }
}
