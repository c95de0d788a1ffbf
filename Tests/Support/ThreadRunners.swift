import Foundation

/// Runs `body` on `count` freshly started `Thread`s (real OS threads, not the cooperative pool)
/// and resumes once every one of them has returned.
///
/// The threads are held at a gate until all of them exist, so their work overlaps as much as the
/// machine allows. Waiting does not block a cooperative thread.
package func runOnThreads(
  _ count: Int, named name: String = "stress", _ body: @escaping @Sendable (_ threadIndex: Int) -> Void
) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    startThreads(count, named: name, body, allReturned: { continuation.resume() })
  }
}

/// Runs `body` on one freshly started thread, which is not the main actor's, and blocks the caller
/// until it has returned.
package func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  startThreads(1, named: "other", { _ in body() }, allReturned: { done.signal() })
  done.wait()
}

/// Starts `count` threads, holds them at a gate until all exist, runs `body` on each and calls
/// `allReturned` on the thread whose `body` returned last.
private func startThreads(
  _ count: Int, named name: String, _ body: @escaping @Sendable (_ threadIndex: Int) -> Void,
  allReturned: @escaping @Sendable () -> Void
) {
  let gate = DispatchSemaphore(value: 0)
  let remaining = LockedBox(count)
  for index in 0..<count {
    let thread = Thread {
      gate.wait()
      body(index)
      if remaining.withLock({ remaining in
        remaining -= 1
        return remaining == 0
      }) {
        allReturned()
      }
    }
    thread.name = "\(name)-\(index)"
    thread.start()
  }
  for _ in 0..<count { gate.signal() }
}
