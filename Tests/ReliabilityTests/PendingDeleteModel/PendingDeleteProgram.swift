import PresentationModel
import PresentationTestSupport

/// A random interleaving of deletions, re-deletions, cancellations and clock advances for a few
/// widgets, run against both the real ``PendingDelete`` (on a `ManualStepScheduler`) and
/// ``ReferencePendingDelete``.
///
/// Every `delete` call (top-level or made from a completion) gets the next call id, 0, 1, 2, …, in
/// both runs, so completions can be compared call by call.
struct PendingDeleteProgram: ShrinkableProgram {
  /// What a completion does when it is called: re-enter the helper.
  enum Reaction: Sendable, Hashable, CustomStringConvertible {
    case delete(widget: Int)
    case cancel(widget: Int)

    var description: String {
      switch self {
      case .delete(let widget): "delete w\(widget)"
      case .cancel(let widget): "cancel w\(widget)"
      }
    }
  }

  enum Operation: Sendable, Hashable, CustomStringConvertible {
    /// `fadeOutAndDispose(_:completion:)`; the completion performs `reactions` (whose own deletions
    /// react with nothing).
    case delete(widget: Int, reactions: [Reaction])
    case cancel(widget: Int)
    case cancelAll
    /// Moves the manual clock on by this many milliseconds.
    case advance(milliseconds: Int)

    var description: String {
      switch self {
      case .delete(let widget, let reactions):
        "delete w\(widget)"
          + (reactions.isEmpty ? "" : " then [\(reactions.map(\.description).joined(separator: "; "))]")
      case .cancel(let widget): "cancel w\(widget)"
      case .cancelAll: "cancel all"
      case .advance(let milliseconds): "advance \(milliseconds) ms"
      }
    }
  }

  /// What both runs record, in order.
  enum Event: Sendable, Hashable, CustomStringConvertible {
    case disposed(widget: Int)
    case completed(call: Int, PendingDelete.Outcome)
    case cancelReturned(widget: Int, Bool)
    /// After each top-level operation.
    case state(opacities: [Double], disposeCounts: [Int], pending: [Bool], pendingCount: Int)

    var description: String {
      switch self {
      case .disposed(let widget): "w\(widget) disposed"
      case .completed(let call, let outcome): "call \(call) completed \(outcome)"
      case .cancelReturned(let widget, let result): "cancel w\(widget) returned \(result)"
      case .state(let opacities, let disposeCounts, let pending, let pendingCount):
        "opacities \(opacities), disposed \(disposeCounts), pending \(pending) (\(pendingCount))"
      }
    }
  }

  static let widgetCount = 3
  /// The widgets' starting opacities (not all 1, so restoring is visible).
  static let startOpacities: [Double] = [1, 0.8, 0.5]

  /// Steps per fade, and milliseconds per step: the fade lasts `steps × stepMilliseconds`.
  var steps: Int
  var stepMilliseconds: Int
  var operations: [Operation]

  var description: String {
    "steps \(steps), \(stepMilliseconds) ms per step\n"
      + operations.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
  }

  static func random(seed: UInt64) -> PendingDeleteProgram {
    var generator = SeededGenerator(seed: seed)
    let steps = Int.random(in: 1...4, using: &generator)
    let stepMilliseconds = [10, 20].randomElement(using: &generator) ?? 10
    var operations: [Operation] = []
    for _ in 0..<Int.random(in: 4...20, using: &generator) {
      let widget = Int.random(in: 0..<widgetCount, using: &generator)
      switch Int.random(in: 0..<100, using: &generator) {
      case 0..<35:
        let reactions = (0..<(generator.chance(70) ? 0 : Int.random(in: 1...2, using: &generator))).map { _ in
          let target = Int.random(in: 0..<widgetCount, using: &generator)
          return generator.chance(50) ? Reaction.delete(widget: target) : .cancel(widget: target)
        }
        operations.append(.delete(widget: widget, reactions: reactions))
      case 35..<50: operations.append(.cancel(widget: widget))
      case 50..<55: operations.append(.cancelAll)
      default: operations.append(.advance(milliseconds: [0, 5, 10, 15, 25, 40].randomElement(using: &generator) ?? 0))
      }
    }
    return PendingDeleteProgram(steps: steps, stepMilliseconds: stepMilliseconds, operations: operations)
  }

  /// Smaller programs that might still fail: each operation removed, then each reaction.
  var shrinkCandidates: [PendingDeleteProgram] {
    var candidates: [PendingDeleteProgram] = []
    for index in operations.indices {
      var smaller = self
      smaller.operations.remove(at: index)
      candidates.append(smaller)
    }
    for index in operations.indices {
      guard case .delete(let widget, let reactions) = operations[index] else { continue }
      for reaction in reactions.indices {
        var fewer = reactions
        fewer.remove(at: reaction)
        var smaller = self
        smaller.operations[index] = .delete(widget: widget, reactions: fewer)
        candidates.append(smaller)
      }
    }
    return candidates
  }

}
