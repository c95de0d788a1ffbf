import Foundation
import PresentationModel

/// Ends the process with a message naming `work` if `body` has not returned within `limit`.
///
/// A deadlock (say, a lock held while a handler calls back into the center) blocks a thread for
/// good; Swift Testing's `.timeLimit` cannot interrupt a blocked thread, so the run would hang
/// until CI gives up. This turns the hang into a crash that says what did not finish.
///
/// - Parameter progress: Says how far the work got; printed with the message if the watchdog fires.
func failingOnDeadlock<Result>(
  _ work: String, limit: Duration = .seconds(120), progress: @escaping @Sendable () -> String = { "" },
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
) async rethrows -> Result {
  let watchdog = DeadlockWatchdog(work: work, limit: limit, progress: progress)
  defer { watchdog.disarm() }
  return try await body()
}

/// The synchronous form of ``failingOnDeadlock(_:limit:_:)-async``.
func failingOnDeadlock<Result>(_ work: String, limit: Duration = .seconds(120), _ body: () throws -> Result) rethrows
  -> Result
{
  let watchdog = DeadlockWatchdog(work: work, limit: limit, progress: { "" })
  defer { watchdog.disarm() }
  return try body()
}

private final class DeadlockWatchdog: Sendable {
  private let finished = LockedState(false)

  init(work: String, limit: Duration, progress: @escaping @Sendable () -> String) {
    let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) * 1e-18
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [finished] in
      if !finished.withLock({ $0 }) {
        let message =
          "\(work) did not finish within \(limit): a deadlock (a lock held while user code runs?) \(progress())"
        FileHandle.standardError.write(Data("\(message)\nEvery thread's stack follows.\n".utf8))
        DeadlockWatchdog.printEveryThreadsStack()
        fatalError(message)
      }
    }
  }

  /// Prints the stack of every thread of this process to standard error, through gdb when the
  /// machine has it. Without gdb, the Swift runtime's backtracer prints the crashing thread when
  /// `fatalError` follows (all threads with `SWIFT_BACKTRACE=enable=yes,threads=all`).
  private static func printEveryThreadsStack() {
    let gdb = "/usr/bin/gdb"
    guard FileManager.default.isExecutableFile(atPath: gdb) else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gdb)
    process.arguments = [
      "-p", String(ProcessInfo.processInfo.processIdentifier), "-batch", "-ex", "thread apply all bt",
    ]
    process.standardOutput = FileHandle.standardError
    process.standardError = FileHandle.standardError
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      FileHandle.standardError.write(Data("could not run gdb: \(error)\n".utf8))
    }
  }

  func disarm() {
    finished.withLock { $0 = true }
  }
}
