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
      progress("WARNING: debug build; figures mean little. Use `swift run -c release presentation-bench`.")
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
      [RegistrationCases.observeThenCancel()]
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

    var byKey: [String: [Double]] = [:]
    for timedCase in cases { byKey[timedCase.key] = timedCase.nanosecondsPerOperation }
    for workload in workloads {
      let key = "post.\(workload.contender.rawValue).\(workload.observers)"
      result.posts.append(
        RunResult.Post(
          contender: workload.contender, observers: workload.observers,
          nanosecondsPerPost: Statistics(byKey[key]!)))
    }
    for timedCase in registrationCases {
      result.registrationCosts[timedCase.key] = timedCase.statistics
    }
    for timedCase in mainActorCases { result.mainActor[timedCase.key] = timedCase.statistics }
    result.mainActorRatios = MainActorCases.ratios(byKey)

    // Ratios round by round: both figures of a pair were taken within the same round.
    func ratio(_ name: String, _ numerator: String, _ denominator: String) {
      let pairs = zip(byKey[numerator]!, byKey[denominator]!)
      result.ratios.append(RunResult.Ratio(name: name, value: Statistics(pairs.map { $0 / $1 })))
    }
    for observers in configuration.observerCounts {
      ratio("post.\(observers).ours/floor", "post.ours.\(observers)", "post.floor.\(observers)")
      ratio(
        "post.\(observers).oursOwnerBound/floor", "post.oursOwnerBound.\(observers)", "post.floor.\(observers)")
      ratio("post.\(observers).foundationTyped/ours", "post.foundationTyped.\(observers)", "post.ours.\(observers)")
      ratio(
        "post.\(observers).foundationClassic/ours", "post.foundationClassic.\(observers)", "post.ours.\(observers)")
    }
    let smallest = configuration.cancelPopulations[0]
    for population in configuration.cancelPopulations.dropFirst() {
      ratio("cancel.among.\(population)/\(smallest)", "cancel.among.\(population)", "cancel.among.\(smallest)")
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
      result.bytesPerRegistration[contender.rawValue] = MemoryFootprint.bytesPerRegistration(
        contender, count: configuration.registrationsForBytes)
    }
    result.bytesPerRegistration[RunResult.ownerBoundExcludingSideTableKey] =
      MemoryFootprint.bytesPerOwnerBoundRegistrationExcludingSideTable(count: configuration.registrationsForBytes)
  }

  private func measureAllocations(into result: inout RunResult) {
    let targets: [AllocationCounter.Target] =
      configuration.quick
      ? [.init(contender: .ours, observers: 1), .init(contender: .ours, observers: 100)]
      : [
        .init(contender: .floor, observers: 1),
        .init(contender: .ours, observers: 1),
        .init(contender: .ours, observers: 100),
        .init(contender: .oursOwnerBound, observers: 1),
        .init(contender: .oursOwnerBound, observers: 100),
        .init(contender: .foundationTyped, observers: 1),
        .init(contender: .foundationClassic, observers: 1),
      ]
    progress("heap allocations per post under valgrind (\(targets.count * 2) children)")
    do {
      result.allocationsPerPost = try AllocationCounter.allocationsPerPost(
        targets, posts: configuration.allocationPosts)
      result.allocationsNote =
        "valgrind memcheck, (allocs after \(configuration.allocationPosts * 11) posts − allocs after "
        + "\(configuration.allocationPosts) posts) ÷ \(configuration.allocationPosts * 10)"
    } catch AllocationCounter.Failure.valgrindMissing where configuration.quick {
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
