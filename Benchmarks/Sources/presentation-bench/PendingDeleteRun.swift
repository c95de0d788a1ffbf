import PresentationModel
import PresentationModelTesting

/// A widget that counts its disposals and deinitialisations.
@MainActor
final class BenchWidget: Fadable {
  var opacity = 1.0
  private let disposals: Sink
  private let deinits: Sink

  init(disposals: Sink, deinits: Sink) {
    self.disposals = disposals
    self.deinits = deinits
  }

  func dispose() { disposals.pointer.pointee += 1 }

  deinit { deinits.pointer.pointee += 1 }
}

/// 10,000 widgets fading at once on a `ManualStepScheduler`: the cost of starting the fades, of
/// running their steps, and a check that every widget was disposed once and deinitialised.
@MainActor
enum PendingDeleteRun {
  static let steps = 10

  /// One run; returns nanoseconds per widget to start, per widget-step to run, and in total.
  static func runOnce(widgets count: Int) -> (start: Double, step: Double, total: Double) {
    let disposals = Sink.make()
    let deinits = Sink.make()
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: .milliseconds(300), steps: steps, scheduler: scheduler)
    var widgets: [BenchWidget] = (0..<count).map { _ in BenchWidget(disposals: disposals, deinits: deinits) }
    let startElapsed = Stopwatch.time {
      for widget in widgets { pendingDelete.fadeOutAndDispose(widget) }
    }
    widgets = []  // From here on only the pending delete holds them.
    let stepElapsed = Stopwatch.time {
      for _ in 0..<steps { scheduler.advance(by: .milliseconds(300 / steps)) }
    }
    guard pendingDelete.pendingCount == 0, disposals.take() == count, deinits.take() == count,
      scheduler.pendingCount == 0
    else {
      fatalError("pending delete did not dispose and release all \(count) widgets; the figure cannot be produced")
    }
    return (startElapsed / Double(count), stepElapsed / Double(count * steps), startElapsed + stepElapsed)
  }
}
