/// One timed figure: a workload run in batches, one batch per round, its cost per operation kept
/// for every round.
@MainActor
final class TimedCase {
  /// What the case measures; its description is the key in the JSON output.
  let figure: Figure
  /// Runs a batch of `iterations` operations and returns `(elapsed nanoseconds, operations done)`.
  /// It must check its own result and stop the run if the work was not done.
  let runBatch: (_ iterations: Int) -> (nanoseconds: Double, operations: Int)
  /// Batches with a fixed size (for example "cancel every one of 100,000 registrations") skip
  /// calibration.
  let fixedIterations: Int?
  private(set) var iterations = 1
  private(set) var nanosecondsPerOperation: [Double] = []

  init(
    _ figure: Figure, fixedIterations: Int? = nil,
    runBatch: @escaping (_ iterations: Int) -> (nanoseconds: Double, operations: Int)
  ) {
    self.figure = figure
    self.fixedIterations = fixedIterations
    self.runBatch = runBatch
  }

  /// Finds the batch size that takes about `targetNanoseconds`, and warms the caches up.
  func calibrate(targetNanoseconds: Double) {
    if let fixedIterations {
      iterations = fixedIterations
      _ = runBatch(iterations)
      return
    }
    var probe = 1
    while true {
      let (elapsed, operations) = runBatch(probe)
      if elapsed >= targetNanoseconds / 8 || probe >= 1 << 26 {
        let perOperation = elapsed / Double(Swift.max(operations, 1))
        iterations = Swift.max(1, Int(targetNanoseconds / Swift.max(perOperation, 0.01)))
        return
      }
      probe *= 4
    }
  }

  func measureOnce() {
    let (elapsed, operations) = runBatch(iterations)
    nanosecondsPerOperation.append(elapsed / Double(operations))
  }

  var statistics: Statistics { Statistics(nanosecondsPerOperation) }
}
