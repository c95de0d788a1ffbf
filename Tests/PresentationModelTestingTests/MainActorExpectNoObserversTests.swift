import PresentationModelTesting
import Testing

@Suite(.timeLimit(.minutes(1))) @MainActor struct MainActorExpectNoObserversTests {
  private struct Opened: MainActorNotification {}

  /// Not Sendable, used on the main actor only.
  private final class Viewer {}

  @Test("Fails on purpose: a forgotten main-actor observer is listed with its observe line")
  func failsListingAForgottenMainActorObserverWithItsObserveLine() async throws {
    let center = MainActorNotificationCenter()
    let viewer = Viewer()
    let observeLine = #line + 1
    center.observe(Opened.self, owner: viewer) { _, _ in }
    var leftovers: [RegistrationInfo] = []
    await withKnownIssue {
      leftovers = await expectNoObservers(in: center, timeout: .milliseconds(20))
    } matching: { issue in
      // The owner is told apart as on the typed center: `Viewer #1a2b3c at …`.
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("Opened observed by Viewer #")
        && message.contains(
          " at PresentationModelTestingTests/MainActorExpectNoObserversTests.swift:\(observeLine), main actor")
    }
    let leftover = try #require(leftovers.first)
    #expect(leftover.line == observeLine)
    withExtendedLifetime(viewer) {}
  }

  @Test func passesOnceTheOwnerIsGone() async {
    let center = MainActorNotificationCenter()
    do {
      let viewer = Viewer()
      center.observe(Opened.self, owner: viewer) { _, _ in }
    }
    let leftovers = await expectNoObservers(in: center, of: Opened.self)
    #expect(leftovers.isEmpty)
  }
}
