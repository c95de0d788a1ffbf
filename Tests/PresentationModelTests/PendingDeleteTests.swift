import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

// `RelationshipsChanged` is the shared test notification declared in Support.swift.

/// The node widget of the code this package started from: it observes the presentation model for
/// as long as it lives.
@MainActor
private final class NodeWidget: Fadable {
  var opacity = 1.0
  private(set) var isOnCanvas = true
  let log: LockedLog<String>

  init(center: TypedNotificationCenter, log: LockedLog<String>) {
    self.log = log
    center.observe(RelationshipsChanged.self, owner: self) { widget, _ in
      widget.log.record("redraw")
    }
  }

  deinit {
    log.record("deinit")
  }

  func dispose() {
    isOnCanvas = false
    log.record("dispose")
  }
}

@MainActor
@Suite struct PendingDeleteTests {
  struct FadeCase: Sendable, CustomTestStringConvertible {
    let startOpacity: Double
    let steps: Int
    let duration: Duration
    let expectedOpacities: [Double]
    var testDescription: String { "\(steps) steps from \(startOpacity)" }
  }

  @Test(arguments: [
    FadeCase(startOpacity: 1, steps: 4, duration: .milliseconds(100), expectedOpacities: [0.75, 0.5, 0.25, 0]),
    FadeCase(startOpacity: 0.75, steps: 3, duration: .milliseconds(90), expectedOpacities: [0.5, 0.25, 0]),
    FadeCase(startOpacity: 0.5, steps: 2, duration: .milliseconds(30), expectedOpacities: [0.25, 0]),
    FadeCase(startOpacity: 1, steps: 1, duration: .milliseconds(10), expectedOpacities: [0]),
    FadeCase(
      startOpacity: 1, steps: 8, duration: .seconds(2),
      expectedOpacities: [0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0]),
  ])
  func opacityIsExactAfterEachStepAndUnchangedBetweenSteps(_ fade: FadeCase) {
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: fade.duration, steps: fade.steps, scheduler: scheduler)
    let widget = RecordingWidget(opacity: fade.startOpacity)
    pendingDelete.fadeOutAndDispose(widget)
    let interval = fade.duration / fade.steps

