public import Dispatch

/// A dispatch queue counts a step's delay and the main actor runs the step.
///
/// The delay elapses on this queue, then the action is enqueued on the main queue, where it runs
/// on the main actor; on `DispatchQueue.main` itself the delay elapses there directly, in one hop.
/// Cancelling withdraws the pending work items, so a cancelled action never runs (cancellation
/// happens on the main actor, so it cannot race with the action).
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
    // Both closures are `@Sendable` so that they are not inferred to be main-actor closures: the
    // timer's runs on this queue, and Swift would check (and trap on) main-actor isolation there.
    let onMain = SendableWorkItem(DispatchWorkItem { @Sendable in MainActor.assumeIsolated { action() } })
    if self === DispatchQueue.main {
      // The delay can elapse on the main queue itself: one hop.
      DispatchQueue.main.asyncAfter(deadline: dispatchDeadline(after: delay), execute: onMain.workItem)
      return ScheduledStep { onMain.workItem.cancel() }
    }
    // Another queue counts the delay, then hands the action to the main queue.
    let timer = SendableWorkItem(DispatchWorkItem { @Sendable in DispatchQueue.main.async(execute: onMain.workItem) })
    asyncAfter(deadline: dispatchDeadline(after: delay), execute: timer.workItem)
    return ScheduledStep {
      timer.workItem.cancel()
      onMain.workItem.cancel()
    }
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
