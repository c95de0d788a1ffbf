import Foundation

/// Every figure of one `--instructions` run, as printed and as written by `--json`.
struct InstructionResult: Codable, Sendable {
  let date: String
  let quick: Bool
  /// Whether each figure was also run at 3 N to check that the counts are exact.
  let verified: Bool
  var counts: [Figure: InstructionCounter.Count] = [:]
  /// Heap bytes per registration, by contender (glibc, in this process, not under valgrind).
  var bytesPerRegistration: [Contender: Double] = [:]
  /// 1,000,000 objects made and freed, timed in a child process (``EveryObjectCases``).
  var everyObjectTimes: EveryObjectCases.Times?
  var budget: [InstructionBudget.Row] = []
  /// Figures that could not be produced; the run exits non-zero when this is not empty.
  var missing: [String] = []

  /// Enforced budget rows that are not met or could not be measured.
  var enforcedRowsNotMet: [InstructionBudget.Row] { budget.filter { $0.enforced && $0.met != true } }
}

/// `presentation-bench --instructions`: instructions and allocations per operation counted under
/// callgrind (``InstructionCounter``), bytes per registration, and the instruction budget.
@MainActor
struct InstructionRun {
  nonisolated static let observerCounts = [1, 100, 1_000]
  let quick: Bool

  /// The post figures and observe-then-cancel figures of every contender; with `quick`, only those
  /// the budget reads.
  static func figures(quick: Bool) -> [Figure] {
    if quick {
      return [Contender.floor, .ours, .oursOwnerBound, .oursMainActor].flatMap { contender in
        observerCounts.map { Figure.post(contender, observers: $0) }
      } + [.observeThenCancel(.ours), .observeThenCancel(.foundationClassic)] + mainActorFigures
        + EveryObjectCases.figures
    }
    return Contender.allCases.flatMap { contender in
      observerCounts.map { Figure.post(contender, observers: $0) } + [.observeThenCancel(contender)]
    } + mainActorFigures + EveryObjectCases.figures
  }

  /// `MainActorNotificationCenter`'s token post next to the main-actor floor, at the counts the
  /// budget reads.
  static var mainActorFigures: [Figure] {
    [MainActorCases.Contender.floor, .token].flatMap { contender in
      [100, 1_000].map { Figure.mainActorPost(contender, observers: $0) }
    }
  }

  private func progress(_ text: String) {
    FileHandle.standardError.write(Data("[presentation-bench] \(text)\n".utf8))
  }

  func run() -> InstructionResult {
    #if DEBUG
      progress(
        "WARNING: debug build; counts mean little. "
          + "Use `swift run -c release --package-path Benchmarks presentation-bench`.")
    #endif
    var result = InstructionResult(
      date: ISO8601DateFormatter().string(from: Date()), quick: quick, verified: !quick)
    let figures = Self.figures(quick: quick)
    progress(
      "counting instructions under callgrind: \(figures.count) figures, \(figures.count * (quick ? 2 : 3)) children")
    do {
      result.counts = try InstructionCounter.count(figures, verify: !quick)
      for (figure, count) in result.counts where count.exact == false {
        result.missing.append("\(figure): the counts at N, 2 N and 3 N are not in a straight line")
      }
    } catch {
      result.missing.append("instructions per operation: \(error)")
    }
    if MemoryFootprint.isAvailable {
      progress("bytes per registration over 100,000 registrations")
      for contender in quick ? [.ours] : Contender.allCases {
        result.bytesPerRegistration[contender] = MemoryFootprint.bytesPerRegistration(contender, count: 100_000)
      }
    } else {
      result.missing.append("bytes per registration: needs glibc's malloc_stats")
    }
    progress("every-object tracking: 1,000,000 objects made and freed, timed")
    switch EveryObjectCases.times() {
    case .success(let times): result.everyObjectTimes = times
    case .failure(let failure): result.missing.append("every-object tracking, 1,000,000 objects: \(failure)")
    }
    result.budget = InstructionBudget.rows(
      counts: result.counts, bytes: result.bytesPerRegistration, everyObjectTimes: result.everyObjectTimes)
    return result
  }
}
