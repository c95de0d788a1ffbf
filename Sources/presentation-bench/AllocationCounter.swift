import Dispatch
import Foundation
import Synchronization

/// Heap allocations per post in steady state, counted by valgrind.
///
/// Method: the benchmark starts itself twice under `valgrind --tool=memcheck` in a child mode
/// (`--count-allocations <contender> <observers> <posts>`) that registers the observers, posts 64
/// times to warm up, then posts `posts` times and exits. The two children differ only in `posts`
/// (P and 11 P); memcheck's "total heap usage: N allocs" of the two differ only by the extra 10 P
/// posts, so `(N₂ − N₁) / 10 P` is the number of allocations one post makes, setup and teardown
/// cancelling out exactly.
@MainActor
enum AllocationCounter {
  struct Target: Sendable {
    let contender: Contender
    let observers: Int
    var key: String { "allocations.\(contender.rawValue).\(observers)" }
  }

  enum Failure: Error, CustomStringConvertible {
    case valgrindMissing
    case childFailed(String)

    var description: String {
      switch self {
      case .valgrindMissing: "valgrind not found on PATH"
      case .childFailed(let reason): reason
      }
    }
  }

  /// The child mode: `arguments` are `<contender> <observers> <posts>`.
  static func runChild(_ arguments: [String]) -> Never {
    guard arguments.count == 3, let contender = Contender(rawValue: arguments[0]),
      let observers = Int(arguments[1]), let posts = Int(arguments[2])
    else {
      FileHandle.standardError.write(Data("usage: --count-allocations <contender> <observers> <posts>\n".utf8))
      exit(64)
    }
    let workload = PostWorkload(contender, observers: observers)
    _ = workload.run(iterations: 64)
    _ = workload.run(iterations: posts)
    withExtendedLifetime(workload) {}
    exit(0)
  }

  static func valgrindPath() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/valgrind"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Counts allocations per post for every target, two valgrind children at a time.
  static func allocationsPerPost(_ targets: [Target], posts: Int) throws -> [String: Double] {
    guard let valgrind = valgrindPath() else { throw Failure.valgrindMissing }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let jobs = targets.flatMap { target in [(target, posts), (target, posts * 11)] }
    let results = Mutex<[String: Result<Int, Failure>]>([:])
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
      let (target, count) = jobs[index]
      let result = totalAllocations(
        valgrind: valgrind,
        arguments: [executable, "--count-allocations", target.contender.rawValue, "\(target.observers)", "\(count)"])
      results.withLock { $0["\(target.key)/\(count)"] = result }
    }
    let collected = results.withLock { $0 }
    var perPost: [String: Double] = [:]
    for target in targets {
      let short = try collected["\(target.key)/\(posts)"]!.get()
      let long = try collected["\(target.key)/\(posts * 11)"]!.get()
      perPost[target.key] = Double(long - short) / Double(posts * 10)
    }
    return perPost
  }

  private nonisolated static func totalAllocations(valgrind: String, arguments: [String]) -> Result<Int, Failure> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments = ["--tool=memcheck", "--leak-check=no", "--error-limit=no"] + arguments
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
      return .failure(
        .childFailed("\(arguments.dropFirst().joined(separator: " ")) exited \(process.terminationStatus)"))
    }
    // "==123== total heap usage: 1,234 allocs, 1,200 frees, 56,789 bytes allocated"
    guard let line = output.split(separator: "\n").first(where: { $0.contains("total heap usage:") }),
      let usage = line.split(separator: ":").last,
      let allocs = usage.split(separator: " ").first.flatMap({ Int($0.filter(\.isNumber)) })
    else {
      return .failure(.childFailed("no \"total heap usage\" line in valgrind's output"))
    }
    return .success(allocs)
  }
}
