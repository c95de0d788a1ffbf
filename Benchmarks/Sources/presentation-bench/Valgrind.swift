import Foundation

/// Starts this benchmark under valgrind in its child mode, ``WorkloadChild``.
enum Valgrind {
  enum Failure: Error, CustomStringConvertible {
    case missing
    case childFailed(String)

    var description: String {
      switch self {
      case .missing: "valgrind not found on PATH"
      case .childFailed(let reason): reason
      }
    }
  }

  static func path() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/valgrind"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs `valgrind <toolArguments> <this executable> --run-workload <figure> <iterations>` and
  /// returns valgrind's standard error. The child hashes deterministically
  /// (`SWIFT_DETERMINISTIC_HASHING=1`), so a dictionary probes the same way in every run.
  static func runWorkload(
    valgrind: String, toolArguments: [String], figure: Figure, iterations: Int
  ) -> Result<String, Failure> {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments =
      toolArguments + [executable, WorkloadChild.flag, figure.description, "\(iterations)"]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    process.environment = environment
    let errorPipe = Pipe()
    process.standardError = errorPipe
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return .failure(.childFailed("could not start valgrind: \(error)"))
    }
    let output = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let tail = output.split(separator: "\n").suffix(5).joined(separator: "\n")
      return .failure(
        .childFailed("\(figure) × \(iterations) under valgrind exited \(process.terminationStatus):\n\(tail)"))
    }
    return .success(output)
  }
}

/// The child mode the valgrind counters start: `--run-workload <figure> <iterations>`. It sets the
/// figure's workload up, warms it up with 64 operations, runs `iterations` operations inside
/// ``InstructionRegion/measure(_:)`` and exits without tearing anything down.
@MainActor
enum WorkloadChild {
  nonisolated static let flag = "--run-workload"
  static let warmUpIterations = 64

  static func run(_ arguments: [String]) -> Never {
    guard arguments.count == 2, let figure = Figure(arguments[0]), let iterations = Int(arguments[1]),
      iterations >= 0
    else {
      FileHandle.standardError.write(Data("usage: \(flag) <figure, e.g. post.ours.100> <iterations>\n".utf8))
      exit(64)
    }
    switch figure {
    case .post(let contender, let observers):
      let workload = PostWorkload(contender, observers: observers)
      _ = workload.run(iterations: warmUpIterations)
      InstructionRegion.measure { _ = workload.run(iterations: iterations) }
      withExtendedLifetime(workload) {}
    case .observeThenCancel(let contender):
      let workload = RegistrationWorkload(contender)
      _ = workload.run(iterations: warmUpIterations)
      InstructionRegion.measure { _ = workload.run(iterations: iterations) }
      withExtendedLifetime(workload) {}
    case .mainActorPost(let contender, let observers):
      let timedCase = MainActorCases.postCase(contender, observers: observers)
      _ = timedCase.runBatch(warmUpIterations)
      InstructionRegion.measure { _ = timedCase.runBatch(iterations) }
      withExtendedLifetime(timedCase) {}
    case .mainActorObserveThenCancel:
      let timedCase = MainActorCases.observeThenCancel()
      _ = timedCase.runBatch(warmUpIterations)
      InstructionRegion.measure { _ = timedCase.runBatch(iterations) }
      withExtendedLifetime(timedCase) {}
    case .everyObjectAllocation(let state):
      EveryObjectCases.runAllocation(state, iterations: iterations)
    case .everyObjectRetainRelease(let state):
      EveryObjectCases.runRetainRelease(state, iterations: iterations)
    case .cancelAmong:
      FileHandle.standardError.write(Data("\(figure) has no valgrind workload\n".utf8))
      exit(64)
    }
    exit(0)
  }
}

/// The region callgrind counts. `--toggle-collect` names this function, so instructions are
/// collected exactly while it runs, its callees included.
enum InstructionRegion {
  /// The pattern callgrind matches against the (mangled) symbol of ``measure(_:)``.
  static let callgrindPattern = "*17InstructionRegionO7measure*"

  // Not inlined and not optimised, so the symbol exists; `dynamic`, so that every call goes
  // through it: without it, the optimiser specialised it for some closures and, for the
  // main-actor cases, called no copy of it at all (callgrind then counted nothing).
  @inline(never) @_optimize(none)
  dynamic static func measure(_ body: () -> Void) {
    body()
  }
}
