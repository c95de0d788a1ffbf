import Foundation

/// Formats a ``RunResult`` as the text report or as JSON.
enum ReportPrinter {
  static func json(_ result: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = (try? encoder.encode(result)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  private static func number(_ value: Double, decimals: Int = 1) -> String {
    String(format: "%.\(decimals)f", value)
  }

  private static func padded(_ text: String, _ width: Int, right: Bool = true) -> String {
    let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
    return right ? padding + text : text + padding
  }

  private static func cell(_ statistics: Statistics) -> String {
    let decimals = statistics.median < 100 ? 1 : 0
    return "\(number(statistics.median, decimals: decimals)) ±\(number(statistics.spreadPercent, decimals: 0))%"
  }

  static func text(_ result: RunResult) -> String {
    var lines: [String] = []
    let machine = result.machine
    lines.append("presentation-bench \(machine.quick ? "--quick " : "")— \(machine.date)")
    lines.append("machine: \(machine.model), \(machine.processors) processors; \(machine.rounds) interleaved rounds")
    lines.append("figures: median over the rounds ± half the interquartile range, relative to the median")
    lines.append("")

    lines.append("POST — nanoseconds per post (all observers), handler = one add through a raw pointer")
    let counts = Array(Set(result.posts.map(\.observers))).sorted()
    lines.append(padded("", 40, right: false) + counts.map { padded("\($0) obs", 16) }.joined())
    for contender in Contender.allCases {
      var line = padded(contender.title, 40, right: false)
      for observers in counts {
        let post = result.posts.first { $0.contender == contender && $0.observers == observers }
        line += padded(post.map { cell($0.nanosecondsPerPost) } ?? "—", 16)
      }
      lines.append(line)
    }
    lines.append("")
    lines.append("RATIOS — formed round by round, median ± half the IQR")
    let ratioRows: [(title: String, numerator: Contender, denominator: Contender)] = [
      ("ours ÷ floor", .ours, .floor),
      ("owner-bound ÷ floor", .oursOwnerBound, .floor),
      ("main-actor ÷ floor", .oursMainActor, .floor),
      ("Foundation typed ÷ ours (× faster)", .foundationTyped, .ours),
      ("Foundation classic ÷ ours (× faster)", .foundationClassic, .ours),
    ]
    for row in ratioRows {
      var line = padded(row.title, 40, right: false)
      for observers in counts {
        let ratio = result.ratios.first {
          $0.numerator == .post(row.numerator, observers: observers)
            && $0.denominator == .post(row.denominator, observers: observers)
        }
        line += padded(
          ratio.map { "\(number($0.value.median, decimals: 2))× ±\(number($0.value.spreadPercent, decimals: 0))%" }
            ?? "—", 16)
      }
      lines.append(line)
    }
    lines.append("")

    lines.append("REGISTRATIONS — nanoseconds per operation")
    for (figure, statistics) in result.registrationCosts.sorted(by: { $0.key.description < $1.key.description }) {
      lines.append(padded(figure.description, 40, right: false) + padded(cell(statistics), 16))
    }
    for ratio in result.ratios {
      guard case .cancelAmong = ratio.numerator else { continue }
      lines.append(
        padded("\(ratio.numerator) ÷ \(ratio.denominator)", 40, right: false)
          + padded("\(number(ratio.value.median, decimals: 2))×", 16))
    }
    lines.append("")

    lines += MainActorCases.report(result.mainActor, ratios: result.mainActorRatios)
    lines.append("")

    lines.append("HEAP ALLOCATIONS PER POST (steady state)")
    if let note = result.allocationsNote { lines.append("  method: \(note)") }
    for (figure, value) in result.allocationsPerPost.sorted(by: { $0.key.description < $1.key.description }) {
      lines.append(padded(figure.description, 40, right: false) + padded(number(value, decimals: 2), 16))
    }
    lines.append("")

    lines.append("BYTES PER REGISTRATION (glibc mallinfo2 uordblks, 100,000 registrations)")
    for contender in Contender.allCases {
      guard let bytes = result.bytesPerRegistration[contender] else { continue }
      lines.append(padded(contender.title, 40, right: false) + padded(number(bytes, decimals: 0), 16))
      if contender == .oursOwnerBound, let shared = result.ownerBoundBytesWithSideTableMadeBefore {
        lines.append(
          padded("  owner already weakly referenced", 40, right: false)
            + padded(number(shared, decimals: 0), 16))
      }
    }
    lines.append("")

    lines.append("PENDING DELETE")
    if let note = result.pendingDeleteNote { lines.append("  \(note)") }
    for (key, statistics) in result.pendingDelete.sorted(by: { $0.key < $1.key }) {
      lines.append(padded(key, 40, right: false) + padded(cell(statistics), 16))
    }
    lines.append("")

    lines.append("BUDGET")
    for row in result.budget {
      let measured = row.measured.map { "\(number($0, decimals: 2))\(row.unit)" } ?? "not measured"
      let verdict = row.met.map { $0 ? "met" : "NOT met" } ?? "not measured"
      lines.append(
        padded(row.rule, 58, right: false) + padded(measured, 12)
          + padded("\(row.comparison) \(number(row.limit, decimals: 1))\(row.unit)", 12)
          + "  " + verdict)
    }
    if !result.missing.isEmpty {
      lines.append("")
      lines.append("FIGURES THAT COULD NOT BE PRODUCED")
      for missing in result.missing { lines.append("  \(missing)") }
    }
    return lines.joined(separator: "\n")
  }
}
