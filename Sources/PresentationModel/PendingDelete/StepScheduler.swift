/// Runs an action on the main actor once a `Duration` has passed, cancellably: the clock behind
/// ``PendingDelete``.
///
/// `DispatchQueue` conforms (through `asyncAfter`); tests use
/// `ManualStepScheduler` from `PresentationModelTesting`, whose time only moves when the test says.
///
/// ```swift
/// import Dispatch
/// import PresentationModel
///
/// @MainActor
/// func blink(_ widget: some Fadable, scheduler: some StepScheduler = DispatchQueue.main) {
///   widget.opacity = 0
///   _ = scheduler.schedule(after: .milliseconds(100)) { widget.opacity = 1 }
/// }
/// ```
///
/// > Note: What a conforming type must guarantee: `action` runs at most once, on the main actor,
/// > no earlier than `delay` after the call (a zero or negative delay means "as soon as possible"),
/// > never from inside ``schedule(after:_:)`` itself, and never once ``ScheduledStep/cancel()``
/// > has returned.
@MainActor
public protocol StepScheduler {
  /// The time elapsed on this scheduler's own clock (the one that times its delays) since an
  /// origin the scheduler defines and never moves: boot for `DispatchQueue` (its `asyncAfter`
  /// clock), the scheduler's creation for `ManualStepScheduler`. Only differences between two
  /// readings mean anything.
  ///
  /// ``PendingDelete`` reads it when a fade starts, then for each step twice: when the step runs
  /// (to apply at once the later steps already due, when it runs late) and before it schedules the
  /// next, after setting the opacity (so that a slow opacity setter does not delay the next step):
  /// `2 × steps + 1` readings in a fade that runs on time. It schedules step `k` after
  /// `start + k × duration / steps − elapsedSinceOrigin`: each step is timed from the start, so
  /// steps that run late do not add up. It must never go backwards. A scheduler that stretches or
  /// shrinks delays reports its time in the same units as the delays it is given (see the
  /// slow-motion example in the PendingDelete guide).
  var elapsedSinceOrigin: Duration { get }

  /// Schedules `action` to run once after `delay`.
  ///
  /// - Parameters:
  ///   - delay: How long to wait. Zero or negative runs the action as soon as possible.
  ///   - action: The work to run on the main actor.
  /// - Returns: The handle that cancels the action.
  func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) -> ScheduledStep
}
