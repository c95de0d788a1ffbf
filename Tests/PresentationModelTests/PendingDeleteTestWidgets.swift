import PresentationModel
import Synchronization

/// What happened to the widgets of one test, in order; safe to append to from a `deinit`.
final class WidgetEventLog: Sendable {
  private let storage = Mutex<[String]>([])

  var events: [String] { storage.withLock { $0 } }

  func record(_ event: String) {
    storage.withLock { $0.append(event) }
  }
}

/// A widget that records every opacity it is given and every `dispose()` call.
@MainActor
final class RecordingWidget: Fadable {
  let name: String
  let log: WidgetEventLog
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

  init(_ name: String = "widget", opacity: Double = 1, log: WidgetEventLog = WidgetEventLog()) {
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
