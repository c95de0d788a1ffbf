import PresentationModel
import Testing

/// Work counted, not timed: `storageWork` is the number of entries the center visited while
/// rebuilding its storage. If ending a registration scanned the others, ending n of them would
/// visit on the order of n² entries; amortised O(1) ends visit a small multiple of n.
@Suite struct CostTests {
  @Test(arguments: [100, 10_000])
  func endingEveryRegistrationInRandomOrderVisitsLinearlyManyEntries(count: Int) {
    let center = TypedNotificationCenter()
    var generator = SplitMix(seed: 7)
    var tokens = (0..<count).map { _ in center.observe(Counted.self) { _ in } }
    let afterRegistering = center.storageWork
    // Registering grows the storage geometrically: a small multiple of `count` entries moved.
    #expect(afterRegistering <= 4 * count, "registering \(count) visited \(afterRegistering) entries")

    tokens.shuffle(using: &generator)
    for token in tokens { token.cancel() }
    let endingWork = center.storageWork - afterRegistering
    #expect(center.observerCount(for: Counted.self) == 0)
    #expect(endingWork <= 2 * count, "ending \(count) visited \(endingWork) entries")
  }

  @Test func endingOneAmongManyVisitsNoOtherEntry() {
    let center = TypedNotificationCenter()
    let tokens = (0..<10_000).map { _ in center.observe(Counted.self) { _ in } }
    let before = center.storageWork
    tokens[5_000].cancel()
    #expect(center.storageWork == before, "a single end is a tombstone, not a scan")
    #expect(center.observerCount(for: Counted.self) == 9_999)
  }
}

/// A small seeded generator, so the shuffled order is the same on every run.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
