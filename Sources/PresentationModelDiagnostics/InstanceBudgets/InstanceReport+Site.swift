extension InstanceReport {
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
}
