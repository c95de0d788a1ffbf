import Dispatch
import Foundation
import Synchronization

/// Heap allocations per post in steady state, counted by valgrind.
///
/// Method: the benchmark starts itself twice under `valgrind --tool=memcheck` in its child mode
/// (``WorkloadChild``), which registers the observers, posts 64 times to warm up, then posts
/// `posts` times and exits. The two children differ only in `posts` (P and 11 P); memcheck's
/// "total heap usage: N allocs" of the two differ only by the extra 10 P posts, so
/// `(N₂ − N₁) / 10 P` is the number of allocations one post makes, setup and teardown cancelling
/// out exactly.
@MainActor
enum AllocationCounter {
  /// Counts allocations per operation for every figure, two valgrind children at a time.
  static func allocationsPerPost(_ figures: [Figure], posts: Int) throws -> [Figure: Double] {
    guard let valgrind = Valgrind.path() else { throw Valgrind.Failure.missing }
    let jobs = figures.flatMap { figure in [(figure, posts), (figure, posts * 11)] }
    let results = Mutex<[String: Result<Int, Valgrind.Failure>]>([:])
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
      let (figure, count) = jobs[index]
      let result = Valgrind.runWorkload(
        valgrind: valgrind, toolArguments: ["--tool=memcheck", "--leak-check=no", "--error-limit=no"],
        figure: figure, iterations: count
      ).flatMap(totalAllocations)
      results.withLock { $0["\(figure)/\(count)"] = result }
    }
    let collected = results.withLock { $0 }
    var perPost: [Figure: Double] = [:]
    for figure in figures {
      guard let short = collected["\(figure)/\(posts)"], let long = collected["\(figure)/\(posts * 11)"] else {
        throw Valgrind.Failure.childFailed("\(figure): no result")
      }
      perPost[figure] = Double(try long.get() - short.get()) / Double(posts * 10)
    }
    return perPost
  }

  /// Reads "==123== total heap usage: 1,234 allocs, 1,200 frees, 56,789 bytes allocated".
  private nonisolated static func totalAllocations(_ output: String) -> Result<Int, Valgrind.Failure> {
    guard let line = output.split(separator: "\n").first(where: { $0.contains("total heap usage:") }),
      let usage = line.split(separator: ":").last,
      let allocs = usage.split(separator: " ").first.flatMap({ Int($0.filter(\.isNumber)) })
    else {
      return .failure(.childFailed("no \"total heap usage\" line in valgrind's output"))
    }
    return .success(allocs)
  }
}
