public import Dispatch
import Foundation

/// A dispatch queue counts a step's delay and the main actor runs the step.
///
/// On `DispatchQueue.main` the action runs in the timer's own work item. On any other queue the
/// delay elapses there and the action then hops to the main queue; cancelling withdraws both
/// work items, so a cancelled action never runs.
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
  public func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) -> ScheduledStep {
    let onMain = SendableWorkItem(DispatchWorkItem { MainActor.assumeIsolated { action() } })
    let timer = SendableWorkItem(
      DispatchWorkItem {
        if Thread.isMainThread {
          onMain.workItem.perform()  // Already on the main queue: run in this very turn.
        } else {
          DispatchQueue.main.async(execute: onMain.workItem)
        }
      })
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
