import Foundation

/// Formats an ``InstructionResult`` as the text report.
enum InstructionReport {
  private static func count(_ value: Double) -> String {
    if value == value.rounded() {
      let formatter = NumberFormatter()
      formatter.numberStyle = .decimal
      formatter.groupingSeparator = ","
      formatter.usesGroupingSeparator = true
      return formatter.string(from: NSNumber(value: value)) ?? String(Int(value))
    }
    return String(format: "%.2f", value)
  }

  private static func padded(_ text: String, _ width: Int, right: Bool = true) -> String {
    let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
    return right ? padding + text : text + padding
  }

  private static func limit(_ row: InstructionBudget.Row) -> String {
    "≤ \(row.unit == "×" ? String(format: "%.2f", row.limit) : count(row.limit))\(row.unit)"
  }

  /// "met", "not met (target ≤ 0.80×)" for a row CI does not enforce yet, "NOT met" for one it does.
  static func verdict(_ row: InstructionBudget.Row) -> String {
    switch (row.met, row.enforced) {
    case (true?, _): "met"
    case (false?, true): "NOT met (enforced)"
    case (false?, false): "not met (target \(limit(row)))"
    case (nil, _): row.enforced ? "NOT measured (enforced)" : "not measured"
    }
  }

  static func text(_ result: InstructionResult) -> String {
    var lines: [String] = []
    lines.append("presentation-bench --instructions\(result.quick ? " --quick" : "") — \(result.date)")
    let sizes = InstructionRun.observerCounts.map {
      "\(count(Double(InstructionCounter.iterations(for: .post(.floor, observers: $0))))) posts to \(count(Double($0)))"
    }
    lines.append(
      "method: callgrind, instructions inside InstructionRegion.measure, (count at 2 N − count at N) ÷ N; N = "
        + sizes.joined(separator: ", ") + ", "
        + "\(count(Double(InstructionCounter.iterations(for: .observeThenCancel(.ours))))) observe + cancel")
    lines.append(
      result.verified
        ? "exactness: every figure also run at 3 N; the two differences agree exactly unless marked *"
        : "--quick: only the figures the budget reads, each run at N and 2 N (the full run also checks 3 N)")
    lines.append("")

    let columnTitles = InstructionRun.observerCounts.map { "post, \(count(Double($0)))" } + ["observe+cancel"]
    func table(_ title: String, _ value: (InstructionCounter.Count) -> Double) {
      lines.append(title)
      lines.append(padded("", 40, right: false) + columnTitles.map { padded($0, 15) }.joined())
      for contender in Contender.allCases {
        let figures =
          InstructionRun.observerCounts.map { Figure.post(contender, observers: $0) }
          + [.observeThenCancel(contender)]
        guard figures.contains(where: { result.counts[$0] != nil }) else { continue }
        var line = padded(contender.title, 40, right: false)
        for figure in figures {
          let cell = result.counts[figure].map { count(value($0)) + ($0.exact == false ? "*" : "") } ?? "—"
          line += padded(cell, 15)
        }
        lines.append(line)
      }
      lines.append("")
    }
    table("INSTRUCTIONS PER OPERATION (a post: all observers together)") { $0.instructions }
    table("HEAP ALLOCATIONS PER OPERATION") { $0.allocations }

    lines.append(contentsOf: EveryObjectCases.reportLines(result.counts, times: result.everyObjectTimes))
    lines.append("BYTES PER REGISTRATION (glibc in-use bytes over 100,000 registrations)")
    for contender in Contender.allCases {
      guard let bytes = result.bytesPerRegistration[contender] else { continue }
      lines.append(padded(contender.title, 40, right: false) + padded(count(bytes.rounded()), 15))
    }
    lines.append("")

    lines.append("BUDGET (enforced rows are listed in InstructionBudget.enforced)")
    lines.append(
      padded("", 72, right: false) + padded("measured", 10) + padded("limit", 10) + padded("÷ limit", 9) + "  verdict")
    for row in result.budget {
      let measured =
        row.measured.map {
          switch row.unit {
          case "×": String(format: "%.2f×", $0)
          case " B": count($0.rounded()) + row.unit
          default: count($0) + row.unit
          }
        } ?? "—"
      let ratio = row.ratioToLimit.map { String(format: "%.2f", $0) } ?? "—"
      var line =
        padded(row.title, 72, right: false) + padded(measured, 10) + padded(limit(row), 10) + padded(ratio, 9) + "  "
        + verdict(row)
      if let note = row.note { line += "; \(note)" }
      lines.append(line)
    }
    if !result.missing.isEmpty {
      lines.append("")
      lines.append("FIGURES THAT COULD NOT BE PRODUCED")
      for missing in result.missing { lines.append("  \(missing)") }
    }
    return lines.joined(separator: "\n")
  }
}
