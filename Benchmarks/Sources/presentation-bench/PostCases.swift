import Foundation
import PresentationModel

/// The contenders of the post figures, in the order the report prints them.
enum Contender: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable {
  /// Closures in an array, called in a loop: the floor.
  case floor
  /// `TypedNotificationCenter` with token-bound `observe(_:_:)` handlers.
  case ours
  /// `TypedNotificationCenter` with owner-bound `observe(_:owner:_:)` handlers.
  case oursOwnerBound
  /// `TypedNotificationCenter` with token-bound `observeOnMainActor(_:_:)` handlers, posted from
  /// the main queue (so delivered synchronously, as in a UI).
  case oursMainActor
  /// Foundation `NotificationCenter.MainActorMessage`: `post(_:)` / `addObserver(for:using:)`.
  case foundationTyped
  /// Foundation `post(name:object:userInfo:)` / `addObserver(forName:object:queue:using:)`.
  case foundationClassic

  var title: String {
    switch self {
    case .floor: "floor (closure array)"
    case .ours: "ours, token observe(_:_:)"
    case .oursOwnerBound: "ours, owner-bound observe(_:owner:_:)"
    case .oursMainActor: "ours, observeOnMainActor(_:_:)"
    case .foundationTyped: "Foundation MainActorMessage"
    case .foundationClassic: "Foundation classic (userInfo)"
    }
  }
}

/// A set-up post workload: its observers are registered and stay registered while it lives.
@MainActor
final class PostWorkload {
  let contender: Contender
  let observers: Int
  private let sink = Sink.make()
  private let post: (Int) -> Void
  /// Tokens, owners or Foundation observers: whatever keeps the observers alive.
  private let keepAlive: Any

  init(_ contender: Contender, observers: Int) {
    self.contender = contender
    self.observers = observers
    let sink = sink
    switch contender {
    case .floor:
      let handlers = Workloads.makeFloor(observers: observers, sink: sink)
      keepAlive = handlers
      post = { Workloads.postFloor(handlers, iterations: $0) }
    case .ours:
      (keepAlive, post) = Self.ours { Workloads.observeWithTokens($0, observers: observers, sink: sink) }
    case .oursOwnerBound:
      (keepAlive, post) = Self.ours { Workloads.observeWithOwners($0, observers: observers, sink: sink) }
    case .oursMainActor:
      (keepAlive, post) = Self.ours { MainActorWorkloads.observeOnMainActor($0, observers: observers, sink: sink) }
    case .foundationTyped:
      let center = NotificationCenter()
      keepAlive = (center, MainActorWorkloads.observeTyped(center, observers: observers, sink: sink))
      post = { MainActorWorkloads.postTyped(center, iterations: $0) }
    case .foundationClassic:
      let center = NotificationCenter()
      let tokens = Workloads.observeClassic(center, observers: observers, sink: sink)
      keepAlive = (center, tokens)
      post = { Workloads.postClassic(center, iterations: $0) }
    }
  }

  /// A new `TypedNotificationCenter` with the observers `observe` registers on it, and the loop that
  /// posts to it: the set-up of every `ours` contender, which differ only in how they observe.
  private static func ours(
    observe: (TypedNotificationCenter) -> Any
  ) -> (keepAlive: Any, post: (Int) -> Void) {
    let center = TypedNotificationCenter()
    return ((center, observe(center)), { Workloads.postOurs(center, iterations: $0) })
  }

  /// Posts `iterations` times (values 0, 1, 2, ...) and checks that every observer got every value.
  func run(iterations: Int) -> Double {
    let elapsed = Stopwatch.time { post(iterations) }
    let delivered = sink.take()
    let expected = observers * (iterations * (iterations - 1) / 2)
    guard delivered == expected else {
      fatalError(
        "\(contender.title), \(observers) observers: handlers summed \(delivered), expected \(expected); "
          + "the figure cannot be produced")
    }
    return elapsed
  }

  func timedCase() -> TimedCase {
    TimedCase(.post(contender, observers: observers)) { iterations in
      (self.run(iterations: iterations), iterations)
    }
  }
}
