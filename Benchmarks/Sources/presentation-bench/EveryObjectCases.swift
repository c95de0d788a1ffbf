import BenchRuntimeCalls
import Foundation
@_spi(Benchmarks) import PresentationModelDiagnostics

/// What every-object leak tracking (`EveryObjectScope`, behind `.detectsLeaks(.everyObject)`,
/// reached through `BenchmarkAccess`, an `@_spi(Benchmarks)` of PresentationModelDiagnostics)
/// costs, counted by callgrind like every `--instructions` figure:
/// - an allocation and its release (an instance of a class of this executable, so a class that
///   counts) with nothing installed, with the hook installed and no scope asking (the cost every
///   process pays once one test asked), and inside a scope that records it;
/// - a retain + release pair through the runtime's public entry points, with nothing installed and
///   with the hook installed (the swizzle flag puts every retain and release of the process on the
///   runtime's indirect path).
/// And, timed (reported, never enforced): the CPU time of a body that makes and frees 1,000,000
/// objects inside a scope (begin to finish), over the same body with nothing installed.
enum EveryObjectCases {
  /// What is installed while a figure is counted.
  enum State: String, CaseIterable, Sendable {
    /// Nothing: the process never asked.
    case untracked
    /// The hook, installed (and proved) by reading `BenchmarkAccess.everyObjectUnavailableReason`; no scope open.
    case installed
    /// A scope open and bound around the operations.
    case tracked
  }

  static let figures: [Figure] = [
    .everyObjectAllocation(.untracked), .everyObjectAllocation(.installed), .everyObjectAllocation(.tracked),
    .everyObjectRetainRelease(.untracked), .everyObjectRetainRelease(.installed),
  ]

  /// N for every figure here (the full run checks that N, 2 N and 3 N give one straight line).
  static let iterations = 10_080

  final class BenchObject {
    var value = 0
  }

  /// Holds the last object made, so every new one escapes (no stack promotion) and frees the one
  /// before it.
  final class ObjectSlot {
    var object: BenchObject?
  }

  @inline(never)
  static func churn(_ slot: ObjectSlot, _ iterations: Int) {
    for _ in 0..<iterations {
      slot.object = BenchObject()
    }
  }

