import PresentationCaptureReading
import Synchronization
import Testing

extension HeapScanSuites {
  /// A task's task-local values as holders (issue 26, item 3): the value lies in a `TaskLocal` item
  /// the task's allocator made, in a slab the scan proves the task's (its `firstSlab`, then each
  /// slab's `next`), on the task's own chain of items. A value the task no longer binds is not one.
  @Suite struct HeapScanTaskLocalTests {
    final class Survivor: Sendable {}

    final class HandOver: Sendable {
      let survivor: Mutex<Survivor?>
      init(_ survivor: Survivor) { self.survivor = Mutex(survivor) }
      func take() -> Survivor { survivor.withLock { $0.take()! } }
    }

    final class Flag: Sendable {
      let value = Mutex(false)
    }

    enum Locals {
      @TaskLocal static var current: Survivor?
    }

    /// Sleeps until cancelled.
    static func sleepUntilCancelled() async {
      while !Task.isCancelled { try? await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }

    /// Descends `depth` async frames (each keeps a few words across its await, so the task's
    /// allocator moves past its first slab), then binds the survivor and sleeps.
    static func descend(_ depth: Int, binding survivor: Survivor) async {
      guard depth > 0 else {
        await Locals.$current.withValue(survivor) { await sleepUntilCancelled() }
        return
      }
      let padding = (depth, depth &* 3, depth &* 5, depth &* 7, depth &* 11, depth &* 13)
      await descend(depth - 1, binding: survivor)
      #expect(padding.0 == depth)
    }

    /// Lets a task just started run to its first suspension.
    static func waitUntilSuspended() async {
      for _ in 0..<20 { await Task.yield() }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }

    static let prefix = "HeapScanSuites.HeapScanTaskLocalTests."

    /// Once the task sleeps, the scan names it, by its operation, as holding `survivor` in its
    /// task-local `Locals.$current`.
    static func expectNamed(_ survivor: Survivor, operation: String) async throws {
      await waitUntilSuspended()
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      let line = "a suspended Task: \(operation), awaiting …, through its task-local \(prefix)Locals.$current"
      #expect(
        report.holders.contains {
          $0.hasPrefix("a suspended Task: \(operation), awaiting ")
            && $0.hasSuffix(", through its task-local \(prefix)Locals.$current")
        }, "expected \(line): \(report)")
    }

    @Test func namesTheTaskWhoseCopiedTaskLocalHoldsIt() async throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      let task = Locals.$current.withValue(survivor) { Task { await Self.sleepUntilCancelled() } }
      defer { task.cancel() }
      try await Self.expectNamed(
        survivor, operation: "closure #1 in closure #1 in " + Self.prefix + "namesTheTaskWhoseCopiedTaskLocalHoldsIt()")
    }

    /// The item lies in a slab after the task's first: the scan climbs the slabs' `next` links.
    @Test func namesTheTaskWhoseTaskLocalLiesInALaterSlab() async throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      // Handed over through a box the task empties, so that its operation does not capture it.
      let handOver = HandOver(survivor)
      let task = Task { await Self.descend(1, binding: handOver.take()) }
      defer { task.cancel() }
      try await Self.expectNamed(
        survivor, operation: "closure #1 in " + Self.prefix + "namesTheTaskWhoseTaskLocalLiesInALaterSlab()")
    }

    /// Descends `depth` async frames, binds the survivor for a moment, and returns: the item is
    /// popped, and the slab it lay in (past the ones the task then uses) keeps its bytes.
    static func bindBriefly(_ depth: Int, _ survivor: Survivor, bound: Flag) async {
      guard depth > 0 else {
        Locals.$current.withValue(survivor) { bound.value.withLock { $0 = true } }
        return
      }
      let padding = (depth, depth &* 3, depth &* 5, depth &* 7, depth &* 11, depth &* 13)
      await bindBriefly(depth - 1, survivor, bound: bound)
      #expect(padding.0 == depth)
    }

    /// Once `withValue` returns, its item is popped: the slab keeps the item's bytes, address
    /// included, but past its used bytes and off the task's chain, so they name nothing.
    @Test func namesNoTaskLocalTheTaskNoLongerBinds() async throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      let handOver = HandOver(survivor)
      let bound = Flag()
      let task = Task {
        await Self.bindBriefly(1, handOver.take(), bound: bound)
        await Self.sleepUntilCancelled()
      }
      defer { task.cancel() }
      await Self.waitUntilSuspended()
      #expect(bound.value.withLock { $0 })
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(!report.holders.contains { $0.contains("task-local") }, "\(report)")
      #expect(report.rejectedHits > 0, "the popped item's word is there and was rejected: \(report)")
    }
  }
}

