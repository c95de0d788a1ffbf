/// One widget's fade on its own timeline: steps its opacity down, disposes it, and reports the
/// outcome to everyone who asked for this widget's deletion.
///
/// The scheduled step closures hold the fade strongly and its ``PendingDelete`` weakly, so a fade
/// finishes even when the ``PendingDelete`` that started it has been released.
@MainActor
final class FadeOut {
  typealias Completion = @MainActor (PendingDelete.Outcome) -> Void

  /// What a cancelled fade leaves for its caller to do, once the state says it is over.
  struct Cancellation {
    let widget: any Fadable
    let startOpacity: Double
    let pendingStep: ScheduledStep?
    let completions: [Completion]
  }

  private struct Fading {
    let widget: any Fadable
    let startOpacity: Double
    var stepsTaken = 0
    /// The step scheduled next; `nil` while it runs, or if the scheduler ran it before returning.
    var pendingStep: ScheduledStep?
    var completions: [Completion]
  }

  private enum State {
    case fading(Fading)
    /// The last step is running: opacity `0`, then `dispose()`. Too late to cancel; a deletion of
    /// the same widget started meanwhile (from its opacity setter or `dispose()`) joins, so its
    /// completion runs after `dispose()` with the others.
    case disposing(Fading)
    case disposed
    case cancelled
  }

  private enum StepAction {
    case fade(any Fadable, to: Double, thenSchedule: Int)
    case dispose(any Fadable)
    case ignore
  }

  /// Orders fades by when they started, so ``PendingDelete/cancelAll()`` is deterministic.
  let startIndex: Int
  private let steps: Int
  private let duration: Duration
  private let disposesAtOnce: Bool
  private let scheduler: any StepScheduler
  /// The scheduler's ``StepScheduler/elapsedSinceOrigin`` when the fade started: every step is
  /// timed from here, so a step that runs late does not push back the ones after it.
  private var startTime: Duration = .zero
  private weak var owner: PendingDelete?
  private var state: State
  /// Where the leak harness follows this fade, when it was started in a test that detects leaks.
  private let record: LeakScopeLog.FadeRecord?

  init(
    widget: any Fadable, steps: Int, duration: Duration, scheduler: any StepScheduler, owner: PendingDelete,
    startIndex: Int, record: LeakScopeLog.FadeRecord?, completion: Completion?
  ) {
    self.record = record
    self.steps = steps
    self.duration = duration
    self.disposesAtOnce = duration <= .zero
    self.scheduler = scheduler
    self.owner = owner
    self.startIndex = startIndex
    self.state = .fading(
      Fading(widget: widget, startOpacity: widget.opacity, completions: completion.map { [$0] } ?? []))
  }

  /// Starts the timeline; a zero or negative duration disposes before returning.
  func start() {
    if disposesAtOnce {
      perform(disposeNow())
    } else {
      startTime = scheduler.elapsedSinceOrigin
      schedule(step: 1)
    }
  }

  /// When step `index` is due, counted from the start: `index × duration / steps`, rounded down
  /// to whole attoseconds, computed without overflow for any `steps` and without summing rounded
  /// intervals (which would drift).
  static func offset(ofStep index: Int, of steps: Int, in duration: Duration) -> Duration {
    let quotient = duration / steps
    let remainder = duration - quotient * steps  // under `steps` attoseconds
    return quotient * index + remainder * index / steps
  }

  // MARK: Transitions (state changes only; they return what to do)

  /// Adds `completion` to a fade still in progress, including one whose last step is running;
  /// `false` once it is over.
  func join(_ completion: Completion?) -> Bool {
    switch state {
    case .fading(var fading):
      if let completion { fading.completions.append(completion) }
      state = .fading(fading)
    case .disposing(var fading):
      if let completion { fading.completions.append(completion) }
      state = .disposing(fading)
    case .disposed, .cancelled:
      return false
    }
    return true
  }

  /// Ends the fade without disposing; `nil` if it was already over or its last step is running.
  func cancel() -> Cancellation? {
    guard case .fading(let fading) = state else { return nil }
    state = .cancelled
    record?.set(.cancelled)
    return Cancellation(
      widget: fading.widget, startOpacity: fading.startOpacity, pendingStep: fading.pendingStep,
      completions: fading.completions)
  }

  private func record(_ step: ScheduledStep, for index: Int) {
    // A scheduler that ran the step before returning has moved the state on; keep nothing then.
    guard case .fading(var fading) = state, fading.stepsTaken == index - 1 else { return }
    fading.pendingStep = step
    state = .fading(fading)
  }

  /// The last step due at `elapsed` since the start, at least `index`, at most `steps`.
  private func lastStepDue(at elapsed: Duration, from index: Int) -> Int {
    // An estimate in floating point, made exact against `offset(ofStep:of:in:)`.
    let estimate = (elapsed / duration) * Double(steps)
    var last = estimate.isFinite ? Int(Swift.min(Swift.max(estimate, Double(index)), Double(steps))) : index
    while last < steps && Self.offset(ofStep: last + 1, of: steps, in: duration) <= elapsed { last += 1 }
    while last > index && Self.offset(ofStep: last, of: steps, in: duration) > elapsed { last -= 1 }
    return last
  }

  private func stepElapsed(_ index: Int) -> StepAction {
    guard case .fading(var fading) = state, fading.stepsTaken == index - 1 else { return .ignore }
    // Steps already due when this one runs late (a busy main queue, more steps than it can run in
    // the duration) are applied at once, as one: the fade ends on time whatever its step count.
    let index = lastStepDue(at: scheduler.elapsedSinceOrigin - startTime, from: index)
    fading.stepsTaken = index
    record?.setStepsTaken(index)
    fading.pendingStep = nil
    guard index < steps else {
      state = .disposing(fading)
      return .dispose(fading.widget)
    }
    state = .fading(fading)
    // Multiplied before dividing: exact whenever the true value is representable (1 × 3 / 4 == 0.75).
    let opacity = fading.startOpacity * Double(steps - index) / Double(steps)
    return .fade(fading.widget, to: opacity, thenSchedule: index + 1)
  }

  private func disposeNow() -> StepAction {
    guard case .fading(let fading) = state else { return .ignore }
    state = .disposing(fading)
    return .dispose(fading.widget)
  }

  /// Ends the last step once `dispose()` has returned: the completions, including any joined
  /// during the step.
  private func didDispose() -> [Completion] {
    guard case .disposing(let fading) = state else { return [] }
    state = .disposed
    record?.setStepsTaken(steps)
    record?.set(.disposed)
    return fading.completions
  }

  // MARK: Effects (user code runs here, after the state is updated)

  private func schedule(step index: Int) {
    let due = startTime + Self.offset(ofStep: index, of: steps, in: duration)
    let scheduled = scheduler.schedule(after: due - scheduler.elapsedSinceOrigin) { [self] in
      perform(stepElapsed(index))
    }
    record(scheduled, for: index)
  }

  private func perform(_ action: StepAction) {
    switch action {
    case .fade(let widget, let opacity, let next):
      widget.opacity = opacity
      schedule(step: next)
    case .dispose(let widget):
      widget.opacity = 0
      widget.dispose()
      let completions = didDispose()
      owner?.fadeOutDidDispose(self, widget: widget)
      // Completions may still look at the widget (weakly); it goes only after the last of them.
      withExtendedLifetime(widget) {
        for completion in completions { completion(.disposed) }
      }
    case .ignore:
      break
    }
  }
}