    for (index, expected) in fade.expectedOpacities.enumerated() {
      let before = index == 0 ? fade.startOpacity : fade.expectedOpacities[index - 1]
      scheduler.advance(by: interval - .nanoseconds(1))
      #expect(widget.opacity == before, "step \(index + 1) must not happen early")
      #expect(widget.disposeCount == 0)
      scheduler.advance(by: .nanoseconds(1))
      #expect(widget.opacity == expected, "after step \(index + 1)")
    }
    #expect(scheduler.elapsedSinceOrigin == fade.duration)
    #expect(widget.disposeCount == 1)
    #expect(widget.opacityHistory == fade.expectedOpacities, "one write per step, nothing else")
    #expect(pendingDelete.pendingCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func disposesOnceThenCompletesThenLetsTheWidgetDeinitialise() throws {
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: .milliseconds(300), steps: 10, scheduler: scheduler)
    let log = LockedLog<String>()
    var widget: RecordingWidget? = RecordingWidget("node", log: log)
    weak let weakWidget = widget
    pendingDelete.fadeOutAndDispose(try #require(widget)) { outcome in log.record("completion \(outcome)") }
    widget = nil

    scheduler.advance(by: .milliseconds(299))
    #expect(weakWidget != nil, "PendingDelete holds the widget while it fades")
    #expect(pendingDelete.isPending(try #require(weakWidget)))
    #expect(log.entries.isEmpty)

    scheduler.advance(by: .milliseconds(1))
    #expect(log.entries == ["dispose node", "completion disposed", "deinit node"])
    #expect(weakWidget == nil)
    scheduler.runUntilIdle()
    #expect(log.entries.count == 3, "nothing happens after disposal")
    #expect(pendingDelete.pendingCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  /// Case 002 of the code this package started from: the tap on Delete to the last observer gone.
  @Test func deletedNodeWidgetFadesDisposesDeinitialisesAndStopsObserving() throws {
    let center = TypedNotificationCenter()
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: .milliseconds(300), steps: 10, scheduler: scheduler)
    let log = LockedLog<String>()
    var widget: NodeWidget? = NodeWidget(center: center, log: log)
    weak let weakWidget = widget
    #expect(center.observerCount(for: RelationshipsChanged.self) == 1)

    // The canvas hands the deleted node's widget over and drops its own reference.
    pendingDelete.fadeOutAndDispose(try #require(widget))
    widget = nil

    do {
      scheduler.advance(by: .milliseconds(150))
      let fading = try #require(weakWidget)
      #expect(fading.opacity == 0.5)
      center.post(RelationshipsChanged())
      #expect(log.entries == ["redraw"], "a fading widget still observes")
      #expect(fading.isOnCanvas)

      scheduler.advance(by: .milliseconds(150))
      #expect(!fading.isOnCanvas)
      #expect(fading.opacity == 0)
      #expect(log.entries == ["redraw", "dispose"], "only this test's reference keeps it alive now")
      withExtendedLifetime(fading) {}
    }

    #expect(weakWidget == nil)
    #expect(log.entries == ["redraw", "dispose", "deinit"])
    #expect(center.observerCount(for: RelationshipsChanged.self) == 0)
    #expect(center.registrations.isEmpty)
    center.post(RelationshipsChanged())
    #expect(log.entries.count == 3, "nobody redraws after the deinit")
    #expect(pendingDelete.pendingCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test(arguments: [Duration.zero, .milliseconds(-5), .seconds(-1)])
  func nonPositiveDurationDisposesBeforeReturningAndStillCompletes(_ duration: Duration) {
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: duration, steps: 10, scheduler: scheduler)
    let outcomes = OutcomeLog()
    let widget = RecordingWidget(opacity: 0.8)
    pendingDelete.fadeOutAndDispose(widget, completion: outcomes.completion("w"))

    #expect(widget.opacityHistory == [0], "opacity goes to 0 first, once")
    #expect(widget.disposeCount == 1)
    #expect(outcomes.outcomes == ["w disposed"])
    #expect(pendingDelete.pendingCount == 0)
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.elapsedSinceOrigin == .zero)
  }

  @Test(.timeLimit(.minutes(1)))
  func asyncVariantReturnsAtOnceForZeroDuration() async {
    let pendingDelete = PendingDelete(duration: .zero, scheduler: ManualStepScheduler())
    let widget = RecordingWidget()
    let outcome = await pendingDelete.fadeOutAndDispose(widget)
    #expect(outcome == .disposed)
    #expect(widget.disposeCount == 1)
  }

  @Test(.timeLimit(.minutes(1)))
  func asyncVariantReturnsTheOutcomeWhenTheFadeEnds() async throws {
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: .milliseconds(100), steps: 4, scheduler: scheduler)
    let disposed = RecordingWidget("disposed")
    let cancelled = RecordingWidget("cancelled")
    let disposal = Task { await pendingDelete.fadeOutAndDispose(disposed) }
    let cancellation = Task { await pendingDelete.fadeOutAndDispose(cancelled) }
    // The tasks run on the main actor once this test suspends.
    while pendingDelete.pendingCount < 2 {
      try #require(!Task.isCancelled, "the two fades never started before the time limit")
      await Task.yield()
    }

    scheduler.advance(by: .milliseconds(50))
    #expect(pendingDelete.cancel(cancelled))
    #expect(await cancellation.value == .cancelled)
    #expect(cancelled.opacity == 1)
    scheduler.advance(by: .milliseconds(50))
    #expect(await disposal.value == .disposed)
    #expect(disposed.disposeCount == 1)
    #expect(cancelled.disposeCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  /// Step `k` of `n` is due at `k × duration / n` from the start, computed exactly, not as `k`
  /// rounded intervals: 100 ms / 3 is not a whole number of attoseconds, so summed intervals would
  /// end an attosecond early.
  @Test(arguments: [3, 7, 1_000])
  func stepKIsScheduledAtKTimesDurationOverN(steps: Int) throws {
    let scheduler = ManualStepScheduler()
    let duration = Duration.milliseconds(100)
    let pendingDelete = PendingDelete(duration: duration, steps: steps, scheduler: scheduler)
    let widget = RecordingWidget()
    pendingDelete.fadeOutAndDispose(widget)
    for step in 1...steps {
      let deadline = try #require(scheduler.nextDeadline, "step \(step) is scheduled")
      #expect(deadline == duration * step / steps, "step \(step) of \(steps)")
      scheduler.advance(by: deadline - scheduler.elapsedSinceOrigin)
    }
    #expect(widget.disposeCount == 1)
    #expect(scheduler.elapsedSinceOrigin == duration)
    #expect(scheduler.pendingCount == 0)
  }

  /// A scheduler that runs every action a little late, as a busy main queue does: each step is
  /// still timed from the start, so the lateness does not add up over the steps.
  @Test func lateStepsDoNotPushBackTheEnd() {
    let scheduler = LateStepScheduler(lateness: .microseconds(10))
    let pendingDelete = PendingDelete(duration: .milliseconds(50), steps: 1_000, scheduler: scheduler)
    let widget = RecordingWidget()
    pendingDelete.fadeOutAndDispose(widget)
    // Timed from the previous step instead, 1,000 late steps would end 10 ms late, at 60 ms.
    scheduler.clock.advance(by: .milliseconds(50) + .microseconds(10))
    #expect(widget.disposeCount == 1)
    #expect(widget.opacityHistory.count == 1_000)
    #expect(scheduler.clock.pendingCount == 0)
  }

  /// What `StepScheduler.elapsedSinceOrigin` documents: read when a fade starts, and for each step
  /// when it runs and again before the next one is scheduled (after the opacity was set). The
  /// documentation said once per step (9 in 8 steps) while the fade read 17 (issue 27).
  @Test func theClockIsReadTwicePerStepAndOnceMoreAtTheStart() {
    let scheduler = ReadCountingScheduler()
    let pendingDelete = PendingDelete(duration: .milliseconds(80), steps: 8, scheduler: scheduler)
    let widget = RecordingWidget()
    pendingDelete.fadeOutAndDispose(widget)
    scheduler.clock.advance(by: .milliseconds(80))
    #expect(widget.disposeCount == 1)
    #expect(scheduler.reads == 2 * 8 + 1)
  }

  /// The main queue runs a block some microseconds after it is due; 100,000 steps over 50 ms are
  /// due every 0.5 µs. Run one at a time, each late, they ended after about 300 ms on the main
  /// queue; the steps already due when one runs are applied at once, as one.
  @Test func stepsAlreadyDueAreAppliedAtOnceSoAFadeOfManyStepsEndsOnTime() {
    let scheduler = LateStepScheduler(lateness: .microseconds(3))
    let pendingDelete = PendingDelete(duration: .milliseconds(50), steps: 100_000, scheduler: scheduler)
    let widget = RecordingWidget()
    pendingDelete.fadeOutAndDispose(widget)
    scheduler.clock.advance(by: .milliseconds(25))
    // Half the steps are due, and at most 3 µs' worth (6 steps) is not applied yet; one at a time,
    // the fade had reached 0.917.
    #expect(widget.opacity >= 0.5 && widget.opacity <= 0.5 + 6.0 / 100_000, "opacity \(widget.opacity) at 25 ms")
    #expect(widget.disposeCount == 0)
    scheduler.clock.advance(by: .milliseconds(25) + .microseconds(3))
    #expect(widget.disposeCount == 1, "not disposed at 50 ms plus one step's lateness")
    #expect(widget.opacityHistory.count < 20_000, "\(widget.opacityHistory.count) opacity changes")
    #expect(scheduler.clock.pendingCount == 0)
  }

  @Test func aStepAsShortAsOneNanosecondIsAllowed() {
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: .nanoseconds(8), steps: 8, scheduler: scheduler)
    let widget = RecordingWidget()
    pendingDelete.fadeOutAndDispose(widget)
    scheduler.advance(by: .nanoseconds(7))
    #expect(widget.opacity == 0.125)
    scheduler.advance(by: .nanoseconds(1))
    #expect(widget.disposeCount == 1)
  }

  /// `steps: Int.max` used to truncate the step interval to zero: a fade of endless zero-length
  /// steps. More steps than nanoseconds in the duration is now refused, naming both numbers.
  @Test(.timeLimit(.minutes(1))) func moreStepsThanNanosecondsIsAPreconditionFailureThatSaysSo() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = PendingDelete(duration: .milliseconds(300), steps: .max, scheduler: ManualStepScheduler())
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("PendingDelete got steps: 9223372036854775807"), "stderr was: \(message)")
    #expect(message.contains("more steps than the 300000000 nanoseconds in the duration"))
    #expect(message.contains("Use at most 300000000 steps"))
  }

  @Test(.timeLimit(.minutes(1))) func stepsBelowOneIsAPreconditionFailureThatSaysSo() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = PendingDelete(duration: .milliseconds(100), steps: 0, scheduler: ManualStepScheduler())
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("PendingDelete needs steps >= 1"), "stderr was: \(message)")
    #expect(message.contains("got steps: 0"))
  }
}

/// Virtual time on which every action runs `lateness` after it is due, as on a busy main queue.
@MainActor private final class LateStepScheduler: StepScheduler {
  let clock = ManualStepScheduler()
  let lateness: Duration
  var elapsedSinceOrigin: Duration { clock.elapsedSinceOrigin }

  init(lateness: Duration) {
    self.lateness = lateness
  }

  func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) -> ScheduledStep {
    clock.schedule(after: max(delay, .zero) + lateness, action)
  }
}

/// A `ManualStepScheduler` that counts how often its clock is read.
@MainActor private final class ReadCountingScheduler: StepScheduler {
  let clock = ManualStepScheduler()
  private(set) var reads = 0
  var elapsedSinceOrigin: Duration {
    reads += 1
    return clock.elapsedSinceOrigin
  }

  func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) -> ScheduledStep {
    clock.schedule(after: delay, action)
  }
}
