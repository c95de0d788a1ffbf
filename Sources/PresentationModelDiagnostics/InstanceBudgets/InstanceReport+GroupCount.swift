extension InstanceReport {
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
}
