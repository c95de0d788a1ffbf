/// The performance budget of issue 6, checked against one run's figures.
enum Budget {
  static func rows(for result: RunResult) -> [RunResult.BudgetRow] {
    func ratio(_ name: String) -> Double? {
      result.ratios.first { $0.name == name }?.value.median
    }
    var rows: [RunResult.BudgetRow] = []
    func row(_ rule: String, _ measured: Double?, _ comparison: String, _ limit: Double, _ unit: String) {
      rows.append(.init(rule: rule, measured: measured, limit: limit, comparison: comparison, unit: unit))
    }
    row("post, 1 observer: ours ÷ floor", ratio("post.1.ours/floor"), "≤", 4, "×")
    row("post, 1 observer: Foundation typed ÷ ours", ratio("post.1.foundationTyped/ours"), "≥", 7, "×")
    row("post, 1 observer: Foundation classic ÷ ours", ratio("post.1.foundationClassic/ours"), "≥", 12, "×")
    for observers in [100, 1_000] {
      row("post, \(observers) observers: ours ÷ floor", ratio("post.\(observers).ours/floor"), "≤", 1.5, "×")
      row(
        "post, \(observers) observers: Foundation typed ÷ ours", ratio("post.\(observers).foundationTyped/ours"), "≥",
        2.5, "×")
    }
    for key in ["allocations.ours.1", "allocations.ours.100"] {
      row("heap allocations per post (\(key))", result.allocationsPerPost[key], "≤", 0, "")
    }
    row("cancel among 100,000 ÷ among 100", ratio("cancel.among.100000/100"), "≤", 3, "×")
    row(
      "bytes per registration, token observe(_:_:)", result.bytesPerRegistration[Contender.ours.rawValue], "≤", 200,
      " B")
    row(
      "bytes per registration, owner-bound, owner's side table counted",
      result.bytesPerRegistration[Contender.oursOwnerBound.rawValue], "≤", 200, " B")
    row(
      "bytes per registration, owner-bound, side table made before",
      result.bytesPerRegistration[RunResult.ownerBoundExcludingSideTableKey], "≤", 200, " B")
    return rows
  }
}
