extension BudgetReport {
  /// One type or group over its limit.
  public struct Overrun: Sendable, Hashable, CustomStringConvertible {
    /// The type or group over its limit.
    public let subject: Subject
    /// How many were alive at the check.
    public let liveCount: Int
    /// The declared limit.
    public let maximum: Int

    /// Creates an overrun, for comparing with a report's; `liveCount` must exceed `maximum`.
    public init(subject: Subject, liveCount: Int, maximum: Int) {
      precondition(
        liveCount > maximum,
        "BudgetReport.Overrun needs more live instances than its maximum, not \(liveCount) with at most \(maximum)")
      self.subject = subject
      self.liveCount = liveCount
      self.maximum = maximum
    }

    /// For example `MyApp.Inspector: 2 live, at most 1`.
    public var description: String { "\(subject): \(liveCount) live, at most \(maximum)" }
  }
}
