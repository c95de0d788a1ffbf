public import PresentationModel

/// A `StepScheduler` whose time moves only when a test says so, for deterministic fades.
///
/// Actions run inside ``advance(by:)`` and ``runUntilIdle()``, in deadline order; equal deadlines
/// run in the order they were scheduled.
///
/// ```swift
/// import PresentationModel
/// import PresentationModelTesting
///
/// @MainActor
/// final class Dot: Fadable {
///   var opacity = 1.0
///   func dispose() {}
/// }
///
/// @MainActor
/// func fadeHalfway() {
///   let scheduler = ManualStepScheduler()
///   let pendingDelete = PendingDelete(duration: .milliseconds(100), steps: 4, scheduler: scheduler)
///   let dot = Dot()
///   pendingDelete.fadeOutAndDispose(dot)
///   scheduler.advance(by: .milliseconds(50))
///   assert(dot.opacity == 0.5)
///   scheduler.runUntilIdle()
///   assert(dot.opacity == 0 && pendingDelete.pendingCount == 0)
/// }
/// ```
///
/// > Note: An action scheduled while time advances, with a deadline inside the advanced window,
/// > runs in that same call, in deadline order. A cancelled action never runs. Time never moves
/// > backwards.
@MainActor
public final class ManualStepScheduler: StepScheduler {
  private typealias Action = @MainActor @Sendable () -> Void

  private struct Entry {
    let deadline: Duration
    let order: UInt64
  }

  /// How many actions one call to ``advance(by:)`` or ``runUntilIdle()`` runs before it decides
  /// that something reschedules itself forever and stops with a precondition failure.
  public static let actionLimit = 1_000_000

  /// The virtual time elapsed since this scheduler was created, its origin: `.zero` until time is
  /// advanced.
  public private(set) var elapsedSinceOrigin: Duration = .zero

  /// A binary min-heap of deadlines, ordered by deadline, then by scheduling order. A cancelled
  /// action's entry stays until it reaches the top, where it is dropped: scheduling, running and
  /// cancelling are all O(log n) or better, so ten thousand fades at once stay cheap.
  private var heap: [Entry] = []
  /// The action of every entry scheduled and neither run nor cancelled, by scheduling order.
  /// Cancelling removes the action at once, so nothing it captured outlives the cancellation.
  private var pending: [UInt64: Action] = [:]
  private var nextOrder: UInt64 = 0

  /// Creates a scheduler at time zero with nothing scheduled.
  public init() {}

  /// The number of actions scheduled and neither run nor cancelled.
  public var pendingCount: Int { pending.count }

  /// The deadline of the next action to run, if any.
  public var nextDeadline: Duration? { nextEntry()?.deadline }

  /// Schedules `action` at ``elapsedSinceOrigin`` plus `delay` (a negative delay counts as zero);
  /// it runs when a later ``advance(by:)`` or ``runUntilIdle()`` reaches that time, never inside
  /// this call.
  public func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) -> ScheduledStep {
    let order = nextOrder
    nextOrder += 1
    push(Entry(deadline: elapsedSinceOrigin + max(delay, .zero), order: order))
    pending[order] = action
    return ScheduledStep { [weak self] in
      self?.pending[order] = nil
    }
  }

  /// Moves time forward by `duration`, running every action whose deadline falls in that window,
  /// including those scheduled along the way.
  ///
  /// Each action runs with ``elapsedSinceOrigin`` set to its own deadline; afterwards
  /// ``elapsedSinceOrigin`` is the end of the window.
  ///
  /// Stops with a precondition failure after ``actionLimit`` actions in one call: something keeps
  /// rescheduling itself with a zero (or vanishing) delay, and time would never reach the end of
  /// the window.
  ///
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "ManualStepScheduler.advance(by:) cannot move time backwards; got \(duration)")
    let end = elapsedSinceOrigin + duration
    var ran = 0
    while let next = nextEntry(), next.deadline <= end {
      precondition(
        ran < Self.actionLimit,
        """
        ManualStepScheduler.advance(by: \(duration)) ran \(ran) actions and reached only \(elapsedSinceOrigin) of the \
        window ending at \(end): an action keeps rescheduling itself with a zero or tiny delay
        """)
      run(popFirst())
      ran += 1
    }
    elapsedSinceOrigin = max(elapsedSinceOrigin, end)
  }

  /// Runs actions in deadline order, moving time to each one's deadline, until none is left.
  ///
  /// Stops with a precondition failure after ``actionLimit`` actions: something keeps
  /// rescheduling itself and would never go idle.
  public func runUntilIdle() {
    var ran = 0
    while nextEntry() != nil {
      precondition(
        ran < Self.actionLimit,
        "ManualStepScheduler.runUntilIdle() ran \(ran) actions without going idle: an action keeps rescheduling itself")
      run(popFirst())
      ran += 1
    }
  }

  private func run(_ entry: Entry) {
    guard let action = pending.removeValue(forKey: entry.order) else { return }
    elapsedSinceOrigin = max(elapsedSinceOrigin, entry.deadline)
    action()
  }

  // MARK: Heap

  /// The next action to run, after dropping cancelled ones from the top of the heap.
  private func nextEntry() -> Entry? {
    while let first = heap.first, pending[first.order] == nil {
      _ = popFirst()
    }
    return heap.first
  }

  private static func runsBefore(_ lhs: Entry, _ rhs: Entry) -> Bool {
    (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
  }

  private func push(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.runsBefore(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func popFirst() -> Entry {
    heap.swapAt(0, heap.count - 1)
    let first = heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count && Self.runsBefore(heap[left], heap[smallest]) { smallest = left }
      if right < heap.count && Self.runsBefore(heap[right], heap[smallest]) { smallest = right }
      guard smallest != parent else { return first }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
