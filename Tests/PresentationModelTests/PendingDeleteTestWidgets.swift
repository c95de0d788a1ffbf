import PresentationModel
import PresentationTestSupport

/// A widget that records every opacity it is given and every `dispose()` call.
@MainActor
/// Its log says what happened to the widgets of one test, in order (a `LockedLog`, so its `deinit`
/// may record too).
final class RecordingWidget: Fadable {
  let name: String
  let log: LockedLog<String>
  private(set) var opacityHistory: [Double] = []
  private(set) var disposeCount = 0
  /// Runs inside `dispose()`, to test re-entrant calls from there.
  var onDispose: (@MainActor (RecordingWidget) -> Void)?

  /// Runs inside the opacity setter, after the new value is recorded, to test re-entrant calls from
  /// there.
  var onOpacityChange: (@MainActor (RecordingWidget) -> Void)?

  var opacity: Double {
    didSet {
      opacityHistory.append(opacity)
      onOpacityChange?(self)
    }
  }

  init(_ name: String = "widget", opacity: Double = 1, log: LockedLog<String> = LockedLog<String>()) {
    self.name = name
    self.opacity = opacity
    self.log = log
  }

  deinit {
    log.record("deinit \(name)")
  }

  func dispose() {
    disposeCount += 1
    log.record("dispose \(name)")
    onDispose?(self)
  }
}

/// Collects the outcomes a test's completions receive, in the order they arrive.
@MainActor
final class OutcomeLog {
  private(set) var outcomes: [String] = []

  func completion(_ label: String) -> PendingDelete.Completion {
    { outcome in self.outcomes.append("\(label) \(outcome)") }
  }
}
