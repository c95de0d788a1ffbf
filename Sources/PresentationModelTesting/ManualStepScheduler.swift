public import PresentationModel

/// A ``StepScheduler`` whose time moves only when a test says so, for deterministic fades.
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
  private struct Entry {
    let deadline: Duration
    let order: UInt64
    let action: @MainActor @Sendable () -> Void
  }

  /// How many actions ``runUntilIdle()`` runs before it decides they reschedule themselves forever.
  public static let runUntilIdleLimit = 1_000_000

  /// The virtual time elapsed since this scheduler was created.
  public private(set) var now: Duration = .zero

  /// Kept sorted by deadline, then by scheduling order.
  private var entries: [Entry] = []
  private var nextOrder: UInt64 = 0

  /// Creates a scheduler at time zero with nothing scheduled.
  public init() {}

  /// The number of actions scheduled and neither run nor cancelled.
  public var pendingCount: Int { entries.count }

  /// The deadline of the next action to run, if any.
  public var nextDeadline: Duration? { entries.first?.deadline }

  /// Schedules `action` at ``now`` plus `delay` (a negative delay counts as zero); it runs when a
  /// later ``advance(by:)`` or ``runUntilIdle()`` reaches that time, never inside this call.
  public func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) -> ScheduledStep {
    let deadline = now + max(delay, .zero)
    let order = nextOrder
    nextOrder += 1
    // After every entry with a deadline at or before this one: equal deadlines keep their order.
    let index = entries.partitioningIndex { $0.deadline > deadline }
    entries.insert(Entry(deadline: deadline, order: order, action: action), at: index)
    return ScheduledStep { [weak self] in
      self?.entries.removeAll { $0.order == order }
    }
  }

  /// Moves time forward by `duration`, running every action whose deadline falls in that window,
  /// including those scheduled along the way.
  ///
  /// Each action runs with ``now`` set to its own deadline; afterwards ``now`` is the end of the
  /// window.
  ///
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "ManualStepScheduler.advance(by:) cannot move time backwards; got \(duration)")
    let end = now + duration
    while let next = entries.first, next.deadline <= end {
      entries.removeFirst()
      now = max(now, next.deadline)
      next.action()
    }
    now = max(now, end)
  }

  /// Runs actions in deadline order, moving time to each one's deadline, until none is left.
  ///
  /// Stops with a precondition failure after ``runUntilIdleLimit`` actions: something keeps
  /// rescheduling itself and would never go idle.
  public func runUntilIdle() {
    var ran = 0
    while let next = entries.first {
      precondition(
        ran < Self.runUntilIdleLimit,
        "ManualStepScheduler.runUntilIdle() ran \(ran) actions without going idle: an action keeps rescheduling itself")
      entries.removeFirst()
      now = max(now, next.deadline)
      next.action()
      ran += 1
    }
  }
}

extension Array {
  /// The index of the first element for which `belongsInSecondPartition` holds, given that it
  /// holds for a suffix of the array.
  fileprivate func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
    var low = startIndex
    var high = endIndex
    while low < high {
      let middle = low + (high - low) / 2
      if belongsInSecondPartition(self[middle]) {
        high = middle
      } else {
        low = middle + 1
      }
    }
    return low
  }
}
