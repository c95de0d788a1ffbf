import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

@Suite struct LifetimeTests {
  enum Party: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case owner, sender, token, center
    var testDescription: String { rawValue }
  }

  static let everyReleaseOrder: [[Party]] = {
    func permutations(_ parties: [Party]) -> [[Party]] {
      guard parties.count > 1 else { return [parties] }
      return parties.indices.flatMap { index -> [[Party]] in
        var rest = parties
        let first = rest.remove(at: index)
        return permutations(rest).map { [first] + $0 }
      }
    }
    return permutations(Party.allCases)
  }()

  /// Releases owner, sender, token and center one by one in `order`, checking after each step
  /// what is still delivered and counted, and that nothing outlives its last user reference.
  @Test(arguments: everyReleaseOrder)
  func releasingInAnyOrderLeavesNothingBehind(order: [Party]) throws {
    let log = LockedLog<String>()
    var center: TypedNotificationCenter? = TypedNotificationCenter()
    var owner: Owner? = Owner("owner", log: log)
    var sender: Sender? = Sender()
    var token: ObserverToken? = try #require(center).observe(Counted.self) { note in log.record("token \(note.value)") }
    let ownerToken = try #require(center).observe(
      Counted.self, owner: try #require(owner), from: try #require(sender) as Sender
    ) { owner, note in
      owner.log.record("owner \(note.value)")
    }
    let tracker = LeakTracker()
    tracker.track(try #require(center))
    tracker.track(try #require(owner))
    tracker.track(try #require(sender))
    tracker.track(try #require(token))

    var step = 0
    func check() {
      step += 1
      let ownerAlive = owner != nil && sender != nil && center != nil
      let tokenAlive = token != nil && center != nil
      #expect(ownerToken.isActive == ownerAlive, "step \(step)")
      #expect(token?.isActive ?? false == tokenAlive, "step \(step)")
      guard let center else { return }
      #expect(center.observerCount(for: Counted.self) == (ownerAlive ? 1 : 0) + (tokenAlive ? 1 : 0))
      let before = log.entries.count
      if let sender { center.post(Counted(value: step), from: sender) }
      let expected =
        (sender == nil ? [] : (ownerAlive ? ["owner \(step)"] : []) + (tokenAlive ? ["token \(step)"] : []))
      #expect(Array(log.entries.dropFirst(before)).sorted() == expected.sorted(), "step \(step)")
    }

    check()
    for party in order {
      switch party {
      case .owner: owner = nil
      case .sender: sender = nil
      case .token: token = nil
      case .center: center = nil
      }
      check()
    }
    expectReleased(tracker, "center, owner, sender and token, while the owner-bound token is still held")
    #expect(!ownerToken.isActive)
    ownerToken.cancel()  // after everything is gone: harmless
  }

  @Test func centerReleasesHandlerClosuresWhenItDeinitialises() throws {
    let handler = LeakTracker()
    var center: TypedNotificationCenter? = TypedNotificationCenter()
    var token: ObserverToken?
    do {
      let captured = HandlerCapture(trackedBy: handler)
      token = try #require(center).observe(Counted.self) { _ in withExtendedLifetime(captured) {} }
    }
    #expect(handler.liveCount == 1)
    center = nil
    expectReleased(handler, "a center that is gone must not keep handler captures alive")
    #expect(token?.isActive == false)
    token?.cancel()
  }

  @Test func cancelledRegistrationsDoNotKeepTheirCapturesAlive() {
    let center = TypedNotificationCenter()
    let handlers = LeakTracker()
    var tokens: [ObserverToken] = []
    do {
      let captured = HandlerCapture(trackedBy: handlers)
      tokens = (0..<3).map { _ in center.observe(Counted.self) { _ in withExtendedLifetime(captured) {} } }
    }
    for token in tokens { token.cancel() }
    #expect(center.observerCount(for: Counted.self) == 0)
    tokens.removeAll()
    expectReleased(handlers, "ended registrations are dropped by the center")
  }

  @Test func deadOwnersAreSweptWithoutAnyPost() {
    let center = TypedNotificationCenter()
    let handlers = LeakTracker()
    do {
      let captured = HandlerCapture(trackedBy: handlers)
      var owners: [Owner] = (0..<10).map { Owner("\($0)", log: LockedLog<String>()) }
      for owner in owners {
        center.observe(Counted.self, owner: owner) { _, _ in withExtendedLifetime(captured) {} }
      }
      owners.removeAll()
    }
    #expect(handlers.liveCount == 1, "nobody looked yet: storage is reclaimed lazily")
    // Registering more observers sweeps dead entries once the channel has grown enough.
    let keep = Owner("keep", log: LockedLog<String>())
    for _ in 0..<64 { center.observe(Counted.self, owner: keep) { _, _ in } }
    expectReleased(handlers, "the growth sweep reclaims registrations whose owner died")
    #expect(center.observerCount(for: Counted.self) == 64)
  }

  @Test func cancellingOneAmongManyReleasesItsCapturesAtOnce() {
    let center = TypedNotificationCenter()
    let others = (0..<100).map { _ in center.observe(Counted.self) { _ in } }
    let handler = LeakTracker()
    var token: ObserverToken?
    do {
      let captured = HandlerCapture(trackedBy: handler)
      token = center.observe(Counted.self) { _ in withExtendedLifetime(captured) {} }
    }
    token?.cancel()
    expectReleased(handler, "cancel() must release the handler, not wait for a compaction")
    #expect(center.observerCount(for: Counted.self) == 100)
    withExtendedLifetime(others) {}
  }

  @Test func cancellingDuringADeliveryReleasesCapturesWhenThePostEnds() {
    final class Captured: Sendable {}
    let center = TypedNotificationCenter()
    let box = LockedLog<ObserverToken>()
    let observedAlive = LockedLog<String>()
    var captured: Captured? = Captured()
    weak let weakCaptured = captured
    box.record(center.observe(Counted.self) { [captured] _ in withExtendedLifetime(captured) {} })
    captured = nil
    let canceller = center.observe(Counted.self) { [weak weakCaptured] _ in
      for token in box.entries { token.cancel() }
      box.removeAll()
      observedAlive.record(weakCaptured == nil ? "released" : "alive")
    }
    center.post(Counted(value: 1))
    #expect(observedAlive.entries == ["alive"], "the running post still holds the entry")
    #expect(weakCaptured == nil, "released once the post that was reading the storage ended")
    withExtendedLifetime(canceller) {}
  }
}
