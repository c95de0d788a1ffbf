import Foundation
import PresentationModel

/// A set-up observe-then-cancel workload: one standing observer of `contender` (so the type's
/// channel, or the center's table, exists, as it does in an app), and a loop that registers one
/// more observer and ends it at once.
@MainActor
final class RegistrationWorkload {
  let contender: Contender
  private let sink = Sink.make()
  private let cycle: (Int) -> Void
  /// Posts `Tick(value: 1)` once, to check that exactly the standing observer is left.
  private let postOne: () -> Void
  /// The center, the standing observer and its owner: whatever must stay alive.
  private let keepAlive: Any

  init(_ contender: Contender) {
    self.contender = contender
    let sink = sink
    switch contender {
    case .floor:
      let registry = FloorRegistry()
      keepAlive = Workloads.observeFloor(registry, sink: sink)
      cycle = { Workloads.observeFloorThenCancel(registry, iterations: $0, sink: sink) }
      postOne = { registry.post(Tick(value: 1)) }
    case .ours:
      (keepAlive, cycle, postOne) = Self.ours(
        standing: { Workloads.observeWithToken($0, sink: sink) },
        cycle: { Workloads.observeThenCancel($0, iterations: $1, sink: sink) })
    case .oursOwnerBound:
      let owner = TickOwner(sink: sink)
      (keepAlive, cycle, postOne) = Self.ours(
        standing: { center in
          Workloads.observe(center, owner: owner)
          return owner
        },
        cycle: { Workloads.observeThenCancel($0, owner: owner, iterations: $1) })
    case .oursMainActor:
      (keepAlive, cycle, postOne) = Self.ours(
        standing: { MainActorWorkloads.observeOnMainActor($0, sink: sink) },
        cycle: { MainActorWorkloads.observeOnMainActorThenCancel($0, iterations: $1, sink: sink) })
    case .foundationTyped:
      let center = NotificationCenter()
      keepAlive = (center, MainActorWorkloads.observeTyped(center, sink: sink))
      cycle = { MainActorWorkloads.observeTypedThenRemove(center, iterations: $0, sink: sink) }
      postOne = { center.post(TickMessage(value: 1)) }
    case .foundationClassic:
      let center = NotificationCenter()
      keepAlive = (center, Workloads.observeClassic(center, sink: sink))
      cycle = { Workloads.observeClassicThenRemove(center, iterations: $0, sink: sink) }
      postOne = { center.post(name: classicTickName, object: nil, userInfo: ["value": 1]) }
    }
  }

  /// A new `TypedNotificationCenter` with the standing observer `standing` registers on it, the
  /// observe-then-cancel loop `cycle` on it, and the post that checks it: the set-up of every `ours`
  /// contender, which differ only in how they observe.
  private static func ours(
    standing: (TypedNotificationCenter) -> Any, cycle: @escaping (TypedNotificationCenter, Int) -> Void
  ) -> (keepAlive: Any, cycle: (Int) -> Void, postOne: () -> Void) {
    let center = TypedNotificationCenter()
    return ((center, standing(center)), { cycle(center, $0) }, { center.post(Tick(value: 1)) })
  }

  /// Registers and ends `iterations` observers, then checks that one post reaches the standing
  /// observer only.
  func run(iterations: Int) -> Double {
    let elapsed = Stopwatch.time { cycle(iterations) }
    postOne()
    let delivered = sink.take()
    guard delivered == 1 else {
      fatalError(
        "\(contender.title), observe then cancel: a post after it reached \(delivered) observers, expected the "
          + "standing one; the figure cannot be produced")
    }
    withExtendedLifetime(keepAlive) {}
    return elapsed
  }

  func timedCase() -> TimedCase {
    TimedCase(.observeThenCancel(contender)) { iterations in (self.run(iterations: iterations), iterations) }
  }
}

/// The cost of ending registrations among many.
@MainActor
enum RegistrationCases {
  /// Cancels, in random order, every one of `population` registrations; the figure is the mean
  /// cost of one cancel. Populations smaller than `cancelsPerBatch` are repeated on fresh centers.
  /// Registering and releasing the tokens is not timed.
  static func cancelAmong(population: Int, cancelsPerBatch: Int) -> TimedCase {
    var generator = SplitMix64(seed: UInt64(population))
    let sink = Sink.make()
    return TimedCase(.cancelAmong(population: population), fixedIterations: 1) { _ in
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
