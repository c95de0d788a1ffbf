import PresentationModel
import PresentationTestSupport
import Testing

/// Thousands of small random single-threaded programs — observe by token, by owner, once, with and
/// without a sender filter; post; cancel; release tokens and owners; handlers that post, observe,
/// cancel and release re-entrantly, nested up to ``ModelProgram/maximumDepth`` — each run against
/// the real center and against ``ReferenceCenter``, comparing every delivery in order and, after
/// every operation, both observer counts and which tokens are active.
///
/// A failure prints the program's seed and the smallest program (removing one operation or reaction
/// at a time) that still fails.
@Suite struct NotificationModelTests {
  static let programCount = 3_000
  static let firstSeed: UInt64 = 0xC0FF_EE00

  @Test("3,000 random re-entrant programs deliver exactly as the reference model does", .timeLimit(.minutes(1)))
  func randomProgramsMatchTheReferenceModel() async {
    // On a thread of its own: seconds of synchronous work would hold one of the few threads of the
    // cooperative pool, and tests that wait for a `Task` of theirs would starve meanwhile.
    await failingOnDeadlock("NotificationModelTests") {
      await runOnThreads(1) { _ in Self.runPrograms() }
    }
  }

  private static func runPrograms() {
    let seeds = Self.firstSeed..<Self.firstSeed + UInt64(Self.programCount)
    checkRandomPrograms(ModelProgram.self, seeds: seeds) { Self.mismatch(in: $0) }
  }

  /// A program whose observer is cancelled by an earlier observer's handler, during the same post.
  /// Kept as a fixed example next to the random ones, so the shape of a program is easy to see.
  @Test func cancelDuringDeliveryStopsTheLaterObserver() {
    let program = ModelProgram(operations: [
      .observe(
        .ping, .token, sender: nil, reactions: [.cancel(id: 1), .observe(.ping, .token, sender: nil, reactions: [])]),
      .observe(.ping, .owner, sender: nil, reactions: []),
      .post(.ping, value: 1, sender: nil),
      .post(.ping, value: 2, sender: nil),
    ])
    #expect(Self.mismatch(in: program) == nil)
    let events = CenterRunner.run(program).events
    let deliveries = events.filter { if case .delivered = $0 { true } else { false } }
    // Observer 0 runs on both posts; 1 was cancelled before its turn; 2 (added during post 1) gets
    // only post 2; 3 (added during post 2) gets nothing.
    #expect(
      deliveries == [
        .delivered(observer: 0, .ping, value: 1, depth: 1),
        .delivered(observer: 0, .ping, value: 2, depth: 1),
        .delivered(observer: 2, .ping, value: 2, depth: 1),
      ])
  }

  /// The first difference between the real center and the model, or `nil` when they agree.
  static func mismatch(in program: ModelProgram) -> String? {
    let runner = CenterRunner.run(program)
    let expected = ReferenceCenter.run(program)
    if let problem = runner.problems.first { return problem }
    return firstDifference(between: runner.events, and: expected, actualSource: "center")
  }
}
