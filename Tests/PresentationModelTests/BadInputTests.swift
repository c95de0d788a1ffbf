import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

@Suite struct BadInputTests {
  @Test func cancellingTwiceIsHarmless() {
    let center = TypedNotificationCenter()
    let token = center.observe(Counted.self) { _ in }
    token.cancel()
    token.cancel()
    #expect(!token.isActive)
    expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func cancellingAfterTheCenterIsGoneIsHarmless() throws {
    var center: TypedNotificationCenter? = TypedNotificationCenter()
    let token = try #require(center).observe(Counted.self) { _ in }
    center = nil
    #expect(!token.isActive)
    token.cancel()
    #expect(!token.isActive)
  }

  @Test func observingWithAnOwnerThatIsBeingTornDownRegistersNothing() {
    final class TearingDown: Sendable {
      let center: TypedNotificationCenter
      let result: LockedLog<String>
      init(center: TypedNotificationCenter, result: LockedLog<String>) {
        self.center = center
        self.result = result
      }
      deinit {
        let token = center.observe(Counted.self, owner: self) { _, _ in }
        result.record(token.isActive ? "active" : "ended")
      }
    }
    let center = TypedNotificationCenter()
    let result = LockedLog<String>()
    _ = TearingDown(center: center, result: result)
    #expect(result.entries == ["ended"])
    #expect(center.observerCount(for: Counted.self) == 0)
    center.post(Counted(value: 1))
  }

  #if DEBUG
    @Test func unboundedRecursivePostingStopsWithAMessageNamingTheType() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let center = TypedNotificationCenter()
        let token = center.observe(Counted.self) { note in center.post(Counted(value: note.value + 1)) }
        center.post(Counted(value: 0))
        withExtendedLifetime(token) {}
      }
      // A stack overflow would also fail the process: the message is what proves the guard fired.
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("posts of Counted nested more than 100 deep"))
      #expect(message.contains("a handler posts Counted while handling Counted"), "stderr was: \(message)")
    }

    /// 101 different notification types, each posted once from the handler of the one before: a
    /// deep chain, but no recursion. The limit is on one type re-entering itself, so it runs
    /// through (it used to trap, blaming a handler "posting the notification it observes").
    @Test(.timeLimit(.minutes(1))) func aChainOfManyDifferentTypesPostedOnceEachIsNotStopped() async {
      await #expect(processExitsWith: .success) {
        let center = TypedNotificationCenter()
        let reached = LockedLog<String>()
        let tokens = registerChain(Counted.self, links: TypedNotificationCenter.maximumNestedPostDepth, on: center) {
          reached.record("innermost")
        }
        center.post(Counted(value: 0))
        withExtendedLifetime(tokens) {}
        precondition(reached.entries == ["innermost"], "the innermost post of the chain was not delivered")
      }
    }

    /// Recursion through other types is still stopped, and the message shows the cycle.
    @Test(.timeLimit(.minutes(1))) func recursionThroughAnotherTypeStopsWithAMessageShowingTheCycle() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        struct Ping: TypedNotification {}
        struct Pong: TypedNotification {}
        let center = TypedNotificationCenter()
        let pings = center.observe(Ping.self) { _ in center.post(Pong()) }
        let pongs = center.observe(Pong.self) { _ in center.post(Ping()) }
        center.post(Ping())
        withExtendedLifetime((pings, pongs)) {}
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains("posts of Ping nested more than 100 deep on one thread (201 nested posts in all)"),
        "stderr was: \(message)")
      #expect(message.contains("a handler posts Ping while handling Ping, without end: Ping → Pong → Ping"))
    }
  #endif

  @Test func zeroBufferLimitIsRejectedWithAMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = NotificationBufferingPolicy.bufferingNewest(0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("bufferingNewest: limit must be at least 1, got 0"))
  }
}

/// A notification type made from another, so that a chain of distinct types can be built at run time.
private struct Link<Inner: TypedNotification>: TypedNotification {}

/// Observes `N` by posting `Link<N>`, and so on for `links` more types; the last one calls
/// `innermost`. Returns the tokens that keep the chain registered.
private func registerChain<N: TypedNotification>(
  _: N.Type, links: Int, on center: TypedNotificationCenter, innermost: @escaping @Sendable () -> Void
) -> [ObserverToken] {
  guard links > 0 else { return [center.observe(N.self) { _ in innermost() }] }
  let token = center.observe(N.self) { _ in center.post(Link<N>()) }
  return [token] + registerChain(Link<N>.self, links: links - 1, on: center, innermost: innermost)
}
