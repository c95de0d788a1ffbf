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
  /// One type or group over its limit.
  public struct Overrun: Sendable, Hashable, CustomStringConvertible {
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

    /// The type or group over its limit.
    public let subject: Subject
    /// How many were alive at the check.
    public let liveCount: Int
    /// The declared limit.
    public let maximum: Int

    /// Creates an overrun, for comparing with a report's.
    public init(subject: Subject, liveCount: Int, maximum: Int) {
      self.subject = subject
      self.liveCount = liveCount
      self.maximum = maximum
    }

    /// For example `MyApp.Inspector: 2 live, at most 1`.
    public var description: String { "\(subject): \(liveCount) live, at most \(maximum)" }
  }

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
