import Foundation
import PresentationModel

/// Ends the process with a message naming `work` if `body` has not returned within `limit`.
///
/// A deadlock (say, a lock held while a handler calls back into the center) blocks a thread for
/// good; Swift Testing's `.timeLimit` cannot interrupt a blocked thread, so the run would hang
/// until CI gives up. This turns the hang into a crash that says what did not finish.
func failingOnDeadlock<Result>(
  _ work: String, limit: Duration = .seconds(120), _ body: () async throws -> Result
) async rethrows -> Result {
  let watchdog = DeadlockWatchdog(work: work, limit: limit)
  defer { watchdog.disarm() }
  return try await body()
}

/// The synchronous form of ``failingOnDeadlock(_:limit:_:)-async``.
func failingOnDeadlock<Result>(_ work: String, limit: Duration = .seconds(120), _ body: () throws -> Result) rethrows
  -> Result
{
  let watchdog = DeadlockWatchdog(work: work, limit: limit)
  defer { watchdog.disarm() }
  return try body()
}

private final class DeadlockWatchdog: Sendable {
  private let finished = LockedState(false)

  init(work: String, limit: Duration) {
    let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) * 1e-18
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [finished] in
      if !finished.withLock({ $0 }) {
        fatalError("\(work) did not finish within \(limit): a deadlock (a lock held while user code runs?)")
      }
    }
  }

  func disarm() {
    finished.withLock { $0 = true }
  }
}
