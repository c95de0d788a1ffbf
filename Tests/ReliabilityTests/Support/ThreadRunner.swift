import Foundation
import PresentationModel

/// Runs `body` on `count` freshly started `Thread`s (real OS threads, not the cooperative pool)
/// and resumes once every one of them has returned.
///
/// The threads are held at a gate until all of them exist, so their work overlaps as much as the
/// machine allows. Waiting does not block a cooperative thread.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (_ threadIndex: Int) -> Void) async {
  let gate = DispatchSemaphore(value: 0)
  let remaining = Countdown(count)
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    for index in 0..<count {
      let thread = Thread {
        gate.wait()
        body(index)
        if remaining.decrementReachesZero() { continuation.resume() }
      }
      thread.name = "stress-\(index)"
      thread.start()
    }
    for _ in 0..<count { gate.signal() }
  }
}

/// A thread-safe counter that says which decrement was the last.
private final class Countdown: Sendable {
  private let value: LockedState<Int>

  init(_ value: Int) {
    self.value = LockedState(value)
  }

  func decrementReachesZero() -> Bool {
    value.withLock { value in
      value -= 1
      return value == 0
    }
  }
}
