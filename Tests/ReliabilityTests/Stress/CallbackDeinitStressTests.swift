import Foundation
import PresentationModel
import PresentationTestSupport
import Testing

/// Owners and senders whose `deinit` calls back into the center (cancels its own token, posts,
/// observes), released on other threads while posts, registrations and cancellations run.
///
/// This is the shape of the deadlock where the center, rebuilding a channel under its lock, loaded
/// an owner weakly, the owner's last outside reference went away meanwhile, and the owner's
/// `deinit` then ran on the rebuilding thread, still under the lock, and tried to take it again.
/// The center must never drop a reference that could be the last one while it holds its lock.
///
/// Size: 4 threads for `seconds` of wall-clock time (default 10; set `CALLBACK_DEINIT_STRESS_SECONDS`
/// to run longer). Nothing is timed: the clock only bounds how much work is done. A deadlock ends
/// the run through the watchdog, which prints every thread's stack and when the threads last made
/// progress. Against the center that loaded owners under its lock, 20-second runs deadlocked in 2
/// of 2 runs and 4-second runs in 0 of 3 (a debug build on two busy cores).
@Suite struct CallbackDeinitStressTests {
  static var seconds: Int {
    ProcessInfo.processInfo.environment["CALLBACK_DEINIT_STRESS_SECONDS"].flatMap(Int.init) ?? 10
  }

  @Test(
    "owners and senders whose deinit calls back, released on other threads, never deadlock",
    .timeLimit(.minutes(5)))
  func deinitsThatCallBackNeverDeadlock() async throws {
    let center = TypedNotificationCenter()
    let deinits = LockedBox(0)
    let made = LockedBox(0)
    let seconds = Self.seconds
    let deadline = ContinuousClock.now + .seconds(seconds)
    let standing = center.observe(StressChurn.self) { _ in }
    let start = ContinuousClock.now
    let lastProgress = LockedState(Duration.zero)
    let progress: @Sendable () -> String = {
      "The threads last made progress \(lastProgress.withLock { $0 }) after the start."
    }

    try await failingOnDeadlock(
      "callback-deinit stress (\(seconds) s)", limit: .seconds(seconds + 60), progress: progress
    ) {
      await runOnThreads(4) { index in
        var round = 0
        // The clock is read every 64 rounds: it bounds the work, it is not what is tested.
        while !round.isMultiple(of: 64) || ContinuousClock.now < deadline {
          switch index {
          case 0: Self.registerAndCancel(on: center, round: round)
          case 1: Self.post(on: center, round: round)
          default: Self.makeAndReleaseOwner(on: center, round: round, deinits: deinits, made: made)
          }
          round += 1
          if round.isMultiple(of: 64) {
            let now = ContinuousClock.now
            lastProgress.withLock { $0 = start.duration(to: now) }
          }
        }
      }
      // Everything the threads made is gone: its registrations are not counted any more.
      try #require(center.observerCount(for: StressChurn.self) == 1)
    }

    #expect(made.value > 0)
    #expect(deinits.value == made.value, "every owner and sender ran its deinit")
    #expect(center.observerCount(for: PostedFromDeinit.self) == 0)
    #expect(center.registrations.count == 1)
    withExtendedLifetime(standing) {}
  }

  /// Token-bound churn next to one standing observer: every few cancels rebuild the storage.
  static func registerAndCancel(on center: TypedNotificationCenter, round: Int) {
    let first = center.observe(StressChurn.self) { _ in }
    let second = center.observe(StressChurn.self) { _ in }
    if round.isMultiple(of: 2) { first.cancel() } else { second.cancel() }
    withExtendedLifetime((first, second)) {}
  }

  /// Posts whose handler cancels another observer mid-delivery, so that tombstones are deferred
  /// and applied when the post ends.
  static func post(on center: TypedNotificationCenter, round: Int) {
    let victim = center.observe(StressChurn.self) { _ in }
    let canceller = center.observe(StressChurn.self) { _ in victim.cancel() }
    center.post(StressChurn(round: round))
    withExtendedLifetime(canceller) {}
  }

  /// Owners (and senders) that each hold a token-bound observation, registered with `owner:` (and
  /// `from:`), and released at once, the sender on odd rounds before the owner.
  static func makeAndReleaseOwner(
    on center: TypedNotificationCenter, round: Int, deinits: LockedBox<Int>, made: LockedBox<Int>
  ) {
    var owner: CallingBackOwner? = CallingBackOwner(center: center, deinits: deinits)
    var sender: CallingBackOwner? = CallingBackOwner(center: center, deinits: deinits)
    made.withLock { $0 += 1 }
    made.withLock { $0 += 1 }
    if let owner, let sender {
      center.observe(StressChurn.self, owner: owner) { owner, _ in owner.touch() }
      center.observe(StressChurn.self, owner: owner, from: sender) { owner, _ in owner.touch() }
      center.observeOnce(StressChurn.self, owner: sender) { sender, _ in sender.touch() }
    }
    if round.isMultiple(of: 2) {
      owner = nil
      sender = nil
    } else {
      sender = nil
      owner = nil
    }
  }
}

struct StressChurn: TypedNotification {
  let round: Int
}

struct PostedFromDeinit: TypedNotification {}

/// An object whose deinit cancels its own token, posts and observes: every call takes the
/// center's lock, so a deinit run under that lock deadlocks at once.
final class CallingBackOwner: Sendable {
  let center: TypedNotificationCenter
  let deinits: LockedBox<Int>
  let token: ObserverToken

  init(center: TypedNotificationCenter, deinits: LockedBox<Int>) {
    self.center = center
    self.deinits = deinits
    self.token = center.observe(StressChurn.self) { _ in }
  }

  func touch() {}

  deinit {
    token.cancel()
    center.post(PostedFromDeinit())
    center.observe(PostedFromDeinit.self) { _ in }.cancel()
    deinits.withLock { $0 += 1 }
  }
}
