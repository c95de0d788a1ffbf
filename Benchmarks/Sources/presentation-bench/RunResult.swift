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
    let numerator: Figure
    let denominator: Figure
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
  /// Observe then cancel, cancel among n: nanoseconds per operation.
  var registrationCosts: [Figure: Statistics] = [:]
  /// Heap allocations per post, keyed by the post figure.
  var allocationsPerPost: [Figure: Double] = [:]
  var allocationsNote: String?
  /// Heap bytes per registration, by contender.
  var bytesPerRegistration: [Contender: Double] = [:]
  /// Bytes per owner-bound registration with every owner's weak side table already made.
  var ownerBoundBytesWithSideTableMadeBefore: Double?
  /// Main-actor posts and observe-then-cancel: nanoseconds per operation.
  var mainActor: [Figure: Statistics] = [:]
  /// `mainActor.post.<observers>.<contender>/floor`, against the main-actor floor.
  var mainActorRatios: [String: Statistics] = [:]
  var pendingDelete: [String: Statistics] = [:]
  var pendingDeleteNote: String?
  var budget: [BudgetRow] = []
  /// Figures that could not be produced; the run exits non-zero when this is not empty.
  var missing: [String] = []

  /// The median of `numerator ÷ denominator`, when both were timed.
  func ratio(_ numerator: Figure, over denominator: Figure) -> Double? {
    ratios.first { $0.numerator == numerator && $0.denominator == denominator }?.value.median
  }
}
