import Dispatch
import Foundation
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

@MainActor
final class MainActorWidget {
  var seen: [String] = []
}

/// Waits until everything enqueued on the main queue before this call has run.
@MainActor
func drainMainQueue() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.main.async { continuation.resume() }
  }
}

/// A widget that observes `Counted` on the main actor and records each value it is given, checking
/// that it runs on the main actor.
@MainActor
private func widgetSeeingCountsOnTheMainActor(from center: TypedNotificationCenter) -> MainActorWidget {
  let widget = MainActorWidget()
  center.observeOnMainActor(Counted.self, owner: widget) { widget, note in
    MainActor.assertIsolated()
    widget.seen.append("\(note.value)")
  }
  return widget
}

@Suite(.timeLimit(.minutes(1))) @MainActor struct MainActorDeliveryTests {
  @Test func postOnTheMainActorDeliversSynchronouslyInRegistrationOrder() {
    let center = TypedNotificationCenter()
    let widget = MainActorWidget()
    let log = LockedLog<String>()
    center.observeOnMainActor(Counted.self, owner: widget) { widget, note in widget.seen.append("main \(note.value)") }
    let plain = center.observe(Counted.self) { note in log.record("plain \(note.value)") }
    let mainToken = center.observeOnMainActor(Counted.self) { note in widget.seen.append("token \(note.value)") }
    center.post(Counted(value: 1))
    #expect(widget.seen == ["main 1", "token 1"], "delivered before post returned")
    #expect(log.entries == ["plain 1"])
    withExtendedLifetime([plain, mainToken]) {}
  }

  @Test func postFromElsewhereIsDeliveredOnTheMainActorInPostingOrder() async {
    let center = TypedNotificationCenter()
    let widget = widgetSeeingCountsOnTheMainActor(from: center)
    await Task.detached {
      for value in 1...20 { center.post(Counted(value: value)) }
    }.value
    await drainMainQueue()
    #expect(widget.seen == (1...20).map { "\($0)" })
  }

  @Test func observerCancelledBeforeTheEnqueuedDeliveryRunsIsNotCalled() async {
    let center = TypedNotificationCenter()
    let widget = MainActorWidget()
    let token = center.observeOnMainActor(Counted.self) { note in widget.seen.append("\(note.value)") }
    onAnotherThread { center.post(Counted(value: 1)) }
    token.cancel()  // the delivery is already enqueued on the main queue, which cannot run yet
    await drainMainQueue()
    #expect(widget.seen.isEmpty)
  }

  @Test func ownerReleasedBeforeTheEnqueuedDeliveryRunsIsNotCalled() async throws {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    var widget: MainActorWidget? = MainActorWidget()
    let tracker = LeakTracker()
    tracker.track(try #require(widget))
    center.observeOnMainActor(Counted.self, owner: try #require(widget)) { _, note in log.record("\(note.value)") }
    onAnotherThread { center.post(Counted(value: 1)) }
    widget = nil
    await expectReleased(tracker, "an enqueued delivery does not retain the owner")
    await drainMainQueue()
    #expect(log.entries.isEmpty)
    await expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func postsFromSeveralThreadsReachMainActorObserversOnceEachInPerThreadOrder() async {
    let center = TypedNotificationCenter()
    let widget = widgetSeeingCountsOnTheMainActor(from: center)
    // Four threads post 250 values each (thread * 1,000 + i) while the main actor is busy waiting.
    onAnotherThread {
      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for value in 0..<250 { center.post(Counted(value: thread * 1_000 + value)) }
      }
    }
    await drainMainQueue()
    let values = widget.seen.compactMap { Int($0) }
    #expect(values.count == 1_000)
    #expect(Set(values).count == 1_000, "each post delivered exactly once")
    for thread in 0..<4 {
      let mine = values.filter { $0 / 1_000 == thread }
      #expect(mine == mine.sorted(), "posts from one thread arrive in their order")
    }
  }

  /// Main-actor observers (owner-bound and token-bound) of posts made on four other threads: each
  /// call must run on the main queue, the main actor's executor. The handlers record where they run
  /// instead of asserting it, and the whole story runs in a child process, so that a delivery off
  /// the main actor fails this test by name, whether it runs silently on the posting thread or
  /// traps there (the core's `MainActor.assumeIsolated` would stop the whole test run otherwise).
  @Test func mainActorObserversPostedToFromOtherThreadsRunOnTheMainQueue() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let mainQueue = DispatchSpecificKey<UInt8>()
      DispatchQueue.main.setSpecific(key: mainQueue, value: 1)
      let center = TypedNotificationCenter()
      let places = LockedLog<String>()
      @Sendable func record(_ observer: String) {
        let place = DispatchQueue.getSpecific(key: mainQueue) != nil ? "main queue" : "elsewhere"
        places.record("\(observer) on \(place)")
      }
      let widget = MainActorWidget()
      center.observeOnMainActor(Counted.self, owner: widget) { _, _ in record("owner-bound") }
      let token = center.observeOnMainActor(Counted.self) { _ in record("token-bound") }
      onAnotherThread {
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
          for value in 0..<50 { center.post(Counted(value: thread * 1_000 + value)) }
        }
      }
      await drainMainQueue()
      let recorded = places.entries
      let offMain = recorded.filter { $0.hasSuffix("elsewhere") }
      guard recorded.count == 400, offMain.isEmpty else {
        let message = "\(recorded.count) of 400 calls, \(offMain.count) off the main queue: \(offMain.prefix(3))\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(EXIT_FAILURE)
      }
      withExtendedLifetime((widget, token)) {}
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.isEmpty, "the child reported: \(stderr)")
  }
}
