import PresentationModel
import PresentationTestSupport
import Testing

/// Work counted, not timed: the entries the center visited while rebuilding its storage, counted by
/// `TestHooks.countingWork`. If ending a registration scanned the others, ending n of them would
/// visit on the order of n² entries; amortised O(1) ends visit a small multiple of n.
@Suite struct CostTests {
  @Test(arguments: [100, 10_000])
  func endingEveryRegistrationInRandomOrderVisitsLinearlyManyEntries(count: Int) {
    let center = TypedNotificationCenter()
    let (tokens, registering) = TestHooks.countingWork {
      (0..<count).map { _ in center.observe(Counted.self) { _ in } }
    }
    let afterRegistering = registering[.entriesVisited, default: 0]
    // Registering grows the storage geometrically: a small multiple of `count` entries moved.
    #expect(afterRegistering <= 4 * count, "registering \(count) visited \(afterRegistering) entries")

    // A scrambled order, the same on every run: 7,919 is prime, so i × 7,919 mod count visits every
    // index once.
    let ((), ending) = TestHooks.countingWork {
      for index in 0..<count { tokens[index * 7_919 % count].cancel() }
    }
    let endingWork = ending[.entriesVisited, default: 0]
    #expect(center.observerCount(for: Counted.self) == 0)
    #expect(endingWork <= 2 * count, "ending \(count) visited \(endingWork) entries")
  }

  @Test func endingOneAmongManyVisitsNoOtherEntry() {
    let center = TypedNotificationCenter()
    let tokens = (0..<10_000).map { _ in center.observe(Counted.self) { _ in } }
    let ((), ending) = TestHooks.countingWork { tokens[5_000].cancel() }
    #expect(ending[.entriesVisited, default: 0] == 0, "a single end is a tombstone, not a scan")
    #expect(center.observerCount(for: Counted.self) == 9_999)
  }
}
