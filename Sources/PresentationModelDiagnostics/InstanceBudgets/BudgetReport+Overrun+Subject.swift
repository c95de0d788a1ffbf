extension BudgetReport.Overrun {
  /// What a limit applies to.
  public enum Subject: Sendable, Hashable, CustomStringConvertible {
    /// Instances of exactly this type (its full name, such as `MyApp.Inspector`).
    case type(String)
    /// Objects tracked with this group name.
    case group(String)

    /// The type's full name, or `group "Name"`.
    public var description: String {
      switch self {
      case .type(let name): name
      case .group(let name): "group \"\(name)\""
      }
    }
  }
}
