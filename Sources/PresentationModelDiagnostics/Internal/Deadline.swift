import Foundation

/// Repeats a check until it passes or a deadline expires: once at once, then after a `Task.yield()`
/// and sleeps that grow from 1 ms to 20 ms, so a check that passes costs nothing and one that waits
/// for a deallocation a run-loop turn late notices it within a few milliseconds.
package enum Deadline {
  package static func poll(timeout: Duration, until isDone: () -> Bool) async {
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
  package static func pollBlocking(timeout: Duration, until isDone: () -> Bool) {
    if isDone() || timeout <= .zero { return }
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: timeout)
    var pause = Duration.milliseconds(1)
    while !isDone() {
      let remaining = clock.now.duration(to: end)
      if remaining <= .zero { return }
      let step = min(pause, remaining)
      let seconds = Double(step.components.seconds) + Double(step.components.attoseconds) / 1e18
      let wakeUp = Date(timeIntervalSinceNow: seconds)
      // A run loop with no sources returns at once; sleep out the rest of the step either way.
      if Thread.isMainThread { RunLoop.current.run(until: wakeUp) }
      let rest = wakeUp.timeIntervalSinceNow
      if rest > 0 { Thread.sleep(forTimeInterval: rest) }
      pause = min(pause * 2, .milliseconds(20))
    }
  }
}
