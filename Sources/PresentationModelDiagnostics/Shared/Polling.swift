import Foundation
import PresentationModel

/// Repeats a check until it passes or a timeout expires: once at once, then after a `Task.yield()`
/// and sleeps that grow from 1 ms to 20 ms, so a check that passes costs nothing and one that waits
/// for a deallocation a run-loop turn late notices it within a few milliseconds.
package enum Polling {
  /// Runs on the caller's actor (`isolation`), so `isDone` may read that actor's state.
  package static func poll(
    timeout: Duration, isolation: isolated (any Actor)? = #isolation, until isDone: () -> Bool
  ) async {
    if isDone() || timeout <= .zero { return }
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: timeout)
    await Task.yield()
    var pause = Duration.milliseconds(1)
    while !isDone() {
      let remaining = clock.now.duration(to: end)
      if remaining <= .zero { return }
      try? await Task.sleep(for: min(pause, remaining))
      pause = min(pause * 2, .milliseconds(20))
    }
  }

  /// The blocking form, for synchronous teardown code. On the main thread it runs the current run
  /// loop between checks, so work enqueued on the main queue (a release one turn late) can happen.
  ///
  /// Called on the main queue itself (main-actor code, or a block on `DispatchQueue.main`), it
  /// cannot let the queue run: the queue is serial and busy with the caller until it returns, and
  /// running other main-queue work inside would break the main actor's isolation. It still waits
  /// (releases on other threads can happen), and tells the caller.
  ///
  /// - Returns: `true` if the check ran on the main queue and the main queue did not run while it
  ///   waited (a probe enqueued there at the start never ran).
  @discardableResult
  package static func pollBlocking(timeout: Duration, until isDone: () -> Bool) -> Bool {
    if isDone() || timeout <= .zero { return false }
    let probe: MainQueueProgress? = MainQueue.isCurrent ? MainQueueProgress() : nil
    pollBlockingUntilTimeout(timeout, until: isDone)
    guard let probe else { return false }
    return !probe.hasRun
  }

  private static func pollBlockingUntilTimeout(_ timeout: Duration, until isDone: () -> Bool) {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: timeout)
    var pause = Duration.milliseconds(1)
    while !isDone() {
      let remaining = clock.now.duration(to: end)
      if remaining <= .zero { return }
      let wakeUp = Date(timeIntervalSinceNow: min(pause, remaining).seconds)
      // A run loop with no sources returns at once; sleep out the rest of the step either way.
      if Thread.isMainThread { RunLoop.current.run(until: wakeUp) }
      let rest = wakeUp.timeIntervalSinceNow
      if rest > 0 { Thread.sleep(forTimeInterval: rest) }
      pause = min(pause * 2, .milliseconds(20))
    }
  }
}
