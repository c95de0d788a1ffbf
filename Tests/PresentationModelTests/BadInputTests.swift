import PresentationModel
import Testing

@Suite struct BadInputTests {
  @Test func cancellingTwiceIsHarmless() {
    let center = TypedNotificationCenter()
    let token = center.observe(Counted.self) { _ in }
    token.cancel()
    token.cancel()
    #expect(!token.isActive)
    #expect(center.observerCount(for: Counted.self) == 0)
  }

  @Test func cancellingAfterTheCenterIsGoneIsHarmless() {
    var center: TypedNotificationCenter? = TypedNotificationCenter()
    let token = center!.observe(Counted.self) { _ in }
    center = nil
    #expect(!token.isActive)
    token.cancel()
    #expect(!token.isActive)
  }

  @Test func observingWithAnOwnerThatIsBeingTornDownRegistersNothing() {
    final class TearingDown: Sendable {
      let center: TypedNotificationCenter
      let result: Recorder
      init(center: TypedNotificationCenter, result: Recorder) {
        self.center = center
        self.result = result
      }
      deinit {
        let token = center.observe(Counted.self, owner: self) { _, _ in }
        result.record(token.isActive ? "active" : "ended")
      }
    }
    let center = TypedNotificationCenter()
    let result = Recorder()
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
