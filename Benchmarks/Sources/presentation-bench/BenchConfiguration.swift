/// How long and how thoroughly a run measures.
struct BenchConfiguration: Sendable {
  let quick: Bool
  /// Rounds: every timed case runs once per round, interleaved with the others.
  let rounds: Int
  /// The time one batch of posts should take.
  let batchNanoseconds: Double
  let observerCounts = [1, 10, 100, 1_000]
  let cancelPopulations = [100, 10_000, 100_000]
  /// Cancels timed per round for each population (small populations repeat on fresh centers).
  let cancelsPerBatch = 100_000
  let registrationsForBytes = 100_000
  /// P in the valgrind method: the children post P and 11 P times.
  let allocationPosts: Int
  let pendingDeleteWidgets = 10_000

  init(quick: Bool) {
    self.quick = quick
    rounds = quick ? 5 : 21
    batchNanoseconds = quick ? 1_000_000 : 5_000_000
    allocationPosts = quick ? 200 : 1_000
  }
}
