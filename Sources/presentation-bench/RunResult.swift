/// Every figure of one run, as printed and as written by `--json`.
struct RunResult: Codable, Sendable {
  struct Machine: Codable, Sendable {
    let date: String
    let processors: Int
    let model: String
    let quick: Bool
    let rounds: Int
  }

  /// A post figure: nanoseconds per post (not per observer).
  struct Post: Codable, Sendable {
    let contender: Contender
    let observers: Int
    let nanosecondsPerPost: Statistics
  }

  /// A ratio formed round by round from figures of the same round, then summarised.
  struct Ratio: Codable, Sendable {
    let name: String
    let value: Statistics
  }

  struct BudgetRow: Codable, Sendable {
    let rule: String
    let measured: Double?
    let limit: Double
    /// `"≤"` or `"≥"`.
    let comparison: String
    let unit: String
    /// `nil` when the figure was not measured.
    let met: Bool?

    init(rule: String, measured: Double?, limit: Double, comparison: String, unit: String) {
      self.rule = rule
      self.measured = measured
      self.limit = limit
      self.comparison = comparison
      self.unit = unit
      met = measured.map { comparison == "≤" ? $0 <= limit : $0 >= limit }
    }
  }

  var machine: Machine
  var posts: [Post] = []
  var ratios: [Ratio] = []
  /// `observeThenCancel`, `cancel.among.<n>`: nanoseconds per operation.
  var registrationCosts: [String: Statistics] = [:]
  /// `allocations.<contender>.<observers>`: heap allocations per post.
  var allocationsPerPost: [String: Double] = [:]
  var allocationsNote: String?
  /// Heap bytes per registration, by contender.
  var bytesPerRegistration: [String: Double] = [:]
  /// The key of the owner-bound figure measured with every owner's weak side table already made.
  static let ownerBoundExcludingSideTableKey = "oursOwnerBound.ownerAlreadyWeaklyReferenced"
  /// `mainActor.post.<contender>.<observers>`, `mainActor.observeThenCancel`: nanoseconds.
  var mainActor: [String: Statistics] = [:]
  /// `mainActor.post.<observers>.<contender>/floor`, against the main-actor floor.
  var mainActorRatios: [String: Statistics] = [:]
  var pendingDelete: [String: Statistics] = [:]
  var pendingDeleteNote: String?
  var budget: [BudgetRow] = []
  /// Figures that could not be produced; the run exits non-zero when this is not empty.
  var missing: [String] = []
}
