import PresentationModelTesting
import Testing

@Suite struct ExportsTests {
  @Test func importingTheHarnessExposesTheCore() {
    struct Ping: TypedNotification {}
    let center = TypedNotificationCenter()
    let token = center.observe(Ping.self) { _ in }
    #expect(center.observerCount(for: Ping.self) == 1)
    token.cancel()
    #expect(center.observerCount(for: Ping.self) == 0)
  }
}
