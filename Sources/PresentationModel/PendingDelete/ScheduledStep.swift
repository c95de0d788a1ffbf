/// A handle on one action handed to a ``StepScheduler``: cancel it before it runs.
///
/// A scheduler makes one for every call to ``StepScheduler/schedule(after:_:)``, passing the
/// closure that withdraws the action:
///
/// ```swift
/// import PresentationModel
///
/// @MainActor
/// func scheduleTwoAndCancelOne(on scheduler: some StepScheduler) {
///   let kept = scheduler.schedule(after: .milliseconds(10)) { print("runs") }
///   let dropped = scheduler.schedule(after: .milliseconds(10)) { print("never runs") }
///   dropped.cancel()
///   _ = kept
/// }
/// ```
///
/// > Note: ``cancel()`` is idempotent: the scheduler's withdraw closure runs at most once, however
/// > often it is called. Dropping the handle does not cancel the action.
@MainActor
public final class ScheduledStep {
  private var withdraw: (@MainActor () -> Void)?

  /// Creates a handle whose ``cancel()`` runs `withdraw` once.
  ///
  /// - Parameter withdraw: Removes the action from the scheduler so that it never runs. Called at
  ///   most once, on the main actor.
  public init(withdraw: @escaping @MainActor () -> Void) {
    self.withdraw = withdraw
  }

  /// Whether ``cancel()`` has been called.
  public var isCancelled: Bool { withdraw == nil }

  /// Withdraws the action if it has not run yet. Calling it again, or after the action ran, does
  /// nothing.
  public func cancel() {
    guard let withdraw else { return }
    self.withdraw = nil
    withdraw()
  }
}
