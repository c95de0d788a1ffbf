import PresentationModel
import PresentationTestSupport
import Testing

/// Several real threads hammer one center with random operations at once; afterwards the test's
/// own bookkeeping is reconciled with every delivery, with `observerCount(for:)`, and with the
/// owners' lifetimes. See ``StressReconciliation`` for the exact rules.
///
/// Sizes: 4 threads × 1,500 operations per seed, 3 seeds run one after the other (18,000
/// operations per run): about 2 seconds in a debug build, about 15 under ThreadSanitizer on two
/// cores. The seeds are serialized so that the run never has more than 4 busy threads of its own.
@Suite struct ConcurrencyStressTests {
  static let threadCount = 4
  static let operationsPerThread = 1_500
  static let echoObserverCount = 2

  /// Three seeds on the typed center, two on the bridge (through a real Foundation center).
  static let runs: [(CenterKind, UInt64)] = [
    (.typed, 0x5EED_0001), (.typed, 0x5EED_0002), (.typed, 0x5EED_0003), (.bridge, 0x5EED_0001), (.bridge, 0x5EED_0002),
  ]

  @Test(
    "4 threads × 1,500 random operations: deliveries, counts and lifetimes reconcile",
    .timeLimit(.minutes(1)), .serialized, arguments: runs)
  func randomOperationsReconcile(center kind: CenterKind, seed: UInt64) async throws {
    var center: (any RandomStressCenter)? = kind.makeRandomStressCenter()
    weak let weakCenter = center
    let world = StressWorld(center: try #require(center), echoObserverCount: Self.echoObserverCount)
    var echoTokens = (0..<Self.echoObserverCount).map { index in
      center?.observeNote(StressEcho.self, once: false) { echo in world.handleEcho(echo, observer: index) }
    }

    var results = try await failingOnDeadlock("stress run on \(kind) with seed \(seed)") {
      await runOnThreads(Self.threadCount) { index in
        guard let center = world.center else { return }
        var thread = StressThread(world: world, center: center, index: index, seed: seed)
        thread.run(operations: Self.operationsPerThread)
      }
      let results = world.results.entries
      world.results.removeAll()
      try #require(results.count == Self.threadCount, "a stress thread did not finish")
      for consumer in results.flatMap(\.consumers) { await consumer.task.value }
      return results
    }

    let observers = world.observers.entries
    var reconciliation = StressReconciliation(
      observers: observers, posts: results.flatMap(\.posts), consumers: results.flatMap(\.consumers),
      echoDeliveries: world.echoDeliveries.map(\.entries))
    reconciliation.run()
    #expect(
      reconciliation.violations.isEmpty,
      """
      \(kind), seed \(seed): \(reconciliation.violations.count) violations, first ones:
      \(reconciliation.violations.prefix(20).joined(separator: "\n"))
      """)

    // The count the test expects from its own bookkeeping: nothing ended it, its owner was not
    // released, and a one-shot has not fired.
    let expectedLive = observers.filter { record in
      record.ends.isEmpty && record.ownerReleaseTicket == nil
        && !(record.kind.isOneShot && !record.deliveries.entries.isEmpty)
    }.count
    #expect(center?.countObservers(of: StressPing.self) == expectedLive, "\(kind), seed \(seed)")
    #expect(center?.countObservers(of: StressEcho.self) == Self.echoObserverCount, "\(kind), seed \(seed)")
    #expect(center?.registrationCount == expectedLive + Self.echoObserverCount, "\(kind), seed \(seed)")

    // Releasing everything the test holds leaves nothing registered and no owner alive.
    world.releaseCancellables()
    results.removeAll()
    echoTokens.removeAll()
    #expect(center?.countObservers(of: StressPing.self) == 0, "\(kind), seed \(seed)")
    #expect(center?.countObservers(of: StressEcho.self) == 0, "\(kind), seed \(seed)")
    #expect(center?.registrationCount == 0, "\(kind), seed \(seed)")
    let survivingOwners = world.owners.entries.filter { $0.owner != nil }.count
    #expect(survivingOwners == 0, "\(kind), seed \(seed): \(survivingOwners) owners outlived the test's references")
    center = nil
    #expect(weakCenter == nil, "\(kind), seed \(seed): the center outlived its last reference")
  }
}
