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
  /// A line of source that tracked instances: the `#fileID` and `#line` of the `track` call.
  public struct Site: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The `#fileID` of the `track` call, such as `MyApp/Inspector.swift`.
    public let fileID: String
    /// The line of the `track` call.
    public let line: Int

    /// Creates a site, for comparing with a report's.
    public init(fileID: String, line: Int) {
      self.fileID = fileID
      self.line = line
    }

    /// `MyApp/Inspector.swift:12`.
    public var description: String { "\(fileID):\(line)" }

    /// Orders by file, then line.
    public static func < (lhs: Site, rhs: Site) -> Bool { (lhs.fileID, lhs.line) < (rhs.fileID, rhs.line) }
  }

  /// How many live instances one ``Site`` tracked.
  public struct SiteCount: Sendable, Hashable, CustomStringConvertible {
    /// Where they were tracked.
    public let site: Site
    /// How many of them are alive.
    public let liveCount: Int

    /// Creates a count, for comparing with a report's.
    public init(site: Site, liveCount: Int) {
      self.site = site
      self.liveCount = liveCount
    }

    /// `2 tracked at MyApp/Inspector.swift:12`.
    public var description: String { "\(liveCount) tracked at \(site)" }
  }

  /// One type: its live instances, its limit if it has one, and where the live ones were tracked.
  public struct TypeCount: Sendable, Hashable, CustomStringConvertible {
    /// The full type name, such as `MyApp.Inspector`.
    public let typeName: String
    /// How many tracked instances of exactly this type are alive.
    public let liveCount: Int
    /// The declared limit, or `nil` when the type has none.
    public let maximum: Int?
    /// The `track` calls of the live instances, most instances first.
    public let sites: [SiteCount]

    /// Creates a count, for comparing with a report's; `sites` are put in report order.
    public init(typeName: String, liveCount: Int, maximum: Int?, sites: [SiteCount]) {
      self.typeName = typeName
      self.liveCount = liveCount
      self.maximum = maximum
      self.sites = sites.sorted { ($1.liveCount, $0.site) < ($0.liveCount, $1.site) }
    }

    /// Whether more are alive than the limit allows.
    public var isOverBudget: Bool { maximum.map { liveCount > $0 } ?? false }

    /// `MyApp.Inspector: 2 live, at most 1, OVER BUDGET`, then one indented line per site.
    public var description: String {
      let header = "\(typeName): " + InstanceReport.countText(liveCount, maximum: maximum)
      return ([header] + sites.map { "  \($0)" }).joined(separator: "\n")
    }
  }

  /// One named group: its live members and its limit if it has one.
  public struct GroupCount: Sendable, Hashable, CustomStringConvertible {
    /// The group name given to ``InstanceBudget/track(_:maximum:group:fileID:line:)``.
    public let name: String
    /// How many tracked objects of the group are alive.
    public let liveCount: Int
    /// The declared limit, or `nil` when the group has none.
    public let maximum: Int?

    /// Creates a count, for comparing with a report's.
    public init(name: String, liveCount: Int, maximum: Int?) {
      self.name = name
      self.liveCount = liveCount
      self.maximum = maximum
    }

    /// Whether more are alive than the limit allows.
    public var isOverBudget: Bool { maximum.map { liveCount > $0 } ?? false }

    /// `group "Panels": 4 live, at most 3, OVER BUDGET`.
    public var description: String {
      "group \"\(name)\": " + InstanceReport.countText(liveCount, maximum: maximum)
    }
  }

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

  fileprivate static func countText(_ liveCount: Int, maximum: Int?) -> String {
    guard let maximum else { return "\(liveCount) live, no limit" }
    return "\(liveCount) live, at most \(maximum)" + (liveCount > maximum ? ", OVER BUDGET" : "")
  }
}
