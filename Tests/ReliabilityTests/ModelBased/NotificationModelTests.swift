import PresentationModel
import PresentationModelDiagnostics
import PresentationTestSupport
import Testing

/// Thousands of small random single-threaded programs — observe by token, by owner, once, with and
/// without a sender filter; post; cancel; release tokens and owners; handlers that post, observe,
/// cancel and release re-entrantly, nested up to ``ModelProgram/maximumDepth`` — each run against
/// each of the three centers (``CenterKind``, the bridge through a real Foundation
/// `NotificationCenter`, with the forms each offers) and against ``ReferenceCenter``, comparing
/// every delivery in order and, after every operation, both observer counts, which tokens are
/// active, and that every ended observer's handler (and what it captured) was released.
///
/// A failure prints the program's seed and the smallest program (removing one operation or reaction
/// at a time) that still fails.
@Suite @MainActor struct NotificationModelTests {
  static let programCount = 2_000
  static let firstSeed: UInt64 = 0xC0FF_EE00

  static let programsBetweenYields = 1

  // On the main actor, whose delivery the main-actor forms need, rather than the cooperative pool
  // (seconds of synchronous work there would starve tests that wait for a `Task` of theirs); one
  // program at a time, yielding between them, so the main actor's other tests run meanwhile: a leak
  // report waits at most 2 s for the main queue to copy main-actor handlers, and 20 programs at a
  // time held it longer on a loaded machine (CI saw a report leave a main-actor handler out).
  @Test(
    "2,000 random re-entrant programs deliver and release exactly as the reference model does",
    .timeLimit(.minutes(2)), arguments: CenterKind.allCases)
  func randomProgramsMatchTheReferenceModel(center kind: CenterKind) async {
    let forms = kind.makeDriver().forms
    await failingOnDeadlock("NotificationModelTests on \(kind)") {
      var failures = 0
      for first in stride(from: 0, to: Self.programCount, by: Self.programsBetweenYields) {
        let start = Self.firstSeed + UInt64(first)
        let seeds = start..<start + UInt64(min(Self.programsBetweenYields, Self.programCount - first))
        failures += checkRandomPrograms(
          ModelProgram.self, seeds: seeds, make: { ModelProgram.random(seed: $0, forms: forms) },
          failureLimit: 3 - failures
        ) { Self.mismatch(in: $0, on: kind) }
        await Task.yield()
      }
    }
  }

  /// A program whose observer is cancelled by an earlier observer's handler, during the same post.
  /// Kept as a fixed example next to the random ones, so the shape of a program is easy to see.
  @Test(arguments: CenterKind.allCases) func cancelDuringDeliveryStopsTheLaterObserver(center kind: CenterKind) {
    let program = ModelProgram(operations: [
      .observe(
        .ping, .token, sender: nil, reactions: [.cancel(id: 1), .observe(.ping, .token, sender: nil, reactions: [])]),
      .observe(.ping, .owner, sender: nil, reactions: []),
      .post(.ping, value: 1, sender: nil),
      .post(.ping, value: 2, sender: nil),
    ])
    #expect(Self.mismatch(in: program, on: kind) == nil)
    guard kind.keepsRegistrationOrder else { return }
    let events = CenterRunner.run(program, on: kind).events
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
  ///
  /// Whether a handler was released is read from its capture, which another test's leak report
  /// never holds meanwhile: the program runs in a scope of its own, as a test under `.detectsLeaks`
  /// does, and a report copies the handlers of its own test's registrations only (a report made
  /// outside every scope, those made outside every scope), as
  /// `LeakTrackerTests.aReportInATestCopiesOnlyThatTestsHandlers` shows. (Before, other tests'
  /// reports copied every handler, and this test ran a disturbed program again, up to 20 times.)
  static func mismatch(in program: ModelProgram, on kind: CenterKind) -> String? {
    LeakScopeLog.withScope(LeakScopeLog()) { runOnce(program, on: kind)?.description }
  }

  private struct Mismatch: CustomStringConvertible {
    let description: String
    /// Whether it is about a handler still held.
    var handlerHeld = false
  }

  private static func runOnce(_ program: ModelProgram, on kind: CenterKind) -> Mismatch? {
    let runner = CenterRunner.run(program, on: kind)
    let expected = ReferenceCenter.run(program, callOrders: kind.keepsRegistrationOrder ? nil : runner.callOrders)
    if let problem = runner.problems.first {
      return Mismatch(description: problem, handlerHeld: problem.hasPrefix(CenterRunner.heldHandlersProblem))
    }
    if let difference = firstDifference(between: runner.events, and: expected.events, actualSource: "\(kind)") {
      return Mismatch(description: difference)
    }
    for (index, (held, released)) in zip(runner.heldHandlers, expected.released).enumerated() {
      let leaked = held.intersection(released)
      guard leaked.isEmpty else {
        return Mismatch(
          description:
            "after operation \(index): \(kind) still holds the handlers of ended observers \(leaked.sorted())",
          handlerHeld: true)
      }
    }
    return nil
  }
}
