import Dispatch
import Foundation
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Synchronization
import Testing

@Suite struct OneShotTests {
  @Test func tokenFormFiresOnceThenEnds() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let token = center.observeOnce(Counted.self) { note in log.record("\(note.value)") }
    #expect(center.observerCount(for: Counted.self) == 1)
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])
    #expect(!token.isActive)
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func ownerFormFiresOnceAndEndsWithTheOwner() throws {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    var owner: Owner? = Owner("o", log: log)
    center.observeOnce(Counted.self, owner: try #require(owner)) { owner, note in owner.log.record("\(note.value)") }
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])

    center.observeOnce(Counted.self, owner: try #require(owner)) { owner, note in
      owner.log.record("again \(note.value)")
    }
    owner = nil
    center.post(Counted(value: 3))
    #expect(log.entries == ["1"])
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func releasingTheTokenBeforeAnyPostEndsItWithoutACall() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    var token: ObserverToken? = center.observeOnce(Counted.self) { _ in log.record("called") }
    #expect(token?.isActive == true)
    token = nil
    center.post(Counted(value: 1))
    #expect(log.entries.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func concurrentPostsCallItExactlyOnce() {
    for _ in 0..<200 {
      let center = TypedNotificationCenter()
      let calls = Atomic<Int>(0)
      let token = center.observeOnce(Counted.self) { _ in calls.add(1, ordering: .relaxed) }
      DispatchQueue.concurrentPerform(iterations: 8) { index in center.post(Counted(value: index)) }
      #expect(calls.load(ordering: .relaxed) == 1)
      #expect(!token.isActive)
    }
  }

  /// Four threads released together by a spin barrier post onto one `observeOnce`, 50 times over.
  /// Its handler takes a moment: it waits (spinning, for at most 100 ms) until the three other
  /// posts have returned. A one-shot must be ended before its handler runs, in one atomic step:
  /// checked as not ended, called, and marked ended only afterwards, every other post would arrive
  /// during that call and call it again, in every trial.
  @Test(.timeLimit(.minutes(2)))
  func postsReleasedTogetherOntoASlowOneShotCallItExactlyOnce() async {
    final class Trial: Sendable {
      let calls = Atomic<Int>(0)
      let postsReturned = Atomic<Int>(0)
    }
    let threads = 4
    let trials = (0..<50).map { _ in Trial() }
    let centers = trials.map { _ in TypedNotificationCenter() }
    let tokens = zip(centers, trials).map { center, trial in
      center.observeOnce(Counted.self) { _ in
        trial.calls.add(1, ordering: .relaxed)
        let clock = ContinuousClock()
        let giveUp = clock.now.advanced(by: .milliseconds(100))
        while trial.postsReturned.load(ordering: .acquiring) < threads - 1 && clock.now < giveUp {}
      }
    }
    await postFromThreadsReleasedTogether(threads: threads, to: centers) { round in
      trials[round].postsReturned.add(1, ordering: .releasing)
    }
    expectEachCalledOnce(trials.map { $0.calls.load(ordering: .relaxed) })
    #expect(tokens.allSatisfy { !$0.isActive })
  }

  /// Two threads post onto the same 1,000 one-shots at once; each one-shot must be called exactly
  /// once. Ending a one-shot has to be one atomic step: if it were checked as not ended and then
  /// marked ended, the other thread could pass the check in between, a window of a few
  /// instructions. To hit it, the threads meet before every one-shot: an ordinary observer
  /// registered just before it is a spin barrier that both posts reach, so both arrive at the
  /// one-shot at the same moment.
  @Test(.timeLimit(.minutes(2)))
  func postsThatMeetBeforeEachOneShotCallItExactlyOnce() async {
    final class Meeting: Sendable {
      let calls = Atomic<Int>(0)
      let arrivals = Atomic<Int>(0)
    }
    let threads = 2
    let center = TypedNotificationCenter()
    let meetings = (0..<1_000).map { _ in Meeting() }
    let tokens = meetings.flatMap { meeting in
      [
        center.observe(Counted.self) { _ in
          meeting.arrivals.add(1, ordering: .acquiringAndReleasing)
          let clock = ContinuousClock()
          let giveUp = clock.now.advanced(by: .milliseconds(100))
          while meeting.arrivals.load(ordering: .acquiring) < threads && clock.now < giveUp {}
        },
        center.observeOnce(Counted.self) { _ in meeting.calls.add(1, ordering: .relaxed) },
      ]
    }
    await postFromThreadsReleasedTogether(threads: threads, to: [center])
    expectEachCalledOnce(meetings.map { $0.calls.load(ordering: .relaxed) })
    #expect(zip(tokens.indices, tokens).allSatisfy { $0.isMultiple(of: 2) ? $1.isActive : !$1.isActive })
  }
}

/// Starts `threads` threads that each post once to every center in turn (then call `afterEachPost`
/// with the center's index), and waits for them. A spin barrier per center releases them together:
/// everyone posts as soon as the last has arrived.
private func postFromThreadsReleasedTogether(
  threads: Int, to centers: [TypedNotificationCenter], afterEachPost: @escaping @Sendable (Int) -> Void = { _ in }
) async {
  await postFromThreadsReleasedTogether(threads: threads, rounds: centers.count, afterEachPost: afterEachPost) {
    round in centers[round].post(Counted(value: round))
  }
}

/// Starts `threads` threads that each call `post` once per round, `rounds` rounds in turn (then call
/// `afterEachPost` with the round), and waits for them. A spin barrier per round releases them
/// together: everyone posts as soon as the last has arrived.
func postFromThreadsReleasedTogether(
  threads: Int, rounds: Int, eachThreadFirst: @escaping @Sendable (_ thread: Int) -> Void = { _ in },
  afterEachPost: @escaping @Sendable (Int) -> Void = { _ in }, post: @escaping @Sendable (_ round: Int) -> Void
) async {
  // Awaited, not waited for: blocking one of the few cooperative threads for seconds would starve
  // the tests running alongside.
  let arrivals = Atomic<Int>(0)
  await runOnThreads(threads, named: "one-shot") { thread in
    eachThreadFirst(thread)
    for round in 0..<rounds {
      arrivals.add(1, ordering: .acquiringAndReleasing)
      while arrivals.load(ordering: .acquiring) < threads * (round + 1) { sched_yield() }
      post(round)
      afterEachPost(round)
    }
  }
}

/// Expects every one-shot's call count to be 1, saying how many were not and the worst count.
func expectEachCalledOnce(_ calls: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
  let wrong = calls.count(where: { $0 != 1 })
  #expect(
    wrong == 0, "\(wrong) of \(calls.count) one-shots were not called exactly once (max \(calls.max() ?? 0) calls)",
    sourceLocation: sourceLocation)
}
