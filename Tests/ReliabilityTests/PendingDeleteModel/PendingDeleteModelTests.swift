import PresentationModel
import Testing

/// Thousands of random interleavings of delete, re-delete (also from completions), cancel,
/// cancel-all and clock advances for three widgets, each run against the real ``PendingDelete`` on
/// a `ManualStepScheduler` and against ``ReferencePendingDelete``: every opacity, disposal,
/// completion and `cancel` result must match, in order. Each run then checks that every widget
/// ended disposed exactly once or restored (never both, never neither), that every completion was
/// called exactly once, and that every widget deallocated.
///
/// A failure prints the program's seed and the smallest program that still fails.
@MainActor
@Suite struct PendingDeleteModelTests {
  static let programCount = 2_000
  static let firstSeed: UInt64 = 0xFADE_0000

  @Test("2,000 random delete/cancel/advance programs match the reference model", .timeLimit(.minutes(1)))
  func randomProgramsMatchTheReferenceModel() {
    failingOnDeadlock("PendingDeleteModelTests") { runPrograms() }
  }

  private func runPrograms() {
    let seeds = Self.firstSeed..<Self.firstSeed + UInt64(Self.programCount)
    checkRandomPrograms(PendingDeleteProgram.self, seeds: seeds) { Self.mismatch(in: $0) }
  }

  /// Delete, re-delete from the completion, cancel mid-fade, delete again: written out as an
  /// example of the program shape, with the exact events it must produce.
  @Test func cancelMidFadeThenDeleteAgainDisposesOnce() {
    let program = PendingDeleteProgram(
      steps: 2, stepMilliseconds: 10,
      operations: [
        .delete(widget: 0, reactions: [.delete(widget: 0)]),
        .advance(milliseconds: 10),
        .cancel(widget: 0),
        .delete(widget: 0, reactions: []),
        .advance(milliseconds: 20),
      ])
    #expect(Self.mismatch(in: program) == nil)
    let events = PendingDeleteRunner.run(program).events.filter {
      if case .state = $0 { false } else { true }
    }
    // The cancel completes call 0 (cancelled) before it returns; that completion's reaction starts a
    // new fade as call 1; the explicit delete joins it as call 2; both complete disposed after two
    // more steps.
    #expect(
      events == [
        .completed(call: 0, .cancelled), .cancelReturned(widget: 0, true), .disposed(widget: 0),
        .completed(call: 1, .disposed), .completed(call: 2, .disposed),
      ])
  }

  static func mismatch(in program: PendingDeleteProgram) -> String? {
    let runner = PendingDeleteRunner.run(program)
    if let problem = runner.endStateProblems.first { return problem }
    return firstDifference(
      between: runner.events, and: ReferencePendingDelete.run(program), actualSource: "PendingDelete")
  }
}
