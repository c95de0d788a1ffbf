import Dispatch
import Foundation
import Synchronization

/// Instructions and heap allocations per operation, counted by callgrind.
///
/// Method: the benchmark starts itself under `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect=<InstructionRegion.measure>` in its child mode (``WorkloadChild``), which sets
/// the figure's workload up, warms it up, then runs N operations inside
/// ``InstructionRegion/measure(_:)``: callgrind counts only what runs inside that function. A
/// second child runs 2 N operations. The region also holds a constant part (the batch's clock
/// reads and its check); the difference of the two counts holds none of it, so
/// `(count at 2 N − count at N) ÷ N` is the cost of one operation. Heap allocations are the calls
/// to `malloc` and its siblings that callgrind records inside the region, differenced the same
/// way. Counts are deterministic (the children hash deterministically); a third child at 3 N
/// (`verify`) checks that the two differences agree exactly.
@MainActor
enum InstructionCounter {
  /// One figure's counts.
  struct Count: Codable, Sendable {
    /// The N of the method.
    let iterations: Int
    /// Instructions per operation.
    let instructions: Double
    /// Heap allocations (`malloc`, `calloc`, `realloc`, `posix_memalign`, `aligned_alloc`,
    /// `memalign`) per operation.
    let allocations: Double
    /// Whether the step from 2 N to 3 N gave the very same counts as from N to 2 N; `nil` when not
    /// checked.
    let exact: Bool?
  }

  /// The counts of one child: instructions and allocation calls inside the region.
  private struct Raw: Sendable {
    let instructions: Int
    let allocations: Int
  }

  /// N for a figure: about the same number of deliveries (or registrations) for every figure.
  nonisolated static func iterations(for figure: Figure) -> Int {
    switch figure {
    case .post(_, let observers), .mainActorPost(_, let observers): Swift.max(8, 4_000 / Swift.max(observers, 1))
    case .observeThenCancel, .cancelAmong, .mainActorObserveThenCancel: 1_000
    case .everyObjectAllocation, .everyObjectRetainRelease: EveryObjectCases.iterations
    }
  }

  /// Counts every figure, as many valgrind children at a time as there are processors.
  static func count(_ figures: [Figure], verify: Bool) throws -> [Figure: Count] {
    guard let valgrind = Valgrind.path() else { throw Valgrind.Failure.missing }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("presentation-bench-callgrind-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let multiples = verify ? [1, 2, 3] : [1, 2]
    let jobs = figures.flatMap { figure in multiples.map { (figure, iterations(for: figure) * $0) } }
    let results = Mutex<[String: Result<Raw, Valgrind.Failure>]>([:])
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
      let (figure, count) = jobs[index]
      let outputFile = directory.appendingPathComponent("\(figure).\(count).out").path
      let result = Valgrind.runWorkload(
        valgrind: valgrind,
        toolArguments: [
          "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(InstructionRegion.callgrindPattern)",
          "--callgrind-out-file=\(outputFile)",
        ],
        figure: figure, iterations: count
      ).flatMap { _ in readCounts(outputFile) }
      results.withLock { $0["\(figure)/\(count)"] = result }
    }
    let collected = results.withLock { $0 }
    var counts: [Figure: Count] = [:]
    for figure in figures {
      let n = iterations(for: figure)
      let raw = try multiples.map { multiple -> Raw in
        guard let result = collected["\(figure)/\(n * multiple)"] else {
          throw Valgrind.Failure.childFailed("\(figure) × \(n * multiple): no result")
        }
        return try result.get()
      }
      guard raw[0].instructions > 0 else {
        throw Valgrind.Failure.childFailed(
          "\(figure): callgrind collected nothing; is \(InstructionRegion.callgrindPattern) still the region's symbol?")
      }
      let instructions = raw[1].instructions - raw[0].instructions
      let allocations = raw[1].allocations - raw[0].allocations
      let exact =
        verify
        ? raw[2].instructions - raw[1].instructions == instructions
          && raw[2].allocations - raw[1].allocations == allocations
        : nil
      counts[figure] = Count(
        iterations: n, instructions: Double(instructions) / Double(n), allocations: Double(allocations) / Double(n),
        exact: exact)
    }
    return counts
  }

  private nonisolated static let allocationFunctions: Set<Substring> = [
    "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
  ]

  /// Reads the `summary:` line (instructions collected) and sums the `calls=` of every call to an
  /// allocation function. Callgrind's format names a function once as `cfn=(id) name` and later as
  /// `cfn=(id)`; a `calls=N …` line follows the `cfn=` line of the function called.
  private nonisolated static func readCounts(_ path: String) -> Result<Raw, Valgrind.Failure> {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      return .failure(.childFailed("callgrind wrote no \(path)"))
    }
    var summary: Int?
    var names: [Substring: Substring] = [:]
    var calledIsAllocation = false
    var allocations = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("summary:") {
        summary = Int(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces))
      } else if line.hasPrefix("fn=(") || line.hasPrefix("cfn=(") {
        let body = line.drop { $0 != "(" }
        guard let close = body.firstIndex(of: ")") else { continue }
        let id = body[body.startIndex...close]
        let rest = body[body.index(after: close)...].trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { names[id] = Substring(rest) }
        // "malloc'2" is a recursive call of malloc; "malloc@@GLIBC_2.2.5" a versioned name.
        let base = names[id].map { $0.prefix { $0 != "'" && $0 != "@" } }
        calledIsAllocation = line.hasPrefix("cfn=") && base.map(allocationFunctions.contains) == true
      } else if line.hasPrefix("calls=") {
        if calledIsAllocation {
          allocations += Int(line.dropFirst("calls=".count).prefix(while: \.isNumber)) ?? 0
        }
        calledIsAllocation = false
      }
    }
    guard let summary else { return .failure(.childFailed("no summary line in \(path)")) }
    return .success(Raw(instructions: summary, allocations: allocations))
  }
}