extension HeapScanSuites {
  /// A word in a suspended task's async frame as a holder (issue 26, item 3): believed only inside
  /// a live allocation of the task's allocator that is a context on its resume chain, and named
  /// only when nothing names the object precisely (the slot may be dead at the suspension point).
  @Suite struct HeapScanTaskFrameTests {
    typealias Locals = HeapScanTaskLocalTests
    final class Survivor: Sendable {}

    final class HandOver: Sendable {
      let survivor: Mutex<Survivor?>
      init(_ survivor: Survivor) { self.survivor = Mutex(survivor) }
      func take() -> Survivor { survivor.withLock { $0.take()! } }
    }

    /// Another object's property: a precise holder.
    final class Keeper {
      var survivor: Survivor?
      init(_ survivor: Survivor) { self.survivor = survivor }
    }

    static let prefix = "HeapScanSuites.HeapScanTaskFrameTests."

    /// Takes the survivor out of its box, keeps it in a local across its wait (so in its async
    /// frame) and uses it after.
    static func holdWhileWaiting(_ handOver: HandOver) async {
      let survivor = handOver.take()
      await Locals.sleepUntilCancelled()
      withExtendedLifetime(survivor) {}
    }

    /// The same, through a value of a generic type: the function keeps it in memory of its own
    /// size, which it asks the task's allocator for apart from its context.
    static func holdWhileWaiting<Value>(_ take: () -> Value) async {
      let value = take()
      await Locals.sleepUntilCancelled()
      withExtendedLifetime(value) {}
    }

    static func isFrameLine(_ line: String, operation: String) -> Bool {
      line.hasPrefix("a suspended Task: \(operation), awaiting ")
        && line.hasSuffix(
          ", through a word in its async frame of \(prefix)holdWhileWaiting(_:)"
            + " (the runtime does not say whether that slot is live)")
    }

    @Test func namesTheSuspendedTaskWhoseAsyncFrameHoldsIt() async throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      // Handed over through a box the task empties, so that its operation does not capture it.
      let handOver = HandOver(survivor)
      let task = Task { await Self.holdWhileWaiting(handOver) }
      defer { task.cancel() }
      await Locals.waitUntilSuspended()
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      let operation = "closure #1 in \(Self.prefix)namesTheSuspendedTaskWhoseAsyncFrameHoldsIt()"
      #expect(report.holders.contains { Self.isFrameLine($0, operation: operation) }, "\(report)")
    }

    /// The same frame word, while another object's property also holds the survivor: only the
    /// property is named; once it lets go, the frame word is.
    @Test func namesNoFrameWordWhileAPreciseHolderNamesIt() async throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      let handOver = HandOver(survivor)
      let keeper = Keeper(survivor)
      let task = Task { await Self.holdWhileWaiting(handOver) }
      defer { task.cancel() }
      await Locals.waitUntilSuspended()
      let kept = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(kept.holders.contains { $0.contains("Keeper.survivor") }, "\(kept)")
      #expect(!kept.holders.contains { $0.contains("async frame") }, "\(kept)")
      keeper.survivor = nil
      let operation = "closure #1 in \(Self.prefix)namesNoFrameWordWhileAPreciseHolderNamesIt()"
      let framed = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(framed.holders.contains { Self.isFrameLine($0, operation: operation) }, "\(framed)")
      withExtendedLifetime(keeper) {}
    }

    /// A word outside the task's contexts (a generic value's own allocation, after the frame's
    /// context) is not a frame word: pinned, as what the scan does not name.
    @Test func namesNoWordOutsideTheTasksContexts() async throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      let handOver = HandOver(survivor)
      let task = Task { await Self.holdWhileWaiting { handOver.take() } }
      defer { task.cancel() }
      await Locals.waitUntilSuspended()
      #expect(handOver.survivor.withLock { $0 == nil }, "the task took it")
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.holders.isEmpty, "\(report)")
      #expect(report.rejectedHits > 0, "the word is there and was rejected: \(report)")
    }
  }
}
