import Synchronization

/// Counts the ``CaptureProbe``s alive: a handler that captures a probe shows, by the count, whether
/// the center still holds it. Counts derived from a weak owner cannot show that; captures can.
final class CaptureProbes: Sendable {
  private let alive = Atomic<Int>(0)
  private let peak = Atomic<Int>(0)

  /// Probes made and not yet deinitialised.
  var aliveCount: Int { alive.load(ordering: .sequentiallyConsistent) }
  /// The most that were alive at once.
  var peakCount: Int { peak.load(ordering: .sequentiallyConsistent) }

  func make() -> CaptureProbe {
    let now = alive.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    peak.max(now, ordering: .sequentiallyConsistent)
    return CaptureProbe(counter: self)
  }

  fileprivate func released() {
    alive.wrappingSubtract(1, ordering: .sequentiallyConsistent)
  }
}

/// An object for a handler to capture; its deinit tells its ``CaptureProbes``.
final class CaptureProbe: Sendable {
  private let counter: CaptureProbes

  fileprivate init(counter: CaptureProbes) {
    self.counter = counter
  }

  /// Something for a handler to call, so that it captures the probe.
  func touch() {}

  deinit { counter.released() }
}
