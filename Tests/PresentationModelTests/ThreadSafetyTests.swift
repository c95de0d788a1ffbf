import Dispatch
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct ThreadSafetyTests {
  @Test func concurrentPostsReachEveryObserverExactlyOnce() {
    let center = TypedNotificationCenter()
    final class Counter: Sendable {
      let value = Atomic<Int>(0)
    }
    let perObserver = (0..<8).map { _ in Counter() }
    let tokens = perObserver.map { counter in
      center.observe(Counted.self) { _ in counter.value.add(1, ordering: .relaxed) }
    }
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for value in 0..<2_000 { center.post(Counted(value: value)) }
    }
    for counter in perObserver { #expect(counter.value.load(ordering: .relaxed) == 8_000) }
    withExtendedLifetime(tokens) {}
  }

  @Test func concurrentObserveCancelAndPostKeepCountsExact() {
    let center = TypedNotificationCenter()
    let survivors = LockedBox<[ObserverToken]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      var mine: [ObserverToken] = []
      for step in 0..<1_000 {
        mine.append(center.observe(Counted.self) { _ in })
        center.post(Counted(value: step))
        if step.isMultiple(of: 2) { mine.removeLast().cancel() }
      }
      survivors.withLock { $0 += mine }
      _ = worker
    }
    #expect(center.observerCount(for: Counted.self) == survivors.value.count)
    #expect(survivors.value.count == 2_000)
    survivors.withLock { $0.removeAll() }
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func ownersReleasedOnOtherThreadsWhileOthersPostLeaveNothingBehind() {
    final class CountingOwner: Sendable {
      let deliveries = Atomic<Int>(0)
    }
    let center = TypedNotificationCenter()
    let owners = LeakTracker()
    let ownDeliveries = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for step in 0..<500 {
        guard worker.isMultiple(of: 2) else {
          center.post(Counted(value: step))
          continue
        }
        let owner = CountingOwner()
        center.observe(Counted.self, owner: owner) { owner, _ in owner.deliveries.add(1, ordering: .relaxed) }
        center.post(Counted(value: step))
        if owner.deliveries.load(ordering: .relaxed) >= 1 { ownDeliveries.add(1, ordering: .relaxed) }
        owners.track(owner)
      }
    }
    #expect(ownDeliveries.load(ordering: .relaxed) == 1_000, "each owner saw at least its own post")
    expectReleased(owners, "the center retained no owner")
    expectNoObservers(in: center, timeout: .zero)
  }

  @Test func cancelIsIdempotentAcrossThreads() {
    let center = TypedNotificationCenter()
    for _ in 0..<200 {
      let token = center.observe(Counted.self) { _ in }
      DispatchQueue.concurrentPerform(iterations: 4) { _ in token.cancel() }
      #expect(!token.isActive)
    }
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }
}
