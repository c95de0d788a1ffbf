import PresentationModel
import PresentationModelTesting

/// A widget for a ``PendingDeleteProgram``: counts its `dispose()` calls and reports them.
@MainActor
final class ProgramWidget: Fadable {
  let index: Int
  var opacity: Double
  private(set) var disposeCount = 0
  private let onDispose: @MainActor (Int) -> Void

  init(index: Int, opacity: Double, onDispose: @escaping @MainActor (Int) -> Void) {
    self.index = index
    self.opacity = opacity
    self.onDispose = onDispose
  }

  func dispose() {
    disposeCount += 1
    onDispose(index)
  }
}

/// Runs a ``PendingDeleteProgram`` against a real ``PendingDelete`` on a `ManualStepScheduler`,
/// recording the same events as ``ReferencePendingDelete``, and checks the end state: every widget
/// disposed exactly once or restored, never both, never neither; every completion called exactly
/// once; nothing left scheduled; every widget deallocated once the program lets go of it.
@MainActor
final class PendingDeleteRunner {
  private let scheduler = ManualStepScheduler()
  private let pendingDelete: PendingDelete
  private var widgets: [ProgramWidget] = []
  private var nextCall = 0
  private var completionCounts: [Int: Int] = [:]
  private(set) var events: [PendingDeleteProgram.Event] = []
  private(set) var endStateProblems: [String] = []

  static func run(_ program: PendingDeleteProgram) -> PendingDeleteRunner {
    let runner = PendingDeleteRunner(program)
    for operation in program.operations {
      runner.perform(operation)
      runner.recordState()
    }
    runner.scheduler.runUntilIdle()
    runner.recordState()
    runner.checkEndState()
    return runner
  }

  private init(_ program: PendingDeleteProgram) {
    pendingDelete = PendingDelete(
      duration: .milliseconds(program.steps * program.stepMilliseconds), steps: program.steps, scheduler: scheduler)
    widgets = PendingDeleteProgram.startOpacities.indices.map { index in
      ProgramWidget(index: index, opacity: PendingDeleteProgram.startOpacities[index]) { [weak self] index in
        self?.events.append(.disposed(widget: index))
      }
    }
  }

  private func recordState() {
    events.append(
      .state(
        opacities: widgets.map(\.opacity), disposeCounts: widgets.map(\.disposeCount),
        pending: widgets.map { pendingDelete.isPending($0) }, pendingCount: pendingDelete.pendingCount))
  }

  private func perform(_ operation: PendingDeleteProgram.Operation) {
    switch operation {
    case .delete(let widget, let reactions): delete(widget, reactions: reactions)
    case .cancel(let widget): cancel(widget)
    case .cancelAll: pendingDelete.cancelAll()
    case .advance(let milliseconds): scheduler.advance(by: .milliseconds(milliseconds))
    }
  }

  private func delete(_ widget: Int, reactions: [PendingDeleteProgram.Reaction]) {
    let call = nextCall
    nextCall += 1
    pendingDelete.fadeOutAndDispose(widgets[widget]) { [weak self] outcome in
      self?.completed(call: call, outcome, reactions: reactions)
    }
  }

  private func cancel(_ widget: Int) {
    events.append(.cancelReturned(widget: widget, pendingDelete.cancel(widgets[widget])))
  }

  private func completed(call: Int, _ outcome: PendingDelete.Outcome, reactions: [PendingDeleteProgram.Reaction]) {
    completionCounts[call, default: 0] += 1
    events.append(.completed(call: call, outcome))
    for reaction in reactions {
      switch reaction {
      case .delete(let widget): delete(widget, reactions: [])
      case .cancel(let widget): cancel(widget)
      }
    }
  }

  private func checkEndState() {
    for widget in widgets {
      let start = PendingDeleteProgram.startOpacities[widget.index]
      switch widget.disposeCount {
      case 0 where widget.opacity != start:
        endStateProblems.append("w\(widget.index) was neither disposed nor restored (opacity \(widget.opacity))")
      case 0:
        break
      case 1 where widget.opacity != 0:
        endStateProblems.append("w\(widget.index) was disposed but its opacity is \(widget.opacity)")
      case 1:
        break
      default:
        endStateProblems.append("w\(widget.index) was disposed \(widget.disposeCount) times")
      }
    }
    for call in 0..<nextCall where completionCounts[call] != 1 {
      endStateProblems.append("call \(call) completed \(completionCounts[call] ?? 0) times")
    }
    if pendingDelete.pendingCount != 0 || scheduler.pendingCount != 0 {
      endStateProblems.append(
        "after running until idle: \(pendingDelete.pendingCount) fades, \(scheduler.pendingCount) steps left")
    }
    weak let anyWidget = widgets.first
    weak let lastWidget = widgets.last
    widgets = []
    if anyWidget != nil || lastWidget != nil {
      endStateProblems.append("a widget outlived the program although PendingDelete finished with it")
    }
  }
}
