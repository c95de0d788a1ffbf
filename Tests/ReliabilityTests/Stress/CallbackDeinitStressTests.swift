import Foundation
import PresentationModel
import PresentationTestSupport
import Testing

/// Owners and senders whose `deinit` calls back into the center (cancels its own token, posts,
/// observes, registers an observer it keeps), released on other threads while posts, registrations
/// and cancellations run, on each of the three centers (``CenterKind``; on the main-actor center,
/// posts and registrations go through the main queue, cancels and releases stay on the threads).
///
/// This is the shape of the deadlock where the center, rebuilding a channel under its lock, loaded
/// an owner weakly, the owner's last outside reference went away meanwhile, and the owner's
/// `deinit` then ran on the rebuilding thread, still under the lock, and tried to take it again.
/// The center must never drop a reference that could be the last one while it holds its lock.
///
/// Afterwards every owner and sender ran its `deinit`; one last post leaves no handler held (each
/// captures a probe), so a post that finds an owner dead and does not end its registration fails;
/// every observer a `deinit` registered receives that post, so a registration lost while the
/// center was busy fails; and the center deallocates.
///
/// Size: 4 threads for `seconds` of wall-clock time per center (default 5; set
/// `CALLBACK_DEINIT_STRESS_SECONDS` to run longer). Nothing is timed: the clock only bounds how much work is done. A deadlock ends
/// the run through the watchdog, which prints every thread's stack and when the threads last made
/// progress. Against the center that loaded owners under its lock, 20-second runs deadlocked in 2
/// of 2 runs and 4-second runs in 0 of 3 (a debug build on two busy cores).
@Suite struct CallbackDeinitStressTests {
  static var seconds: Int {
    ProcessInfo.processInfo.environment["CALLBACK_DEINIT_STRESS_SECONDS"].flatMap(Int.init) ?? 5
  }

  @Test(
    "owners and senders whose deinit calls back, released on other threads, never deadlock and leave nothing",
    .timeLimit(.minutes(5)), .serialized, arguments: CenterKind.allCases)
  func deinitsThatCallBackNeverDeadlock(center kind: CenterKind) async throws {
    let world = CallbackWorld()
    weak let weakCenter = try await Self.run(on: kind.makeCallbackStressCenter(), kind: kind, world: world)
    await drainMainQueue()
    #expect(weakCenter == nil, "\(kind): the center outlived its last reference")
  }

  /// Runs the threads on `target`, checks what they left, and returns the center.
  private static func run(
    on target: any CallbackStressCenter, kind: CenterKind, world: CallbackWorld
  ) async throws -> AnyObject {
    let seconds = Self.seconds
    let deadline = ContinuousClock.now + .seconds(seconds)
    let standing = await target.observeStanding()
    let start = ContinuousClock.now
    let lastProgress = LockedState(Duration.zero)
    let progress: @Sendable () -> String = {
      "The threads last made progress \(lastProgress.withLock { $0 }) after the start."
    }

    try await failingOnDeadlock(
      "callback-deinit stress on \(kind) (\(seconds) s)", limit: .seconds(seconds + 60), progress: progress
    ) {
      await runOnThreads(4) { index in
        var round = 0
        var heldPairs: [CallingBackObject] = []
        // The clock is read every 64 rounds: it bounds the work, it is not what is tested.
        while !round.isMultiple(of: 64) || ContinuousClock.now < deadline {
          switch index {
          case 0: target.registerAndCancel(round: round)
          case 1: target.postCancellingMidDelivery(round: round)
          default:
            // Released here: on thread 2 at once, the sender on odd rounds before the owner; on
            // thread 3 sixteen pairs at a time, so that a center that is rebuilding a channel (and
            // loading its owners) meanwhile meets many releases at once.
            let (owner, sender) = target.makeOwnerAndSender(world: world)
            heldPairs.append(contentsOf: round.isMultiple(of: 2) ? [owner, sender] : [sender, owner])
            if index == 2 || heldPairs.count >= 32 {
              while !heldPairs.isEmpty { heldPairs.removeFirst() }
            }
          }
          round += 1
          if round.isMultiple(of: 64) {
            let now = ContinuousClock.now
            lastProgress.withLock { $0 = start.duration(to: now) }
          }
        }
        heldPairs.removeAll()
      }
      await target.postFinally()
      let counts = await target.counts()
      // Everything the threads made is gone: its registrations are not counted any more.
      try #require(counts.churn == 1, "\(kind): \(counts.churn) observers of the churn, 1 expected")
      #expect(counts.registrations == 1 + world.registeredFromDeinit.entries.count, "\(kind)")
    }

    let made = world.madeCount
    let registeredFromDeinit = world.registeredFromDeinit.entries
    #expect(made > 0)
    #expect(world.deinitCount == made, "\(kind): every owner and sender ran its deinit")
    // The leak harness's reports, in other tests, may hold live handlers of a typed center for a
    // moment (they copy them from every live center): wait for another thread's release, bounded.
    let waitLimit = ContinuousClock.now + .seconds(5)
    while world.probes.aliveCount > 0 && ContinuousClock.now < waitLimit { await Task.yield() }
    #expect(
      world.probes.aliveCount == 0,
      "\(kind): \(world.probes.aliveCount) handlers of dead owners still held after a post reached them")
    let lost = registeredFromDeinit.filter(\.isActive).count - world.deliveredToDeinitRegistrationsCount
    #expect(
      lost == 0,
      "\(kind): \(lost) of the \(registeredFromDeinit.count) observers registered from a deinit are active but got no post"
    )
    for token in registeredFromDeinit { token.cancel() }
    withExtendedLifetime(standing) {}
    return target.center
  }
}
