import Dispatch
import PresentationModel
import Testing

@Suite struct ObserverBagTests {
  @Test func bagCancelsTokenAndOwnerBoundObservationsWhenReleased() {
    let center = TypedNotificationCenter()
    let owner = Owner("o", log: Recorder())
    var bag: ObserverBag? = ObserverBag()
    center.observe(Counted.self) { _ in }.store(in: bag!)
    center.observe(Counted.self, owner: owner) { _, _ in }.store(in: bag!)
    #expect(bag?.count == 2)
    #expect(center.observerCount(for: Counted.self) == 2)
    bag = nil
    #expect(center.observerCount(for: Counted.self) == 0)
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
    let tokens = LockedState<[ObserverToken]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for step in 0..<250 {
        let token = center.observe(Counted.self) { _ in }
        token.store(in: bag)
        tokens.withLock { $0.append(token) }
        if worker == 0 && step.isMultiple(of: 50) { bag.cancelAll() }
      }
    }
    bag.cancelAll()
    #expect(bag.count == 0)
    #expect(tokens.withLock { $0.allSatisfy { !$0.isActive } }, "every token the bag held was cancelled")
    #expect(center.observerCount(for: Counted.self) == 0)
  }
}
