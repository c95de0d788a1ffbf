import Foundation
import PresentationModel
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The bridge's one-shots (`observeOnce`, token and owner forms) under posts from several threads,
/// as `OneShotTests` pins the typed center's: the bridge ends a one-shot in a delivery closure of
/// its own, called from each Foundation observer's block. Checking that it has not ended, then
/// ending it, then calling it, as separate steps instead of one atomic exchange, passed every test
/// before these, ThreadSanitizer included; with the once-guard removed entirely, only the model
/// test caught it, through a re-entrant post, and `concurrentPostsCallItExactlyOnce()` passed
/// (issue 29).
@Suite(.timeLimit(.minutes(2)), .serialized) struct BridgeOneShotTests {
  enum Form: String, CaseIterable, Sendable {
    /// `observeOnce(_:from:_:)`
    case token
    /// `observeOnce(_:owner:from:_:)`
    case owner

    /// A one-shot in this form on `bridge` (owned by `owner` in the owner form) that calls `call`.
    func observeOnce<N: FoundationNotification>(
      _ type: N.Type, on bridge: FoundationNotificationBridge, owner: OneShotOwner,
      _ call: @escaping @Sendable () -> Void
    ) -> ObserverToken {
      switch self {
      case .token: bridge.observeOnce(N.self) { _ in call() }
      case .owner: bridge.observeOnce(N.self, owner: owner) { _, _ in call() }
      }
    }
  }

  final class OneShotOwner: Sendable {}

  final class Calls: Sendable {
    let count = Atomic<Int>(0)
    let postsReturned = Atomic<Int>(0)
  }

  /// Two threads post one notification at once onto the same one-shots of one bridge; each must be
  /// called exactly once. Ending a one-shot has to be one atomic step: if it were checked as not
  /// ended and then marked ended, the other thread could pass the check in between, a window of a
  /// few instructions. To hit it, the threads meet right before each one-shot's check: the bridge
  /// converts the notification in each observer's block, just before the check, and the conversion
  /// of `Meeting` is a barrier that pairs the two posts' arrivals in order (Foundation calls the
  /// observers in its own order, the same for both posts, so the n-th arrivals are at the same
  /// one-shot). Each posting thread keeps to a processor of its own: left to the scheduler of a
  /// busy 2-core machine, the two often ran by turns on one processor for a whole run, never met,
  /// and the mistake went unseen. One-shots are posted to 500 at a time, up to 2,000, until the two
  /// threads met at 1,000 of them (or 5 s have passed: a machine that busy shows little either way).
  @Test(arguments: Form.allCases)
  func postsThatMeetBeforeEachOneShotCallItExactlyOnce(form: Form) async {
    let clock = ContinuousClock()
    let giveUp = clock.now + .seconds(5)
    var meetings = 0
    for _ in 0..<4 where meetings < 1_000 && clock.now < giveUp {
      meetings += await Self.postFromTwoThreadsThatMeet(ontoOneShots: 500, form: form, waitingUntil: giveUp)
    }
  }

  /// Posts from two threads onto `count` one-shots in `form` on one bridge, meeting before each
  /// (until `latest`, then they no longer wait for each other); expects each to have been called
  /// once. Returns at how many barriers the two threads met while both spun.
  private static func postFromTwoThreadsThatMeet(
    ontoOneShots count: Int, form: Form, waitingUntil latest: ContinuousClock.Instant
  ) async -> Int {
    let threads = 2
    let owner = OneShotOwner()
    let notificationCenter = NotificationCenter()
    let bridge = FoundationNotificationBridge(notificationCenter)
    let barrier = TicketBarrier(parties: threads, rounds: count, waitingUntil: latest)
    let oneShots = (0..<count).map { _ in Calls() }
    let tokens = oneShots.map { calls in
      form.observeOnce(Meeting.self, on: bridge, owner: owner) { calls.count.add(1, ordering: .relaxed) }
    }
    await postFromThreadsReleasedTogether(threads: threads, rounds: 1, eachThreadFirst: runOnAProcessorOfItsOwn) { _ in
      notificationCenter.post(name: Meeting.name, object: nil, userInfo: [Meeting.barrierKey: barrier])
    }
    expectEachCalledOnce(oneShots.map { $0.count.load(ordering: .relaxed) })
    #expect(tokens.allSatisfy { !$0.isActive })
    withExtendedLifetime((owner, bridge)) {}
    return barrier.meetings
  }

  /// Four threads released together by a spin barrier post onto one bridge's one-shot, 50 bridges
  /// over. Its handler takes a moment: it waits (spinning, for at most 100 ms) until the three
  /// other posts have returned. A one-shot must be ended before its handler runs: checked as not
  /// ended, called, and marked ended only afterwards (or not checked at all), every other post
  /// would arrive during that call and call it again, in every trial.
  @Test(arguments: Form.allCases)
  func postsReleasedTogetherOntoASlowOneShotCallItExactlyOnce(form: Form) async {
    let threads = 4
    let owner = OneShotOwner()
    let trials = (0..<50).map { _ in Calls() }
    let notificationCenters = trials.map { _ in NotificationCenter() }
    let bridges = notificationCenters.map { FoundationNotificationBridge($0) }
    let tokens = zip(bridges, trials).map { bridge, trial in
      form.observeOnce(Slow.self, on: bridge, owner: owner) {
        trial.count.add(1, ordering: .relaxed)
        let clock = ContinuousClock()
        let giveUp = clock.now.advanced(by: .milliseconds(100))
        while trial.postsReturned.load(ordering: .acquiring) < threads - 1 && clock.now < giveUp {}
      }
    }
    await postFromThreadsReleasedTogether(
      threads: threads, rounds: trials.count,
      afterEachPost: { round in trials[round].postsReturned.add(1, ordering: .releasing) },
      post: { round in notificationCenters[round].post(name: Slow.name, object: nil) })
    expectEachCalledOnce(trials.map { $0.count.load(ordering: .relaxed) })
    #expect(tokens.allSatisfy { !$0.isActive })
    withExtendedLifetime((owner, bridges)) {}
  }
}

