import Dispatch

/// Monotonic nanoseconds (`CLOCK_MONOTONIC` through Dispatch).
enum Stopwatch {
  @inline(__always)
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Runs `body` and returns the elapsed nanoseconds.
  @inline(__always)
  static func time(_ body: () -> Void) -> Double {
    let start = now()
    body()
    return Double(now() - start)
  }
}
