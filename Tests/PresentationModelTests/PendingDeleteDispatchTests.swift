import Dispatch
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

/// The real clock: `DispatchQueue` as a `StepScheduler`, on Linux as on Apple platforms.
@MainActor
@Suite struct PendingDeleteDispatchTests {
  enum TimerQueue: String, CaseIterable, Sendable {
    case main
    case privateSerial

    var queue: DispatchQueue {
      switch self {
      case .main: .main
      case .privateSerial: DispatchQueue(label: "PendingDeleteDispatchTests.timer")
      }
    }
  }

  @Test(.timeLimit(.minutes(1)), arguments: TimerQueue.allCases)
  func fadesAndDisposesOnARealQueue(_ timerQueue: TimerQueue) async throws {
    let pendingDelete = PendingDelete(duration: .milliseconds(20), steps: 4, scheduler: timerQueue.queue)
    let log = LockedLog<String>()
    var widget: RecordingWidget? = RecordingWidget("node", log: log)
    let tracker = LeakTracker()
    tracker.track(try #require(widget))
    let clock = ContinuousClock()
    let start = clock.now

    let outcome = await pendingDelete.fadeOutAndDispose(try #require(widget))

    #expect(clock.now - start >= .milliseconds(20), "four 5 ms steps, none early")
    #expect(outcome == .disposed)
    // Every step in order; a step that a busy machine runs after the next was due applies both at
    // once, so a value may be skipped, never repeated or out of order.
    let history = try #require(widget?.opacityHistory)
    #expect(history.last == 0 && history.allSatisfy([0.75, 0.5, 0.25, 0].contains), "\(history)")
    #expect(zip(history, history.dropFirst()).allSatisfy { $0 > $1 }, "\(history)")
    #expect(widget?.disposeCount == 1)
    #expect(pendingDelete.pendingCount == 0)
    widget = nil
    await expectReleased(tracker, "PendingDelete let go of the disposed widget")
    #expect(log.entries == ["dispose node", "deinit node"])
  }

  @Test(.timeLimit(.minutes(1)), arguments: TimerQueue.allCases)
  func aCancelledStepNeverRunsOnARealQueue(_ timerQueue: TimerQueue) async {
    let queue = timerQueue.queue
    var ran: [String] = []
    let cancelled = queue.schedule(after: .milliseconds(5)) { ran.append("cancelled") }
    cancelled.cancel()
    // Same queue, later deadline: by the time it runs, the cancelled one would have run too.
    await withCheckedContinuation { continuation in
      _ = queue.schedule(after: .milliseconds(15)) {
        ran.append("kept")
        continuation.resume()
      }
    }
    #expect(ran == ["kept"])
    #expect(cancelled.isCancelled)
  }

  /// The async form, started at once on the main actor (`Task.immediate` runs it up to its first
  /// suspension before returning), then cancelled. (The fade used to start in a `Task {}` that the
  /// test waited for with `Task.yield()`: under ThreadSanitizer on a loaded 2-core machine the task
  /// did not run for 60 s, in 4 of 4 runs of the core and harness suites together.)
  @Test(.timeLimit(.minutes(1)))
  func cancellingAFadeOnARealQueueRestoresAndCompletes() async throws {
    let pendingDelete = PendingDelete(duration: .seconds(30), steps: 3, scheduler: DispatchQueue.main)
    let widget = RecordingWidget(opacity: 0.5)
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else {
      // Before Task.immediate: the completion form, which starts the fade before it returns.
      let outcome = LockedLog<PendingDelete.Outcome>()
      pendingDelete.fadeOutAndDispose(widget) { outcome.record($0) }
      #expect(pendingDelete.cancel(widget))
      #expect(outcome.entries == [.cancelled])
      #expect(widget.opacity == 0.5)
      return
    }
    let fade = Task.immediate { await pendingDelete.fadeOutAndDispose(widget) }
    #expect(pendingDelete.isPending(widget))
    pendingDelete.cancel(widget)
    #expect(await fade.value == .cancelled)
    #expect(widget.opacity == 0.5)
    #expect(widget.disposeCount == 0)
  }
}
