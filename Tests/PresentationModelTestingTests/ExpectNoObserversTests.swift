import Dispatch
import Foundation
import PresentationModelTesting
import Testing

@Suite struct ExpectNoObserversTests {
  private struct Saved: TypedNotification {}
  private struct Closed: TypedNotification {}

  @Test("Fails on purpose: a forgotten token observer is listed with its observe line")
  func failsListingAForgottenTokenObserverWithItsObserveLine() async throws {
    let center = TypedNotificationCenter()
    let observeLine = #line + 1
    let forgotten = center.observe(Saved.self) { _ in }
    let checkLine = #line + 3
    var leftovers: [RegistrationInfo] = []
    await withKnownIssue {
      leftovers = await expectNoObservers(in: center, timeout: .milliseconds(20))
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return issue.sourceLocation?.line == checkLine
        && message.contains("1 observer still registered (expected none)")
        && message.contains(
          "Saved observed (token) at PresentationModelTestingTests/ExpectNoObserversTests.swift:\(observeLine)")
    }
    let leftover = try #require(leftovers.first)
    #expect(leftovers.count == 1)
    #expect(leftover.line == observeLine)
    forgotten.cancel()
  }

  @Test func passesOnceTheTokenIsCancelled() async {
    let center = TypedNotificationCenter()
    let token = center.observe(Saved.self) { _ in }
    token.cancel()
    let leftovers = await expectNoObservers(in: center)
    #expect(leftovers.isEmpty)
  }

  @Test func waitsForAnOwnerThatDeallocatesAMomentLate() async {
    let center = TypedNotificationCenter()
    let release = DelayedRelease()
    do {
      let listener = Listener()
      center.observe(Saved.self, owner: listener) { _, _ in }
      release.hold(listener)
    }
    #expect(center.observerCount(for: Saved.self) == 1)
    // Released from a Dispatch worker rather than a `Task`: when other tests keep both threads of
    // the cooperative pool busy, a `Task` may not get to run before the timeout.
    DispatchQueue.global().async { release.completeAll() }
    let leftovers = await expectNoObservers(in: center, timeout: .seconds(10))
    #expect(leftovers.isEmpty)
  }

  @Test("Fails on purpose: only the requested notification type is counted")
  func onlyCountsTheRequestedNotificationType() async throws {
    let center = TypedNotificationCenter()
    let closedObserver = center.observe(Closed.self) { _ in }
    #expect(await expectNoObservers(in: center, of: Saved.self, timeout: .zero).isEmpty)
    var leftovers: [RegistrationInfo] = []
    await withKnownIssue {
      leftovers = await expectNoObservers(in: center, of: Closed.self, timeout: .zero)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("expected none of Closed") }
    }
    #expect(leftovers.map { String(describing: $0.notificationType) } == ["Closed"])
    closedObserver.cancel()
  }

  @Test("Fails on purpose: only the requested owner type is counted") func onlyCountsTheRequestedOwnerType()
    async throws
  {
    let center = TypedNotificationCenter()
    let listener = Listener()
    let special = SpecialListener()
    center.observe(Saved.self, owner: listener) { _, _ in }
    let tokenObserver = center.observe(Saved.self) { _ in }
    #expect(await expectNoObservers(in: center, ownedBy: SpecialListener.self, timeout: .zero).isEmpty)
    center.observe(Closed.self, owner: special) { _, _ in }
    var leftovers: [RegistrationInfo] = []
    await withKnownIssue {
      leftovers = await expectNoObservers(in: center, ownedBy: SpecialListener.self, timeout: .zero)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Closed observed by SpecialListener") }
    }
    #expect(leftovers.count == 1)
    tokenObserver.cancel()
    _ = (listener, special)
  }

  /// The synchronous form for a bridge, which Swift picks in a synchronous test.
  @Test("Fails on purpose: the synchronous expectNoObservers for a bridge lists a forgotten observer")
  func synchronousBridgeFormListsAForgottenObserverAtItsLine() throws {
    let bridge = FoundationNotificationBridge(NotificationCenter())
    let observeLine = #line + 1
    let forgotten = bridge.observe(Trimmed.self) { _ in }
    let checkLine = #line + 3
    var leftovers: [RegistrationInfo] = []
    withKnownIssue {
      leftovers = expectNoObservers(in: bridge, timeout: .zero)
    } matching: { issue in
      issue.sourceLocation?.line == checkLine
        && issue.comments.map(\.rawValue).joined().contains(
          "Trimmed observed (token) at PresentationModelTestingTests/ExpectNoObserversTests.swift:\(observeLine)")
    }
    #expect(try #require(leftovers.first).line == observeLine)
    forgotten.cancel()
    #expect(expectNoObservers(in: bridge, of: Trimmed.self, timeout: .zero).isEmpty)
  }
}

private struct Trimmed: FoundationNotification {
  static var name: Notification.Name { Notification.Name("ExpectNoObserversTests.Trimmed") }
  init?(_ notification: Notification) {}
}