  private static func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
  }

  private static func install() {
    if let reason = BenchmarkAccess.everyObjectUnavailableReason {
      fail("every-object tracking is not available: \(reason)", status: 70)
    }
  }

  /// The valgrind child of an allocation figure: warm up, then `iterations` allocations (each
  /// freeing the one before) inside the counted region.
  @MainActor
  static func runAllocation(_ state: State, iterations: Int) {
    if state != .untracked { install() }
    let slot = ObjectSlot()
    let run = {
      churn(slot, WorkloadChild.warmUpIterations)
      InstructionRegion.measure { churn(slot, iterations) }
    }
    guard state == .tracked else { return run() }
    guard let scope = BenchmarkAccess.EveryObjectRegion() else { fail("no scope could be opened", status: 70) }
    scope.withTracking(run)
    let tracked = scope.trackedCount
    if tracked != WorkloadChild.warmUpIterations + iterations {
      fail("the scope tracked \(tracked) allocations", status: 71)
    }
  }

  /// The valgrind child of a retain/release figure.
  @MainActor
  static func runRetainRelease(_ state: State, iterations: Int) {
    if state != .untracked { install() }
    let object = BenchObject()
    let pointer = Unmanaged.passUnretained(object).toOpaque()
    bench_retain_release_pairs(pointer, WorkloadChild.warmUpIterations)
    InstructionRegion.measure { bench_retain_release_pairs(pointer, iterations) }
    withExtendedLifetime(object) {}
  }

  // MARK: - The time of 1,000,000 objects

  static let timingFlag = "--every-object-timing"

  /// Seconds of CPU a body making and freeing 1,000,000 objects took (this thread's CPU clock: a
  /// loaded machine's other work is not counted, as it is in wall time, though its cache and
  /// frequency effects are): for each state the best of 5 children, each the best of 3 runs, the
  /// children of the two kinds alternating. The best run is the one the machine disturbed least.
  struct Times: Codable, Sendable {
    /// Nothing installed.
    let untracked: Double
    /// The hook installed, no scope open.
    let installed: Double
    /// Inside a scope, from its start to its finish.
    let tracked: Double

    var ratio: Double { tracked / untracked }
  }

  private static func cpuSeconds(_ body: () -> Void) -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
  }

  private static func best(_ body: () -> Void) -> Double {
    (0..<3).map { _ in cpuSeconds(body) }.min() ?? 0
  }

  /// The timing child: `untracked` (nothing installed) prints one figure; `tracked` installs,
  /// then prints the installed figure and the tracked one.
  static func runTimingChild(_ arguments: [String]) -> Never {
    let count = 1_000_000
    let slot = ObjectSlot()
    churn(slot, 10_000)
    switch arguments {
    case ["untracked"]:
      print(best { churn(slot, count) })
    case ["tracked"]:
      install()
      let installed = best { churn(slot, count) }
      let tracked = best {
        guard let scope = BenchmarkAccess.EveryObjectRegion() else { fail("no scope could be opened", status: 70) }
        scope.withTracking { churn(slot, count) }
        scope.finish()
      }
      print(installed, tracked)
    default:
      fail("usage: \(timingFlag) untracked|tracked", status: 64)
    }
    exit(0)
  }

  /// One timing child's figures.
  private static func timingChild(_ state: String) -> Result<[Double], Valgrind.Failure> {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    guard let child = popen("'\(executable)' \(timingFlag) \(state)", "r") else {
      return .failure(.childFailed("could not start \(timingFlag) \(state)"))
    }
    var text = ""
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, Int32(buffer.count), child) != nil {
      text += String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
    }
    let status = pclose(child)
    let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard status == 0, !numbers.isEmpty, numbers.allSatisfy({ $0 > 0 }) else {
      return .failure(.childFailed("\(timingFlag) \(state) exited with status \(status): \(text)"))
    }
    return .success(numbers)
  }

  /// Runs 5 untracked and 5 tracked timing children, alternately.
  static func times() -> Result<Times, Valgrind.Failure> {
    var untracked: [Double] = []
    var installed: [Double] = []
    var tracked: [Double] = []
    for _ in 0..<5 {
      switch (timingChild("untracked"), timingChild("tracked")) {
      case (.success(let plain), .success(let hooked)) where plain.count == 1 && hooked.count == 2:
        untracked.append(plain[0])
        installed.append(hooked[0])
        tracked.append(hooked[1])
      case (.failure(let failure), _), (_, .failure(let failure)):
        return .failure(failure)
      default:
        return .failure(.childFailed("\(timingFlag): unexpected output"))
      }
    }
    return .success(
      Times(untracked: untracked.min() ?? 0, installed: installed.min() ?? 0, tracked: tracked.min() ?? 0))
  }

  // MARK: - Budget rows

  /// The instructions one figure adds to another, per operation.
  private static func added(
    _ figure: Figure, over baseline: Figure, _ counts: [Figure: InstructionCounter.Count]
  ) -> Double? {
    guard let top = counts[figure]?.instructions, let bottom = counts[baseline]?.instructions else { return nil }
    return top - bottom
  }

  /// The measured figure of an every-object budget rule.
  static func measured(
    _ rule: InstructionBudget.Rule, counts: [Figure: InstructionCounter.Count], times: Times?
  ) -> Double? {
    switch rule {
    case .everyObjectInstalledAllocation:
      added(.everyObjectAllocation(.installed), over: .everyObjectAllocation(.untracked), counts)
    case .everyObjectInstalledRetainRelease:
      added(.everyObjectRetainRelease(.installed), over: .everyObjectRetainRelease(.untracked), counts)
    case .everyObjectTrackedAllocation:
      added(.everyObjectAllocation(.tracked), over: .everyObjectAllocation(.untracked), counts)
    case .everyObjectMillionObjectsTime:
      times?.ratio
    default:
      nil
    }
  }

  /// The figures' own lines in the text report.
  static func reportLines(_ counts: [Figure: InstructionCounter.Count], times: Times?) -> [String] {
    var lines = ["EVERY-OBJECT LEAK TRACKING (instructions per operation)"]
    for figure in figures {
      let cell = counts[figure].map { String(format: "%.1f", $0.instructions) + ($0.exact == false ? "*" : "") }
      lines.append("  \(figure)".padding(toLength: 48, withPad: " ", startingAt: 0) + (cell ?? "—"))
    }
    if let times {
      lines.append(
        String(
          format:
            "  1,000,000 objects made and freed, CPU: %.3f s untracked, %.3f s installed, %.3f s in a scope (%.2f×)",
          times.untracked, times.installed, times.tracked, times.ratio))
    }
    lines.append("")
    return lines
  }
}
