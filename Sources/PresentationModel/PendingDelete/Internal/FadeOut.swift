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
    case disposed
    case cancelled
  }

  private enum StepAction {
    case fade(any Fadable, to: Double, thenSchedule: Int)
    case dispose(any Fadable, completions: [Completion])
    case ignore
  }

  /// Orders fades by when they started, so ``PendingDelete/cancelAll()`` is deterministic.
  let startIndex: Int
  private let steps: Int
  private let interval: Duration
  private let disposesAtOnce: Bool
  private let scheduler: any StepScheduler
  private weak var owner: PendingDelete?
  private var state: State

  init(
    widget: any Fadable, steps: Int, duration: Duration, scheduler: any StepScheduler, owner: PendingDelete,
    startIndex: Int, completion: Completion?
  ) {
    self.steps = steps
    self.interval = duration / steps
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
      schedule(step: 1)
    }
  }

  // MARK: Transitions (state changes only; they return what to do)

  /// Adds `completion` to a fade still in progress; `false` once it is over.
  func join(_ completion: Completion?) -> Bool {
    guard case .fading(var fading) = state else { return false }
    if let completion { fading.completions.append(completion) }
    state = .fading(fading)
    return true
  }

  /// Ends the fade without disposing; `nil` if it was already over.
  func cancel() -> Cancellation? {
    guard case .fading(let fading) = state else { return nil }
    state = .cancelled
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

  private func stepElapsed(_ index: Int) -> StepAction {
    guard case .fading(var fading) = state, fading.stepsTaken == index - 1 else { return .ignore }
    fading.stepsTaken = index
    fading.pendingStep = nil
    guard index < steps else {
      state = .disposed
      return .dispose(fading.widget, completions: fading.completions)
    }
    state = .fading(fading)
    // Multiplied before dividing: exact whenever the true value is representable (1 × 3 / 4 == 0.75).
    let opacity = fading.startOpacity * Double(steps - index) / Double(steps)
    return .fade(fading.widget, to: opacity, thenSchedule: index + 1)
  }

  private func disposeNow() -> StepAction {
    guard case .fading(let fading) = state else { return .ignore }
    state = .disposed
    return .dispose(fading.widget, completions: fading.completions)
  }

  // MARK: Effects (user code runs here, after the state is updated)

  private func schedule(step index: Int) {
    let scheduled = scheduler.schedule(after: interval) { [self] in
      perform(stepElapsed(index))
    }
    record(scheduled, for: index)
  }

  private func perform(_ action: StepAction) {
    switch action {
    case .fade(let widget, let opacity, let next):
      widget.opacity = opacity
      schedule(step: next)
    case .dispose(let widget, let completions):
      owner?.fadeOutDidDispose(self, widget: widget)
      widget.opacity = 0
      widget.dispose()
      // Completions may still look at the widget (weakly); it goes only after the last of them.
      withExtendedLifetime(widget) {
        for completion in completions { completion(.disposed) }
      }
    case .ignore:
      break
    }
  }
}
