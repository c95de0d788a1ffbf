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
/// the first three whose `mismatch` is not `nil`; a handful of shrunk examples says enough.
func checkRandomPrograms<Program: ShrinkableProgram>(
  _: Program.Type, seeds: Range<UInt64>, sourceLocation: SourceLocation = #_sourceLocation,
  mismatch: (Program) -> String?
) {
  var failures = 0
  for seed in seeds {
    let program = Program.random(seed: seed)
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
    if failures == 3 { break }
  }
}
