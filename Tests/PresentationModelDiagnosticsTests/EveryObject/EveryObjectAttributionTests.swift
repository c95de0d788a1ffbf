import Foundation
import PresentationModelDiagnostics
import PresentationTestSupport
import Testing

/// Which allocations a scope records: its task's and those of the tasks that inherit its
/// task-locals; never another scope's; never (a documented blind spot) detached tasks', Dispatch's
/// or threads'.
@Suite(.everyObjectRuns) struct EveryObjectAttributionTests {
  final class OwnTaskLeak: Sendable {}
  final class AsyncLetLeak: Sendable {}
  final class GroupChildLeak: Sendable {}
  final class UnstructuredTaskLeak: Sendable {}
  final class SynchronousLeak: Sendable {}
  final class Freed: Sendable {}
  final class GenericLeak<Element: Sendable>: Sendable {
    let element: Element
    init(_ element: Element) { self.element = element }
  }
  actor LeakedActor {}

  final class DetachedObject: Sendable {}
  final class DispatchObject: Sendable {}
  final class ThreadObject: Sendable {}
  final class Marker: Sendable {}

  @Test(
    "a leak made in the scope's task, an async let child, a task group child and Task {} is found; a freed object is not"
  )
  func inheritingTasksAreRecorded() async throws {
    let keeper = Keeper([])
    let scope = try EveryObjectScope()
    await scope.withTracking {
      keeper.keep(OwnTaskLeak())
      async let child: Void = keeper.keep(AsyncLetLeak())
      await child
      await withTaskGroup(of: Void.self) { group in
        group.addTask { keeper.keep(GroupChildLeak()) }
      }
      await Task { keeper.keep(UnstructuredTaskLeak()) }.value
      _ = made { Freed() }
    }
    let findings = scope.finish()
    #expect(
      findings.survivorNames == ["OwnTaskLeak", "AsyncLetLeak", "GroupChildLeak", "UnstructuredTaskLeak"])
    #expect(findings.survivors.map(\.allocationOrder) == [1, 2, 3, 4])
    #expect(findings.trackedCount == 5)
  }

  @Test("the synchronous form records on a thread with no task, and generic classes and actors count")
  func synchronousFormGenericsAndActors() async throws {
    let keeper = Keeper([])
    let scope = try EveryObjectScope()
    await onAThreadOfItsOwn {
      scope.withTracking {
        keeper.keep(SynchronousLeak())
        keeper.keep(GenericLeak(1))
        keeper.keep(GenericLeak("text"))
        keeper.keep(LeakedActor())
      }
    }
    let findings = scope.finish()
    #expect(findings.survivorNames == ["SynchronousLeak", "GenericLeak<Int>", "GenericLeak<String>", "LeakedActor"])
  }

  @Test("what Task.detached, Dispatch and Thread make inside the body is not recorded (missed, not blamed)")
  func nonInheritingWorkIsNotRecorded() async throws {
    let keeper = Keeper([])
    let scope = try EveryObjectScope()
    await scope.withTracking {
      await Task.detached { keeper.keep(DetachedObject()) }.value
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          keeper.keep(DispatchObject())
          continuation.resume()
        }
      }
      await withCheckedContinuation { continuation in
        Thread {
          keeper.keep(ThreadObject())
          continuation.resume()
        }.start()
      }
      keeper.keep(Marker())  // the scope was recording all along
    }
    let findings = scope.finish()
    #expect(findings.survivorNames == ["Marker"])
    #expect(keeper.value.count == 4)
  }

  @Test("a Task {} that outlives the body is recorded until finish, not after")
  func anOutlivingTaskIsRecordedUntilFinish() async throws {
    let keeper = Keeper([])
    let scope = try EveryObjectScope()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let (done, doneContinuation) = AsyncStream.makeStream(of: Void.self)
    let late = scope.withTracking {
      Task {
        for await step in stream {
          keeper.keep(step == 1 ? OwnTaskLeak() : Marker())
          doneContinuation.yield()
        }
      }
    }
    var iterator = done.makeAsyncIterator()
    continuation.yield(1)  // the body has returned; the task carries the scope's token
    await iterator.next()
    let findings = scope.finish()
    continuation.yield(2)  // after finish: not recorded by anything
    await iterator.next()
    continuation.finish()
    await late.value
    #expect(findings.survivorNames == ["OwnTaskLeak"])
    #expect(keeper.value.count == 2)
    #expect(scope.finish().trackedCount == 0, "the scope recorded an allocation made after its finish")
  }

  @Test("an inner scope records what its body makes; the outer scope does not see it")
  func nestedScopes() async throws {
    let keeper = Keeper([])
    let outer = try EveryObjectScope()
    let inner = try EveryObjectScope()
    await outer.withTracking {
      keeper.keep(OwnTaskLeak())
      await inner.withTracking {
        await Task.yield()
        keeper.keep(AsyncLetLeak())
      }
      keeper.keep(Marker())
    }
    #expect(inner.finish().survivorNames == ["AsyncLetLeak"])
    #expect(outer.finish().survivorNames == ["OwnTaskLeak", "Marker"])
  }

  final class Crowded: Sendable {}

  /// The first thread to record owns the scope and records without its lock; a second one revokes
  /// that (a full barrier on every thread, then a wait for the owner's record in progress), here
  /// while the owner records as fast as it can.
  @Test(
    "a second thread recording into a scope while its first thread records loses no record (300 rounds, 40 under a sanitizer)"
  )
  func aSecondThreadJoinsTheOwner() async throws {
    let count = repetitions(300, sanitized: 40)
    let outcome = await onAThreadOfItsOwn { () -> [(tracked: Int, survivors: [String])]? in
      var rounds: [(tracked: Int, survivors: [String])] = []
      for _ in 0..<count {
        let keeper = Keeper([])
        guard let scope = try? EveryObjectScope(EveryObjectOptions(modules: [testModule])) else { return nil }
        let owning = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        done.enter()
        Thread {
          scope.withTracking {
            keeper.keep(made { Crowded() })
            owning.signal()
            for _ in 0..<2_000 { _ = made { Crowded() } }
          }
          done.leave()
        }.start()
        owning.wait()
        done.enter()
        Thread {
          scope.withTracking {
            keeper.keep(made { Crowded() })
            for _ in 0..<100 { _ = made { Crowded() } }
          }
          done.leave()
        }.start()
        done.wait()
        let findings = scope.finish()
        rounds.append((findings.trackedCount, findings.survivorNames))
      }
      return rounds
    }
    let rounds = try #require(outcome, "a scope could not be opened")
    #expect(rounds.count == count)
    #expect(rounds.allSatisfy { $0.tracked == 2_102 }, "\(rounds.map(\.tracked))")
    #expect(rounds.allSatisfy { $0.survivors == ["Crowded", "Crowded"] })
  }

  final class LeftLeak: Sendable {}
  final class RightLeak: Sendable {}

  /// Interleaves a scope's work with another's: allocations on its task and its children, some
  /// kept (`leaks` of them), most freed, with suspension points between.
  private static func run<Leak: AnyObject & Sendable>(
    _ make: @escaping @Sendable () -> Leak, leaks: Int, keeper: Keeper
  ) async throws -> EveryObjectFindings {
    let scope = try EveryObjectScope()
    await scope.withTracking {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<8 {
          group.addTask {
            for step in 0..<10 {
              let object = made(make)
              if step == 0 && index < leaks { keeper.keep(object) }
              await Task.yield()
            }
          }
        }
      }
    }
    return scope.finish()
  }

  @Test("two scopes running in parallel never blame each other (200 rounds, 40 under a sanitizer)")
  func parallelScopesNeverBlameEachOther() async throws {
    for _ in 0..<repetitions(200, sanitized: 40) {
      let keeper = Keeper([])
      async let left = Self.run({ LeftLeak() }, leaks: 3, keeper: keeper)
      async let right = Self.run({ RightLeak() }, leaks: 5, keeper: keeper)
      let (leftFindings, rightFindings) = try await (left, right)
      #expect(leftFindings.survivorNames == Array(repeating: "LeftLeak", count: 3))
      #expect(rightFindings.survivorNames == Array(repeating: "RightLeak", count: 5))
      #expect(leftFindings.trackedCount == 80 && rightFindings.trackedCount == 80)
    }
  }
}
