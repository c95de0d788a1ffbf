import Testing

/// A seeded random test program that can propose smaller versions of itself.
protocol ShrinkableProgram: CustomStringConvertible {
  /// The program that `seed` generates; the same seed always gives the same program.
  static func random(seed: UInt64) -> Self
  /// Programs one step smaller (an operation or a reaction removed).
  var shrinkCandidates: [Self] { get }
}

extension ShrinkableProgram {
  /// Removes operations and reactions one at a time for as long as `stillFails` holds (greedy, so
  /// not always the smallest failing program).
  func shrunk(while stillFails: (Self) -> Bool) -> Self {
    var current = self
    while let smaller = current.shrinkCandidates.first(where: stillFails) {
      current = smaller
    }
    return current
  }
}

/// Runs the programs of `seeds` and records an issue, with the seed and a shrunk program, for each of
/// the first `failureLimit` (three) whose `mismatch` is not `nil`; a handful of shrunk examples says
/// enough.
///
/// - Parameter make: The program of a seed; ``ShrinkableProgram/random(seed:)`` unless given.
/// - Returns: How many failed (at most `failureLimit`).
@discardableResult
func checkRandomPrograms<Program: ShrinkableProgram>(
  _: Program.Type, seeds: Range<UInt64>, make: (UInt64) -> Program = Program.random(seed:), failureLimit: Int = 3,
  sourceLocation: SourceLocation = #_sourceLocation, mismatch: (Program) -> String?
) -> Int {
  var failures = 0
  guard failureLimit > 0 else { return 0 }
  for seed in seeds {
    let program = make(seed)
    guard let found = mismatch(program) else { continue }
    failures += 1
    let shrunk = program.shrunk { mismatch($0) != nil }
    Issue.record(
      """
      Program with seed \(seed) (\(Program.self).random(seed: \(seed))) fails: \(found)
      Shrunk program:
      \(shrunk)
      Shrunk failure: \(mismatch(shrunk) ?? "none")
      """, sourceLocation: sourceLocation)
    if failures == failureLimit { break }
  }
  return failures
}

/// The first event where a run of the real code (`actual`, from `actualSource`) and the model's
/// run (`expected`) differ, said as "event 3: center gave \"…\", model expected \"…\"", or `nil`
/// when the two agree; a missing event reads "nothing".
func firstDifference<Event: Equatable & CustomStringConvertible>(
  between actual: [Event], and expected: [Event], actualSource: String
) -> String? {
  guard actual != expected else { return nil }
  let index =
    zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    ?? min(actual.count, expected.count)
  let got = actual.indices.contains(index) ? actual[index].description : "nothing"
  let wanted = expected.indices.contains(index) ? expected[index].description : "nothing"
  return "event \(index): \(actualSource) gave \"\(got)\", model expected \"\(wanted)\""
}
