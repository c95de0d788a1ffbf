import PresentationModel

/// The cost of making and ending registrations.
@MainActor
enum RegistrationCases {
  /// `observe` then `cancel` at once, repeatedly, next to one standing observer (so the type's
  /// channel exists, as it does in an app).
  static func observeThenCancel() -> TimedCase {
    let center = TypedNotificationCenter()
    let sink = Sink.make()
    let standing = Workloads.observeWithTokens(center, observers: 1, sink: sink)
    return TimedCase(key: "observeThenCancel") { iterations in
      let elapsed = Stopwatch.time { Workloads.observeThenCancel(center, iterations: iterations, sink: sink) }
      guard center.observerCount(for: Tick.self) == 1 else {
        fatalError("observe-then-cancel left registrations behind; the figure cannot be produced")
      }
      withExtendedLifetime(standing) {}
      return (elapsed, iterations)
    }
  }

  /// Cancels, in random order, every one of `population` registrations; the figure is the mean
  /// cost of one cancel. Populations smaller than `cancelsPerBatch` are repeated on fresh centers.
  /// Registering and releasing the tokens is not timed.
  static func cancelAmong(population: Int, cancelsPerBatch: Int) -> TimedCase {
    var generator = SplitMix64(seed: UInt64(population))
    let sink = Sink.make()
    return TimedCase(key: "cancel.among.\(population)", fixedIterations: 1) { _ in
      let centers = Swift.max(1, cancelsPerBatch / population)
      var elapsed = 0.0
      for _ in 0..<centers {
        let center = TypedNotificationCenter()
        var tokens = Workloads.observeWithTokens(center, observers: population, sink: sink)
        tokens.shuffle(using: &generator)
        elapsed += Stopwatch.time { Workloads.cancelAll(tokens) }
        guard center.observerCount(for: Tick.self) == 0 else {
          fatalError("cancel among \(population) left registrations behind; the figure cannot be produced")
        }
      }
      return (elapsed, centers * population)
    }
  }
}

/// A small, seeded generator so that every run cancels in the same pseudo-random orders.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
