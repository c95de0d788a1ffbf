/// What ``InstanceBudget/check()`` found: each type or group with more live instances than its limit.
///
/// ```swift
/// import PresentationModelDiagnostics
///
/// let budget = InstanceBudget()
/// let report = budget.check()
/// assert(report.isWithinBudget)
/// ```
public struct BudgetReport: Sendable, Equatable, CustomStringConvertible {
  /// Every type and group over its limit, sorted by name.
  public let overruns: [Overrun]

  /// Creates a report; ``InstanceBudget/check()`` makes the real ones.
  public init(overruns: [Overrun]) {
    self.overruns = overruns
  }

  /// Whether every type and group was within its limit.
  public var isWithinBudget: Bool { overruns.isEmpty }

  /// `Within budget`, or one line per overrun after a summary.
  public var description: String {
    guard !isWithinBudget else { return "Within budget" }
    let noun = overruns.count == 1 ? "limit" : "limits"
    return (["\(overruns.count) instance \(noun) exceeded:"] + overruns.map { "- \($0)" }).joined(separator: "\n")
  }
}
