import Foundation
import PresentationModel

// The main-actor rows: MainActorNotificationCenter next to a main-actor floor, the
// posting-thread center and Foundation's MainActorMessage, all posted from the main actor with the
// same one-add handler. Handlers here are formed in main-actor code and stored as main-actor
// function types, which is what a main-actor user writes; calling them from the main actor needs no
// run-time isolation check.

/// The main-actor payload: one integer, and not required to be Sendable.
struct MainTick: MainActorNotification {
  let value: Int
}

/// A non-Sendable owner for owner-bound main-actor observers.
final class MainTickOwner {
  let sink: Sink
  init(sink: Sink) { self.sink = sink }
}

/// The main-actor floor: main-actor closures held in an array, called in a loop.
typealias MainActorFloorHandlers = ContiguousArray<@MainActor (MainTick) -> Void>

@MainActor
enum MainActorCases {
  /// The post contenders of the main-actor table, in print order.
  enum Contender: String, CaseIterable {
    case floor
    case token
    case ownerBound
    case foundationTyped

    var title: String {
      switch self {
      case .floor: "main-actor floor (closure array)"
      case .token: "main-actor center, token"
      case .ownerBound: "main-actor center, owner-bound"
      case .foundationTyped: "Foundation MainActorMessage"
      }
    }
  }

  nonisolated static let observerCounts = [1, 100, 1_000]

  nonisolated static func key(_ contender: Contender, _ observers: Int) -> Figure {
    .mainActorPost(contender, observers: observers)
  }

  /// Every main-actor case: posts for each contender and observer count, and observe-then-cancel.
  static func cases() -> [TimedCase] {
    var cases: [TimedCase] = []
    for observers in observerCounts {
      for contender in Contender.allCases {
        cases.append(postCase(contender, observers: observers))
      }
    }
    cases.append(observeThenCancel())
    return cases
  }

  static func postCase(_ contender: Contender, observers: Int) -> TimedCase {
    let sink = Sink.make()
    let post: (Int) -> Void
    let keepAlive: Any
    switch contender {
    case .floor:
      // Formed the way the centers' handlers are (a closure literal passed where a main-actor
      // function type is expected, inside `map`): a literal appended directly is inferred
      // `@Sendable @MainActor` and gets a run-time isolation check in its prologue (about 340
      // instructions a call here), which would make the floor, not the centers, the slow row.
      let handlers = MainActorFloorHandlers((0..<observers).map { _ in makeFloorHandler(sink) })
      keepAlive = handlers
      post = { postFloor(handlers, iterations: $0) }
    case .token:
      let center = MainActorNotificationCenter()
      keepAlive = (0..<observers).map { _ in
        center.observe(MainTick.self) { tick in sink.pointer.pointee &+= tick.value }
      }
      post = { postCenter(center, iterations: $0) }
    case .ownerBound:
      let center = MainActorNotificationCenter()
      keepAlive = (0..<observers).map { _ in
        let owner = MainTickOwner(sink: sink)
        center.observe(MainTick.self, owner: owner) { owner, tick in owner.sink.pointer.pointee &+= tick.value }
        return owner
      }
      post = { postCenter(center, iterations: $0) }
    case .foundationTyped:
      let center = NotificationCenter()
      keepAlive = (center, MainActorWorkloads.observeTyped(center, observers: observers, sink: sink))
      post = { MainActorWorkloads.postTyped(center, iterations: $0) }
    }
    return TimedCase(key(contender, observers)) { iterations in
      let elapsed = Stopwatch.time { post(iterations) }
      let delivered = sink.take()
      guard delivered == observers * (iterations * (iterations - 1) / 2) else {
        fatalError("\(contender.title), \(observers) observers: a delivery is missing; the figure cannot be produced")
      }
      withExtendedLifetime(keepAlive) {}
      return (elapsed, iterations)
    }
  }

  /// The child mode for counting heap allocations by hand under valgrind (see Performance.md):
  /// `--count-main-actor-allocations <contender> <observers> <posts>` sets up the case, posts 64
  /// times to warm up, then `posts` times, and exits.
  static func runAllocationChild(_ arguments: [String]) -> Never {
    guard arguments.count == 3, let contender = Contender(rawValue: arguments[0]),
      let observers = Int(arguments[1]), let posts = Int(arguments[2])
    else {
      FileHandle.standardError.write(
        Data(
          "usage: --count-main-actor-allocations <floor|token|ownerBound|foundationTyped> <observers> <posts>\n".utf8))
      exit(64)
    }
    let timedCase = postCase(contender, observers: observers)
    _ = timedCase.runBatch(64)
    _ = timedCase.runBatch(posts)
    exit(0)
  }

