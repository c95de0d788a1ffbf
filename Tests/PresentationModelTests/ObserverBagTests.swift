import Dispatch
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

@Suite struct ObserverBagTests {
  @Test func bagCancelsTokenAndOwnerBoundObservationsWhenReleased() throws {
    let center = TypedNotificationCenter()
    let owner = Owner("o", log: LockedLog<String>())
    var bag: ObserverBag? = ObserverBag()
    center.observe(Counted.self) { _ in }.store(in: try #require(bag))
    center.observe(Counted.self, owner: owner) { _, _ in }.store(in: try #require(bag))
    #expect(bag?.count == 2)
    #expect(center.observerCount(for: Counted.self) == 2)
    bag = nil
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func cancelAllEmptiesTheBag() {
    let center = TypedNotificationCenter()
    let bag = ObserverBag()
    let token = center.observe(Counted.self) { _ in }
    token.store(in: bag)
    token.store(in: bag)
    #expect(bag.count == 1, "the same token is held once")
    bag.cancelAll()
    #expect(bag.count == 0)
    #expect(!token.isActive)
  }

  @Test func setOfTokensEndsOwnerlessObservationsWhenEmptied() {
    let center = TypedNotificationCenter()
    var tokens = Set<ObserverToken>()
    center.observe(Counted.self) { _ in }.store(in: &tokens)
    center.observe(NodeDeleted.self) { _ in }.store(in: &tokens)
    #expect(tokens.count == 2)
    #expect(center.registrations.count == 2)
    tokens.removeAll()
    #expect(center.registrations.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func insertingAndCancellingFromSeveralThreadsLeavesNothingActive() {
    let center = TypedNotificationCenter()
    let bag = ObserverBag()
    let tokens = LockedLog<ObserverToken>()
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for step in 0..<250 {
        let token = center.observe(Counted.self) { _ in }
        token.store(in: bag)
        tokens.record(token)
        if worker == 0 && step.isMultiple(of: 50) { bag.cancelAll() }
      }
    }
    bag.cancelAll()
    #expect(bag.count == 0)
    #expect(tokens.entries.allSatisfy { !$0.isActive }, "every token the bag held was cancelled")
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  /// Work counted, not timed: inserting checked every held token for a duplicate, so 20,000
  /// inserts visited about 200 million tokens (20.7 s in a debug build). Amortised O(1) inserts,
  /// prunes included, visit a small multiple of the count.
  @Test(arguments: [100, 20_000])
  func insertingManyTokensVisitsLinearlyManyTokens(count: Int) {
    let center = TypedNotificationCenter()
    let tokens = (0..<count).map { _ in center.observe(Counted.self) { _ in } }
    let bag = ObserverBag()
    let ((), work) = TestHooks.countingWork { for token in tokens { bag.insert(token) } }
    let visited = work[.tokensVisited, default: 0]
    #expect(bag.count == count, "every token is active: none is dropped")
    #expect(visited <= 5 * count, "inserting \(count) visited \(visited) tokens")
    bag.cancelAll()
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  /// A bag that lives long and collects one-shots that fire, observations whose owner deinitialised
  /// and tokens cancelled elsewhere used to keep every one of them (10,000 fired one-shots stayed).
  @Test func tokensWhoseObservationEndedByItselfAreDropped() {
    let center = TypedNotificationCenter()
    let bag = ObserverBag()
    let kept = center.observe(NodeDeleted.self) { _ in }
    let ((), work) = TestHooks.countingWork {
      kept.store(in: bag)
      for value in 0..<10_000 {
        switch value % 3 {
        case 0:
          center.observeOnce(Counted.self) { _ in }.store(in: bag)
          center.post(Counted(value: value))
        case 1:
          let owner = Owner("short-lived", log: LockedLog<String>())
          center.observe(Counted.self, owner: owner) { _, _ in }.store(in: bag)
        default:
          let token = center.observe(Counted.self) { _ in }
          token.store(in: bag)
          token.cancel()
        }
      }
    }
    #expect(bag.count <= 32, "held \(bag.count) tokens for 1 active observation")
    #expect(work[.tokensVisited, default: 0] <= 5 * 10_001)
    #expect(kept.isActive, "an active token is never dropped")
    #expect(center.observerCount(for: Counted.self) == 0)
    bag.cancelAll()
    #expect(!kept.isActive)
  }

  /// A token dropped because its observation ended is not held any more; the active ones stay and
  /// are still cancelled by `cancelAll()`, and re-inserting a held token still holds it once.
  @Test func droppingEndedTokensKeepsTheActiveOnes() {
    let center = TypedNotificationCenter()
    let bag = ObserverBag()
    let active = (0..<8).map { _ in center.observe(Counted.self) { _ in } }
    let ended = (0..<8).map { _ in center.observe(NodeDeleted.self) { _ in } }
    for (first, second) in zip(active, ended) {
      second.cancel()
      bag.insert(first)
      bag.insert(second)
    }
    #expect(bag.count == 8, "the 16th insert dropped the 8 ended tokens")
    bag.insert(active[0])
    #expect(bag.count == 8, "still held once")
    bag.cancelAll()
    #expect(active.allSatisfy { !$0.isActive })
    #expect(bag.count == 0)
  }
}
