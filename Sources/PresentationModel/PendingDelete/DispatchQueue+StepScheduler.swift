public import Dispatch
internal import Synchronization

/// A dispatch queue counts a step's delay and the main actor runs the step.
///
/// The delay elapses on this queue, then the action is enqueued on the main queue, where it runs
/// on the main actor; on `DispatchQueue.main` itself the delay elapses there directly, in one hop.
/// Cancelling withdraws the action, so a cancelled action never runs (cancellation happens on the
/// main actor, where the action checks it, so the two cannot race).
///
/// ```swift
/// import Dispatch
/// import PresentationModel
///
/// @MainActor
/// func makeDeleter() -> PendingDelete {
///   PendingDelete(duration: .milliseconds(250), steps: 10, scheduler: DispatchQueue.main)
/// }
/// ```
extension DispatchQueue: StepScheduler {
  /// The time elapsed since boot on the clock `asyncAfter` uses (`DispatchTime.now()`), in
  /// nanoseconds: the origin is boot.
  public var elapsedSinceOrigin: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds) }

  /// Runs `action` on the main actor once `delay` has elapsed on this queue (rounded up to whole
  /// nanoseconds; zero or negative means as soon as possible).
  public func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) -> ScheduledStep {
    let withdrawal = Withdrawal()
    // Both closures are `@Sendable` so that they are not inferred to be main-actor closures: the
    // timer's runs on this queue, and Swift would check (and trap on) main-actor isolation there.
    let onMain: @Sendable () -> Void = {
      // assumeIsolated: a block on the main queue runs on the main actor's executor.
      MainActor.assumeIsolated { if !withdrawal.isWithdrawn { action() } }
    }
    if self === DispatchQueue.main {
      // The delay can elapse on the main queue itself: one hop.
      DispatchQueue.main.asyncAfter(deadline: dispatchDeadline(after: delay), execute: onMain)
    } else {
      // Another queue counts the delay, then hands the action to the main queue.
      asyncAfter(deadline: dispatchDeadline(after: delay)) { DispatchQueue.main.async(execute: onMain) }
    }
    return ScheduledStep { withdrawal.withdraw() }
  }
}

/// The dispatch time `delay` from now, computed in whole nanoseconds from `Duration.components`
/// (rounded up, so a step never fires early) instead of through `DispatchTime` arithmetic with
/// `Duration`, which Linux lacks.
private func dispatchDeadline(after delay: Duration) -> DispatchTime {
  let now = DispatchTime.now()
  guard delay > .zero else { return now }
  let (seconds, attoseconds) = delay.components
  let (secondsInNanoseconds, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
  let fraction = (attoseconds + 999_999_999) / 1_000_000_000
  let (nanoseconds, overflowedAgain) = secondsInNanoseconds.addingReportingOverflow(fraction)
  guard !overflowed, !overflowedAgain else { return .distantFuture }
  let (deadline, overflowedUptime) = now.uptimeNanoseconds.addingReportingOverflow(UInt64(nanoseconds))
  guard !overflowedUptime, deadline < DispatchTime.distantFuture.uptimeNanoseconds else { return .distantFuture }
  return DispatchTime(uptimeNanoseconds: deadline)
}

/// Whether a scheduled action was withdrawn: set by its ``ScheduledStep`` and read by the action,
/// both on the main actor (the atomic makes the flag `Sendable`, for the blocks that carry it).
private final class Withdrawal: Sendable {
  private let withdrawn = Atomic<Bool>(false)

  var isWithdrawn: Bool { withdrawn.load(ordering: .relaxed) }

  func withdraw() { withdrawn.store(true, ordering: .relaxed) }
}