  /// `observe` then `cancel` at once on the main actor, next to one standing observer.
  static func observeThenCancel() -> TimedCase {
    let center = MainActorNotificationCenter()
    let sink = Sink.make()
    let standing = center.observe(MainTick.self) { tick in sink.pointer.pointee &+= tick.value }
    return TimedCase(.mainActorObserveThenCancel) { iterations in
      let elapsed = Stopwatch.time { observeThenCancel(center, iterations: iterations, sink: sink) }
      guard center.observerCount(for: MainTick.self) == 1 else {
        fatalError("main-actor observe-then-cancel left registrations behind; the figure cannot be produced")
      }
      withExtendedLifetime(standing) {}
      return (elapsed, iterations)
    }
  }

  private static func makeFloorHandler(_ sink: Sink) -> @MainActor (MainTick) -> Void {
    { tick in sink.pointer.pointee &+= tick.value }
  }

  @inline(never)
  private static func postFloor(_ handlers: MainActorFloorHandlers, iterations: Int) {
    for value in 0..<iterations {
      let tick = MainTick(value: value)
      for handler in handlers { handler(tick) }
    }
  }

  @inline(never)
  private static func postCenter(_ center: MainActorNotificationCenter, iterations: Int) {
    for value in 0..<iterations { center.post(MainTick(value: value)) }
  }

  @inline(never)
  private static func observeThenCancel(_ center: MainActorNotificationCenter, iterations: Int, sink: Sink) {
    for _ in 0..<iterations {
      let token = center.observe(MainTick.self) { tick in sink.pointer.pointee &+= tick.value }
      token.cancel()
    }
  }

  // MARK: Report

  /// The main-actor table: nanoseconds per post, and ratios to the main-actor floor formed round by
  /// round.
  nonisolated static func report(_ figures: [Figure: Statistics], ratios: [String: Statistics]) -> [String] {
    func cell(_ statistics: Statistics?) -> String {
      guard let statistics else { return "—" }
      let decimals = statistics.median < 100 ? 1 : 0
      return String(format: "%.\(decimals)f ±%.0f%%", statistics.median, statistics.spreadPercent)
    }
    func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
      let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
      return left ? text + padding : padding + text
    }
    var lines = ["MAIN ACTOR — nanoseconds per post (all observers), posted from the main actor"]
    lines.append(pad("", 40, left: true) + observerCounts.map { pad("\($0) obs", 16) }.joined())
    for contender in Contender.allCases {
      lines.append(
        pad(contender.title, 40, left: true)
          + observerCounts.map { pad(cell(figures[key(contender, $0)]), 16) }.joined())
    }
    for contender in Contender.allCases where contender != .floor {
      lines.append(
        pad("\(contender.rawValue) ÷ main-actor floor", 40, left: true)
          + observerCounts.map { observers in
            let ratio = ratios[ratioName(contender, observers)]
            return pad(ratio.map { String(format: "%.2f×", $0.median) } ?? "—", 16)
          }.joined())
    }
    lines.append(
      pad("observe then cancel (ns)", 40, left: true) + pad(cell(figures[.mainActorObserveThenCancel]), 16))
    return lines
  }

  nonisolated static func ratioName(_ contender: Contender, _ observers: Int) -> String {
    "mainActor.post.\(observers).\(contender.rawValue)/floor"
  }

  /// Ratios to the main-actor floor, formed round by round from `samples` (per case key).
  nonisolated static func ratios(_ samples: [Figure: [Double]]) -> [String: Statistics] {
    var ratios: [String: Statistics] = [:]
    for observers in observerCounts {
      guard let floor = samples[key(.floor, observers)] else { continue }
      for contender in Contender.allCases where contender != .floor {
        guard let figures = samples[key(contender, observers)] else { continue }
        ratios[ratioName(contender, observers)] = Statistics(zip(figures, floor).map { $0 / $1 })
      }
    }
    return ratios
  }
}
