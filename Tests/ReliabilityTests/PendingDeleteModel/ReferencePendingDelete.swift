import PresentationModel

/// The documented behaviour of ``PendingDelete`` on a manual clock, as plain values.
///
/// - A delete of an idle widget starts a fade from its current opacity; step `k` of `n` runs `k`
///   step intervals later and sets `start × (n − k) / n`; the last step marks it disposed, sets
///   opacity `0`, calls `dispose()`, then the completions in the order given.
/// - A delete of a fading widget joins the fade; of a widget this helper disposed, completes
///   `.disposed` at once without disposing again.
/// - `cancel` of a fading widget withdraws its next step, restores the start opacity, then calls the
///   completions with `.cancelled` and returns `true`; otherwise it returns `false`.
/// - `cancelAll` restores every fading widget (in the order the fades started) before the first
///   completion.
/// - The clock runs steps in deadline order, equal deadlines in scheduling order; a step scheduled
///   while the clock advances runs in the same advance if its deadline is inside it.
struct ReferencePendingDelete {
  private struct Fade {
    let startOpacity: Double
    let startIndex: Int
    var stepsTaken = 0
    var pendingStep: Int?
    var completions: [Completion]
  }

  private struct Completion {
    let call: Int
    let reactions: [PendingDeleteProgram.Reaction]
  }

  private struct Step {
    let deadline: Int
    let order: Int
    let widget: Int
    let index: Int
  }

  private let steps: Int
  private let stepMilliseconds: Int
  private var opacities = PendingDeleteProgram.startOpacities
  private var disposeCounts = Array(repeating: 0, count: PendingDeleteProgram.widgetCount)
  private var disposed = Array(repeating: false, count: PendingDeleteProgram.widgetCount)
  private var fades: [Int: Fade] = [:]
  private var clock: [Step] = []
  private var now = 0
  private var nextOrder = 0
  private var nextCall = 0
  private var startedCount = 0
  private(set) var events: [PendingDeleteProgram.Event] = []

  static func run(_ program: PendingDeleteProgram) -> [PendingDeleteProgram.Event] {
    var model = ReferencePendingDelete(steps: program.steps, stepMilliseconds: program.stepMilliseconds)
    for operation in program.operations {
      model.perform(operation)
      model.recordState()
    }
    model.runUntilIdle()
    model.recordState()
    return model.events
  }

  private init(steps: Int, stepMilliseconds: Int) {
    self.steps = steps
    self.stepMilliseconds = stepMilliseconds
  }

  private mutating func recordState() {
    let widgets = 0..<PendingDeleteProgram.widgetCount
    events.append(
      .state(
        opacities: opacities, disposeCounts: disposeCounts, pending: widgets.map { fades[$0] != nil },
        pendingCount: fades.count))
  }

  private mutating func perform(_ operation: PendingDeleteProgram.Operation) {
    switch operation {
    case .delete(let widget, let reactions): delete(widget, reactions: reactions)
    case .cancel(let widget): events.append(.cancelReturned(widget: widget, cancel(widget)))
    case .cancelAll: cancelAll()
    case .advance(let milliseconds): advance(by: milliseconds)
    }
  }

  private mutating func delete(_ widget: Int, reactions: [PendingDeleteProgram.Reaction]) {
    let completion = Completion(call: nextCall, reactions: reactions)
    nextCall += 1
    if fades[widget] != nil {
      fades[widget]?.completions.append(completion)
      return
    }
    if disposed[widget] {
      complete(completion, .disposed)
      return
    }
    startedCount += 1
    fades[widget] = Fade(startOpacity: opacities[widget], startIndex: startedCount, completions: [completion])
    schedule(widget, step: 1)
  }

  private mutating func schedule(_ widget: Int, step index: Int) {
    let step = Step(deadline: now + stepMilliseconds, order: nextOrder, widget: widget, index: index)
    nextOrder += 1
    let position = clock.firstIndex { $0.deadline > step.deadline } ?? clock.endIndex
    clock.insert(step, at: position)
    fades[widget]?.pendingStep = step.order
  }

  private mutating func stepElapsed(_ step: Step) {
    guard var fade = fades[step.widget], fade.stepsTaken == step.index - 1 else { return }
    fade.stepsTaken = step.index
    fade.pendingStep = nil
    if step.index < steps {
      fades[step.widget] = fade
      opacities[step.widget] = fade.startOpacity * Double(steps - step.index) / Double(steps)
      schedule(step.widget, step: step.index + 1)
      return
    }
    fades[step.widget] = nil
    disposed[step.widget] = true
    opacities[step.widget] = 0
    disposeCounts[step.widget] += 1
    events.append(.disposed(widget: step.widget))
    for completion in fade.completions { complete(completion, .disposed) }
  }

  private mutating func cancel(_ widget: Int) -> Bool {
    guard let fade = fades.removeValue(forKey: widget) else { return false }
    clock.removeAll { $0.order == fade.pendingStep }
    opacities[widget] = fade.startOpacity
    for completion in fade.completions { complete(completion, .cancelled) }
    return true
  }

  private mutating func cancelAll() {
    let cancelled = fades.sorted { $0.value.startIndex < $1.value.startIndex }
    fades = [:]
    for (widget, fade) in cancelled {
      clock.removeAll { $0.order == fade.pendingStep }
      opacities[widget] = fade.startOpacity
    }
    for (_, fade) in cancelled {
      for completion in fade.completions { complete(completion, .cancelled) }
    }
  }

  private mutating func complete(_ completion: Completion, _ outcome: PendingDelete.Outcome) {
    events.append(.completed(call: completion.call, outcome))
    for reaction in completion.reactions {
      switch reaction {
      case .delete(let widget): delete(widget, reactions: [])
      case .cancel(let widget): events.append(.cancelReturned(widget: widget, cancel(widget)))
      }
    }
  }

  private mutating func advance(by milliseconds: Int) {
    let end = now + milliseconds
    while let next = clock.first, next.deadline <= end {
      clock.removeFirst()
      now = max(now, next.deadline)
      stepElapsed(next)
    }
    now = max(now, end)
  }

  private mutating func runUntilIdle() {
    while let next = clock.first {
      clock.removeFirst()
      now = max(now, next.deadline)
      stepElapsed(next)
    }
  }
}
