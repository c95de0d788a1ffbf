/// The timed run's performance budget, checked against one run's figures.
enum Budget {
  static func rows(for result: RunResult) -> [RunResult.BudgetRow] {
    func ratio(_ numerator: Contender, _ denominator: Contender, _ observers: Int) -> Double? {
      result.ratio(.post(numerator, observers: observers), over: .post(denominator, observers: observers))
    }
    var rows: [RunResult.BudgetRow] = []
    func row(_ rule: String, _ measured: Double?, _ comparison: String, _ limit: Double, _ unit: String) {
      rows.append(.init(rule: rule, measured: measured, limit: limit, comparison: comparison, unit: unit))
    }
    row("post, 1 observer: ours ÷ floor", ratio(.ours, .floor, 1), "≤", 4, "×")
    row("post, 1 observer: Foundation typed ÷ ours", ratio(.foundationTyped, .ours, 1), "≥", 7, "×")
    row("post, 1 observer: Foundation classic ÷ ours", ratio(.foundationClassic, .ours, 1), "≥", 12, "×")
    for observers in [100, 1_000] {
      row("post, \(observers) observers: ours ÷ floor", ratio(.ours, .floor, observers), "≤", 1.5, "×")
      row(
        "post, \(observers) observers: Foundation typed ÷ ours", ratio(.foundationTyped, .ours, observers), "≥",
        2.5, "×")
    }
    for figure in [Figure.post(.ours, observers: 1), .post(.ours, observers: 100)] {
      row("heap allocations per post (\(figure))", result.allocationsPerPost[figure], "≤", 0, "")
    }
    row(
      "cancel among 100,000 ÷ among 100",
      result.ratio(.cancelAmong(population: 100_000), over: .cancelAmong(population: 100)), "≤", 3, "×")
    row(
      "bytes per registration, token observe(_:_:)", result.bytesPerRegistration[.ours], "≤", 200,
      " B")
    row(
      "bytes per registration, owner-bound, owner's side table counted",
      result.bytesPerRegistration[.oursOwnerBound], "≤", 200, " B")
    row(
      "bytes per registration, owner-bound, side table made before",
      result.ownerBoundBytesWithSideTableMadeBefore, "≤", 200, " B")
    return rows
  }
}
