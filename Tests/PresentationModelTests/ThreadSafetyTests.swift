import Dispatch
import PresentationModelTesting
import PresentationTestSupport
import Synchronization
import Testing

@testable import PresentationModel

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
  /// A post calls each handler through an unretained reference to its entry: the storage the post
  /// pinned is what keeps the entry, and so the handler and its captures, alive. This ends the
  /// registration and drops its token on another thread while the post is inside the handler,
  /// with or without first making the channel copy the storage the post reads (the ending is then
  /// applied to the copy at once, or deferred on the pinned storage). The handler then reads its
  /// capture (under ASan a premature release would be a use after free), and the capture goes only
  /// when the post returns.
  @Test(arguments: ["token-bound", "owner-bound"], [false, true])
  func aHandlerEndedElsewhereMidCallKeepsItsCapturesUntilThePostReturns(kind: String, copyFirst: Bool) throws {
    final class Captured: Sendable {
      let value = 42
    }
    final class Owner: Sendable {}
    let center = TypedNotificationCenter()
    let entered = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let readInside = LockedLog<Int>()
    let owner = Owner()
    let captures = LeakTracker()
    var token: ObserverToken?
    weak var weakCaptured: Captured?
    do {
      let captured = Captured()
      weakCaptured = captured
      captures.track(captured)
      let body: @Sendable () -> Void = {
        entered.signal()
        resume.wait()
        readInside.record(captured.value)
      }
      token =
        kind == "owner-bound"
        ? center.observe(Counted.self, owner: owner) { _, _ in body() }
        : center.observe(Counted.self) { _ in body() }
    }
    // The storage the post will pin, held here only to look at it, and dropped before the last check.
    var pinned: EntryStorage? = Locked.withExclusiveAccess(to: center.engine) {
      center.engine.channels.storage(of: ObjectIdentifier(Counted.self))
    }
    try #require(pinned != nil)
    let entry = ObjectIdentifier(try #require(pinned?.entries[0]))
    let postReturned = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      center.post(Counted(value: 1))
      postReturned.signal()
    }
    entered.wait()
    // The post is inside the handler, on the other thread.
    let others = (0..<(copyFirst ? 8 : 0)).map { _ in center.observe(Counted.self) { _ in } }
    token?.cancel()
    token = nil
    #expect(center.observerCount(for: Counted.self) == others.count)
    // In a debug build the post also retains what it calls, so the lifetimes alone would not show a
    // release made too early; the storage it pinned must still hold the entry.
    #expect(pinned?.entries[0].map(ObjectIdentifier.init) == entry, "the storage the post reads still holds the entry")
    #expect(pinned?.hasDeferredEnds.load(ordering: .relaxed) == !copyFirst, "deferred only on the pinned storage")
    #expect(weakCaptured != nil, "the running post still holds the entry and its handler")
    resume.signal()
    postReturned.wait()
    #expect(readInside.entries == [42])
    pinned = nil
    expectReleased(captures, "released once the post that was reading the entry returned")
    withExtendedLifetime((others, owner)) {}
  }
}
