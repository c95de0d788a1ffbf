extension InstanceReport {
  /// How many live instances one ``Site`` tracked.
  public struct SiteCount: Sendable, Hashable, CustomStringConvertible {
    /// Where they were tracked.
    public let site: Site
    /// How many of them are alive.
    public let liveCount: Int

    /// Creates a count, for comparing with a report's; a report lists only sites with live
    /// instances, so `liveCount` must be one or more.
    public init(site: Site, liveCount: Int) {
      precondition(liveCount > 0, "InstanceReport.SiteCount needs a live count of one or more, not \(liveCount)")
      self.site = site
      self.liveCount = liveCount
    }

    /// `2 tracked at MyApp/Inspector.swift:12`.
    public var description: String { "\(liveCount) tracked at \(site)" }
  }
}
