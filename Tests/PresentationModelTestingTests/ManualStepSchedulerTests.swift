import PresentationModelTesting
import Testing

@MainActor
@Suite struct ManualStepSchedulerTests {
  let scheduler = ManualStepScheduler()
  /// Each entry: the action's label and the virtual time it saw when it ran.
  final class Runs {
    var entries: [String] = []
  }
  let runs = Runs()

  func schedule(_ label: String, after delay: Duration) -> ScheduledStep {
    scheduler.schedule(after: delay) { [runs, scheduler] in
      runs.entries.append("\(label)@\(scheduler.elapsedSinceOrigin.milliseconds)")
    }
  }

  @Test func startsAtZeroWithNothingPending() {
    #expect(scheduler.elapsedSinceOrigin == .zero)
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.nextDeadline == nil)
    scheduler.advance(by: .seconds(3))
    #expect(scheduler.elapsedSinceOrigin == .seconds(3))
  }

  @Test func runsEachActionAtItsDeadlineAndNotBefore() {
    _ = schedule("b", after: .milliseconds(20))
    _ = schedule("a", after: .milliseconds(10))
    #expect(scheduler.pendingCount == 2)
    #expect(scheduler.nextDeadline == .milliseconds(10))

    scheduler.advance(by: .milliseconds(9))
    #expect(runs.entries.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(runs.entries == ["a@10"])
    scheduler.advance(by: .milliseconds(15))
    #expect(runs.entries == ["a@10", "b@20"], "each action sees its own deadline as now")
    #expect(scheduler.elapsedSinceOrigin == .milliseconds(25))
    #expect(scheduler.pendingCount == 0)
  }

  @Test func equalDeadlinesRunInSchedulingOrder() {
    for label in ["first", "second", "third", "fourth"] {
      _ = schedule(label, after: .milliseconds(5))
    }
    scheduler.advance(by: .milliseconds(5))
    #expect(runs.entries == ["first@5", "second@5", "third@5", "fourth@5"])
  }

  @Test func actionsScheduledDuringAnAdvanceRunInItWhenTheirDeadlineFallsInside() {
    _ = scheduler.schedule(after: .milliseconds(10)) { [runs] in
      runs.entries.append("outer@10")
      _ = schedule("inside", after: .milliseconds(5))  // 15: inside the window
      _ = schedule("same time", after: .zero)  // 10: after its equal-deadline peers
      _ = schedule("outside", after: .milliseconds(50))  // 60: beyond it
    }
    _ = schedule("peer", after: .milliseconds(10))
    _ = schedule("later", after: .milliseconds(12))

    scheduler.advance(by: .milliseconds(30))
    #expect(runs.entries == ["outer@10", "peer@10", "same time@10", "later@12", "inside@15"])
    #expect(scheduler.elapsedSinceOrigin == .milliseconds(30))
    #expect(scheduler.pendingCount == 1)
    #expect(scheduler.nextDeadline == .milliseconds(60))
    scheduler.runUntilIdle()
    #expect(runs.entries.last == "outside@60")
  }

  @Test func cancelledActionsNeverRunAndCancellingTwiceOrLateIsHarmless() {
    let cancelled = schedule("cancelled", after: .milliseconds(10))
    let kept = schedule("kept", after: .milliseconds(10))
    cancelled.cancel()
    #expect(cancelled.isCancelled)
    #expect(scheduler.pendingCount == 1)
    cancelled.cancel()
    #expect(scheduler.pendingCount == 1, "a second cancel withdraws nothing else")

    scheduler.advance(by: .milliseconds(10))
    #expect(runs.entries == ["kept@10"])
    kept.cancel()  // after it ran
    scheduler.runUntilIdle()
    #expect(runs.entries == ["kept@10"])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func cancellingReleasesWhatTheActionCapturedAtOnce() {
    final class Captured: Sendable {}
    var captured: Captured? = Captured()
    weak let weakCaptured = captured
    let step = scheduler.schedule(after: .seconds(10)) { [captured] in withExtendedLifetime(captured) {} }
    captured = nil
    #expect(weakCaptured != nil, "the scheduled action holds its captures")
    step.cancel()
    #expect(weakCaptured == nil, "cancelling must not wait for the deadline to let go")
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.nextDeadline == nil)
  }

  @Test func manyInterleavedDeadlinesRunInDeadlineThenSchedulingOrder() throws {
    // Deadlines scrambled by a fixed permutation (7 is coprime with 60), with duplicates.
    for index in 0..<60 {
      let deadline = (index * 7 % 60) / 2
      _ = schedule("\(deadline).\(index)", after: .milliseconds(deadline))
    }
    scheduler.runUntilIdle()
    let ran = try runs.entries.map { entry -> (Int, Int) in
      let parts = entry.split(separator: "@")[0].split(separator: ".")
      return (try #require(Int(parts[0])), try #require(Int(parts[1])))
    }
    #expect(ran.count == 60)
    #expect(ran.map(\.0) == ran.map(\.0).sorted(), "deadline order")
    for deadline in Set(ran.map(\.0)) {
      let orders = ran.filter { $0.0 == deadline }.map(\.1)
      #expect(orders == orders.sorted(), "equal deadlines keep scheduling order")
    }
  }

  @Test func anActionMayCancelAnotherDueAtTheSameTime() {
    var victim: ScheduledStep?
    _ = scheduler.schedule(after: .milliseconds(1)) { [runs] in
      runs.entries.append("canceller")
      victim?.cancel()
    }
    victim = schedule("victim", after: .milliseconds(1))
    scheduler.advance(by: .milliseconds(1))
    #expect(runs.entries == ["canceller"])
    #expect(scheduler.pendingCount == 0)
  }

  @Test(arguments: [Duration.zero, .milliseconds(-20)])
  func nonPositiveDelaysAreDueNowAndRunOnTheNextAdvance(_ delay: Duration) {
    scheduler.advance(by: .milliseconds(7))
    _ = schedule("now", after: delay)
    #expect(runs.entries.isEmpty, "never run from inside schedule(after:_:)")
    #expect(scheduler.nextDeadline == .milliseconds(7))
    scheduler.advance(by: .zero)
    #expect(runs.entries == ["now@7"])
  }

  @Test func runUntilIdleFollowsChainsAndStopsAtTheLastDeadline() {
    var remaining = 3
    func chain() {
      _ = scheduler.schedule(after: .milliseconds(100)) { [runs, scheduler] in
        runs.entries.append("link@\(scheduler.elapsedSinceOrigin.milliseconds)")
        remaining -= 1
        if remaining > 0 { chain() }
      }
    }
    chain()
    scheduler.runUntilIdle()
    #expect(runs.entries == ["link@100", "link@200", "link@300"])
    #expect(scheduler.elapsedSinceOrigin == .milliseconds(300))
    #expect(scheduler.pendingCount == 0)
  }

  @Test(.timeLimit(.minutes(1))) func advancingBackwardsIsAPreconditionFailureThatSaysSo() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { ManualStepScheduler().advance(by: .milliseconds(-1)) }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("cannot move time backwards"), "stderr was: \(message)")
  }

  /// An action that reschedules itself with a zero delay never lets time reach the end of the
  /// window: `advance(by:)` stops after ``ManualStepScheduler/actionLimit`` actions, saying so,
  /// instead of never returning.
  @Test(.timeLimit(.minutes(2))) func advancingThroughAnEndlessRunOfZeroDelaysStopsWithAMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        @MainActor func reschedule(on scheduler: ManualStepScheduler) {
          _ = scheduler.schedule(after: .zero) { reschedule(on: scheduler) }
        }
        let scheduler = ManualStepScheduler()
        reschedule(on: scheduler)
        scheduler.advance(by: .milliseconds(1))
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains("ManualStepScheduler.advance(by: 0.001 seconds) ran 1000000 actions"), "stderr was: \(message)")
    #expect(message.contains("reached only 0.0 seconds of the window"))
    #expect(message.contains("keeps rescheduling itself"))
  }

  @Test func advanceRunsAFiniteChainOfZeroDelaysAtTheSameInstant() {
    @MainActor final class Countdown {
      var remaining = 1_000
      func run(on scheduler: ManualStepScheduler) {
        remaining -= 1
        if remaining > 0 { _ = scheduler.schedule(after: .zero) { self.run(on: scheduler) } }
      }
    }
    let countdown = Countdown()
    _ = scheduler.schedule(after: .milliseconds(5)) { [scheduler] in countdown.run(on: scheduler) }
    scheduler.advance(by: .milliseconds(5))
    #expect(countdown.remaining == 0)
    #expect(scheduler.elapsedSinceOrigin == .milliseconds(5))
  }
}

extension Duration {
  /// Whole milliseconds, for compact labels.
  fileprivate var milliseconds: Int64 {
    components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
  }
}
