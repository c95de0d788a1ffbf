extension InstanceReport {
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
}
