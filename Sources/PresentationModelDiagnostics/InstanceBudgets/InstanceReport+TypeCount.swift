extension InstanceReport {
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
}