/// A notification whose conversion is a barrier: the bridge converts it in each observer's block,
/// so the threads posting it meet there, once per observer.
private struct Meeting: FoundationNotification {
  static var name: Notification.Name { Notification.Name("PresentationModelTests.BridgeOneShotTests.Meeting") }
  static let barrierKey = "barrier"

  init?(_ notification: Notification) {
    (notification.userInfo?[Self.barrierKey] as? TicketBarrier)?.arriveAndWait()
  }
}

private struct Slow: FoundationNotification {
  static var name: Notification.Name { Notification.Name("PresentationModelTests.BridgeOneShotTests.Slow") }
  init?(_ notification: Notification) {}
}

/// A barrier for `parties` threads, used `rounds` times over: the arrivals are numbered, and each
/// round's `parties` arrivals wait for each other, spinning while the others are likely running,
/// then yielding the processor between looks (two threads spinning on would take both cores of a
/// 2-core machine from every other test), for at most 20 ms.
private final class TicketBarrier: Sendable {
  final class Round: Sendable {
    let stoppedSpinning = Atomic<Bool>(false)
    let met = Atomic<Bool>(false)
  }

  let parties: Int
  private let arrivals = Atomic<Int>(0)
  private let rounds: [Round]
  private let latest: ContinuousClock.Instant

  /// After `latest`, arrivals no longer wait.
  init(parties: Int, rounds: Int, waitingUntil latest: ContinuousClock.Instant) {
    self.parties = parties
    self.rounds = (0..<rounds + 1).map { _ in Round() }
    self.latest = latest
  }

  /// In how many rounds every party arrived while the others still spun, so that they left together.
  var meetings: Int { rounds.count(where: { $0.met.load(ordering: .relaxed) }) }

  func arriveAndWait() {
    let arrived = arrivals.add(1, ordering: .acquiringAndReleasing).newValue
    let index = (arrived - 1) / parties
    let round = rounds[min(index, rounds.count - 1)]
    if arrived % parties == 0 {
      round.met.store(!round.stoppedSpinning.load(ordering: .acquiring), ordering: .relaxed)
      return
    }
    var spins = 0
    let clock = ContinuousClock()
    let now = clock.now
    guard now < latest else { return round.stoppedSpinning.store(true, ordering: .releasing) }
    let giveUp = now.advanced(by: .milliseconds(20))
    while arrivals.load(ordering: .acquiring) < parties * (index + 1) {
      spins += 1
      guard spins > 2_000 else { continue }
      round.stoppedSpinning.store(true, ordering: .releasing)
      guard clock.now < giveUp else { return }
      sched_yield()
    }
  }
}

/// Keeps the calling thread, the `index`th of a test's threads, on a processor of its own from the
/// ones the process may use (Linux only; elsewhere, and with one processor, it does nothing). Two
/// threads left to the scheduler on a busy machine often ran by turns on one processor, where they
/// can never meet at a barrier, for a whole run.
@Sendable private func runOnAProcessorOfItsOwn(_ index: Int) {
  #if canImport(Glibc)
    // glibc's `sched_getaffinity` and `sched_setaffinity` (GNU extensions Swift's Glibc module
    // leaves out), for the calling thread (0).
    typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    guard let get = dlsym(nil, "sched_getaffinity"), let set = dlsym(nil, "sched_setaffinity") else { return }
    var allowed = cpu_set_t()
    guard unsafeBitCast(get, to: Affinity.self)(0, MemoryLayout<cpu_set_t>.size, &allowed) == 0 else { return }
    let processors = withUnsafeBytes(of: allowed) { bytes in
      (0..<bytes.count * 8).filter { bytes[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }
    guard processors.count > 1 else { return }
    var mine = cpu_set_t()
    let processor = processors[index % processors.count]
    withUnsafeMutableBytes(of: &mine) { $0[processor / 8] |= 1 << (processor % 8) }
    _ = unsafeBitCast(set, to: Affinity.self)(0, MemoryLayout<cpu_set_t>.size, &mine)
  #endif
}
