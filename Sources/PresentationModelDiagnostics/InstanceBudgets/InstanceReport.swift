/// Everything an ``InstanceBudget`` counts, at one moment: each type and group with its live count
/// and limit, and the lines that tracked the live instances. Its description is a text report to
/// print or log.
///
/// ```swift
/// import PresentationModelDiagnostics
///
/// final class NodeWidget {
///   init(budget: InstanceBudget) { budget.track(self, group: "Canvas") }
/// }
///
/// let budget = InstanceBudget()
/// budget.limit(group: "Canvas", to: 1)
/// let widgets = [NodeWidget(budget: budget), NodeWidget(budget: budget)]
/// let report = budget.report()
/// if !report.isWithinBudget { print(report) }
/// _ = widgets
/// ```
///
/// The description reads like this (one type, tracked at one line, in a group over its limit):
///
/// ```text
/// 2 live instances, 1 limit exceeded
/// MyApp.NodeWidget: 2 live, no limit
///   2 tracked at MyApp/NodeWidget.swift:4
/// group "Canvas": 2 live, at most 1, OVER BUDGET
/// ```
public struct InstanceReport: Sendable, Equatable, CustomStringConvertible {
  /// Every type that has live instances or a limit, by name.
  public let types: [TypeCount]
  /// Every group that has live members or a limit, by name.
  public let groups: [GroupCount]

  /// Creates a report, for comparing with a real one; ``InstanceBudget/report()`` makes those.
  public init(types: [TypeCount], groups: [GroupCount]) {
    self.types = types.sorted { $0.typeName < $1.typeName }
    self.groups = groups.sorted { $0.name < $1.name }
  }

  /// How many tracked instances are alive, over all types.
  public var liveCount: Int { types.reduce(0) { $0 + $1.liveCount } }

  /// Each type and group over its limit, sorted by name, as ``InstanceBudget/check()`` reports them.
  public var overruns: [BudgetReport.Overrun] {
    let typeOverruns = types.compactMap { type in
      type.maximum.flatMap { maximum in
        type.isOverBudget
          ? BudgetReport.Overrun(subject: .type(type.typeName), liveCount: type.liveCount, maximum: maximum) : nil
      }
    }
    let groupOverruns = groups.compactMap { group in
      group.maximum.flatMap { maximum in
        group.isOverBudget
          ? BudgetReport.Overrun(subject: .group(group.name), liveCount: group.liveCount, maximum: maximum) : nil
      }
    }
    return (typeOverruns + groupOverruns).sorted { $0.subject.description < $1.subject.description }
  }

  /// Whether every type and group is within its limit.
  public var isWithinBudget: Bool {
    !types.contains(where: \.isOverBudget) && !groups.contains(where: \.isOverBudget)
  }

  /// A summary line, then each type with its sites, then each group.
  public var description: String {
    let noun = liveCount == 1 ? "instance" : "instances"
    let exceeded = overruns.count
    let verdict = exceeded == 0 ? "within budget" : "\(exceeded) \(exceeded == 1 ? "limit" : "limits") exceeded"
    let header = "\(liveCount) live \(noun), \(verdict)"
    return ([header] + types.map(\.description) + groups.map(\.description)).joined(separator: "\n")
  }

  /// `2 live, at most 1, OVER BUDGET` or `2 live, no limit`: a type's or a group's count.
  static func countText(_ liveCount: Int, maximum: Int?) -> String {
    guard let maximum else { return "\(liveCount) live, no limit" }
    return "\(liveCount) live, at most \(maximum)" + (liveCount > maximum ? ", OVER BUDGET" : "")
  }
}
