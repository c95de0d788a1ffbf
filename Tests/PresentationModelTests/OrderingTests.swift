import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

@Suite struct OrderingTests {
  @Test(arguments: [1, 2, 10, 100])
  func observersRunInRegistrationOrder(count: Int) {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    let owners = (0..<count).map { Owner("\($0)", log: log) }
    var tokens: [ObserverToken] = []
    // Interleave owner-bound and token-bound registrations: order is one sequence for both.
    for (index, owner) in owners.enumerated() {
      if index.isMultiple(of: 2) {
        center.observe(Counted.self, owner: owner) { owner, _ in owner.log.record(owner.name) }
      } else {
        tokens.append(center.observe(Counted.self) { _ in log.record("\(index)") })
      }
    }
    center.post(Counted(value: 0))
    #expect(log.entries == (0..<count).map { "\($0)" })
    withExtendedLifetime(tokens) {}
  }

  @Test func orderSurvivesCancellationsAndCompaction() {
    let center = TypedNotificationCenter()
    let log = LockedLog<String>()
    var tokens = (0..<100).map { index in center.observe(Counted.self) { _ in log.record("\(index)") } }
    // Cancel every entry but multiples of 7: compaction runs several times on the way.
    for index in tokens.indices where !index.isMultiple(of: 7) { tokens[index].cancel() }
    let late = center.observe(Counted.self) { _ in log.record("late") }
    center.post(Counted(value: 0))
    let expected = stride(from: 0, to: 100, by: 7).map { "\($0)" } + ["late"]
    #expect(log.entries == expected)
    #expect(center.observerCount(for: Counted.self) == expected.count)
    tokens.removeAll()
    late.cancel()
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }
}
