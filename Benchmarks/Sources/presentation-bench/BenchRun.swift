import Foundation

/// Runs every figure once and gathers them into a ``RunResult``.
@MainActor
struct BenchRun {
  let configuration: BenchConfiguration

  init(_ configuration: BenchConfiguration) {
    self.configuration = configuration
  }

  private func progress(_ text: String) {
    FileHandle.standardError.write(Data("[presentation-bench] \(text)\n".utf8))
  }

  func run() -> RunResult {
    var result = RunResult(machine: Self.machine(configuration))
    #if DEBUG
      progress(
        "WARNING: debug build; figures mean little. "
          + "Use `swift run -c release --package-path Benchmarks presentation-bench`.")
    #endif
    measureTimings(into: &result)
    measureBytes(into: &result)
    measureAllocations(into: &result)
    measurePendingDelete(into: &result)
    result.budget = Budget.rows(for: result)
    return result
  }

  // MARK: Timings, interleaved

  private func measureTimings(into result: inout RunResult) {
    var workloads: [PostWorkload] = []
    for observers in configuration.observerCounts {
      for contender in Contender.allCases {
        workloads.append(PostWorkload(contender, observers: observers))
      }
    }
    let postCases = workloads.map { $0.timedCase() }
    let registrationCases =
      Contender.allCases.map { RegistrationWorkload($0).timedCase() }
      + configuration.cancelPopulations.map {
        RegistrationCases.cancelAmong(population: $0, cancelsPerBatch: configuration.cancelsPerBatch)
      }
    let mainActorCases = MainActorCases.cases()
    let cases = postCases + registrationCases + mainActorCases
    progress("calibrating \(cases.count) cases")
    for timedCase in cases { timedCase.calibrate(targetNanoseconds: configuration.batchNanoseconds) }
    for round in 0..<configuration.rounds {
      progress("round \(round + 1) of \(configuration.rounds)")
      // Each round starts at a different case, so no case always runs right after the same one.
      let start = round % cases.count
      for index in 0..<cases.count {
        cases[(start + index) % cases.count].measureOnce()
      }
    }

    var samples: [Figure: [Double]] = [:]
    for timedCase in cases { samples[timedCase.figure] = timedCase.nanosecondsPerOperation }
    for timedCase in postCases {
      guard case .post(let contender, let observers) = timedCase.figure else { continue }
      result.posts.append(
        RunResult.Post(contender: contender, observers: observers, nanosecondsPerPost: timedCase.statistics))
    }
    for timedCase in registrationCases {
      result.registrationCosts[timedCase.figure] = timedCase.statistics
    }
    for timedCase in mainActorCases { result.mainActor[timedCase.figure] = timedCase.statistics }
    result.mainActorRatios = MainActorCases.ratios(samples)

    // Ratios round by round: both figures of a pair were taken within the same round.
    func ratio(_ numerator: Figure, over denominator: Figure) {
      guard let top = samples[numerator], let bottom = samples[denominator] else {
        result.missing.append("ratio \(numerator) ÷ \(denominator): a figure was not timed")
        return
      }
      result.ratios.append(
        RunResult.Ratio(
          numerator: numerator, denominator: denominator, value: Statistics(zip(top, bottom).map { $0 / $1 })))
    }
    for observers in configuration.observerCounts {
      let floor = Figure.post(.floor, observers: observers)
      let ours = Figure.post(.ours, observers: observers)
      ratio(ours, over: floor)
      ratio(.post(.oursOwnerBound, observers: observers), over: floor)
      ratio(.post(.oursMainActor, observers: observers), over: floor)
      ratio(.post(.foundationTyped, observers: observers), over: ours)
      ratio(.post(.foundationClassic, observers: observers), over: ours)
    }
    let smallest = Figure.cancelAmong(population: configuration.cancelPopulations[0])
    for population in configuration.cancelPopulations.dropFirst() {
      ratio(.cancelAmong(population: population), over: smallest)
    }
  }

  // MARK: Pending delete

  private func measurePendingDelete(into result: inout RunResult) {
    let widgets = configuration.pendingDeleteWidgets
    progress("pending delete: \(widgets) widgets fading at once, \(configuration.rounds) runs")
    var start: [Double] = []
    var step: [Double] = []
    var total: [Double] = []
    _ = PendingDeleteRun.runOnce(widgets: widgets)  // warm-up
    for _ in 0..<configuration.rounds {
      let run = PendingDeleteRun.runOnce(widgets: widgets)
      start.append(run.start)
      step.append(run.step)
      total.append(run.total / 1_000_000)
    }
    result.pendingDelete["startNanosecondsPerWidget"] = Statistics(start)
    result.pendingDelete["stepNanosecondsPerWidgetStep"] = Statistics(step)
    result.pendingDelete["totalMilliseconds"] = Statistics(total)
    result.pendingDeleteNote =
      "\(widgets) widgets, PendingDelete(duration: 300 ms, steps: \(PendingDeleteRun.steps)) on ManualStepScheduler; "
      + "every widget checked disposed once and deinitialised"
  }

  // MARK: Memory

  private func measureBytes(into result: inout RunResult) {
    guard MemoryFootprint.isAvailable else {
      result.missing.append("bytes per registration: needs glibc's mallinfo2")
      return
    }
    progress("bytes per registration over \(configuration.registrationsForBytes) registrations")
    for contender in Contender.allCases where contender != .floor {
      result.bytesPerRegistration[contender] = MemoryFootprint.bytesPerRegistration(
        contender, count: configuration.registrationsForBytes)
    }
    result.ownerBoundBytesWithSideTableMadeBefore =
      MemoryFootprint.bytesPerOwnerBoundRegistrationExcludingSideTable(count: configuration.registrationsForBytes)
  }

  private func measureAllocations(into result: inout RunResult) {
    let targets: [Figure] =
      configuration.quick
      ? [.post(.ours, observers: 1), .post(.ours, observers: 100)]
      : [
        .post(.floor, observers: 1),
        .post(.ours, observers: 1),
        .post(.ours, observers: 100),
        .post(.oursOwnerBound, observers: 1),
        .post(.oursOwnerBound, observers: 100),
        .post(.oursMainActor, observers: 1),
        .post(.foundationTyped, observers: 1),
        .post(.foundationClassic, observers: 1),
      ]
    progress("heap allocations per post under valgrind (\(targets.count * 2) children)")
    do {
      result.allocationsPerPost = try AllocationCounter.allocationsPerPost(
        targets, posts: configuration.allocationPosts)
      result.allocationsNote =
        "valgrind memcheck, (allocs after \(configuration.allocationPosts * 11) posts − allocs after "
        + "\(configuration.allocationPosts) posts) ÷ \(configuration.allocationPosts * 10)"
    } catch Valgrind.Failure.missing where configuration.quick {
      result.allocationsNote = "SKIPPED: valgrind is not installed (--quick allows this; a full run does not)"
    } catch {
      result.missing.append("heap allocations per post: \(error)")
    }
  }

  // MARK: Machine

  private static func machine(_ configuration: BenchConfiguration) -> RunResult.Machine {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let formatter = ISO8601DateFormatter()
    return RunResult.Machine(
      date: formatter.string(from: Date()), processors: ProcessInfo.processInfo.activeProcessorCount,
      model: model, quick: configuration.quick, rounds: configuration.rounds)
  }
}
