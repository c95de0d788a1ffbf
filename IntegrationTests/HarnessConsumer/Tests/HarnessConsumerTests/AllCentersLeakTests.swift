import Foundation
import PresentationModelTesting
import Testing

// Every owner-bound form of every center, as a customer writes the two observer leaks people make
// most: a handler that captures its own owner (caught when the registration is made), and an
// object that stores the token of an observation whose handler captures it (a cycle through the
// center, named by the leak report). Each leaking test has a correct twin. The observe calls are
// marked `capture line <form>` and `cycle line <form>`: .ci/harness-consumer-check.sh expects each
// leaking test to fail naming its own marked line, and each twin to pass.

struct Opened: MainActorNotification {}

struct Trimmed: FoundationNotification {
  static var name: Notification.Name { Notification.Name("HarnessConsumer.Trimmed") }
  init?(_ notification: Notification) {}
}

final class Subject: Sendable {}

struct Saved: NotificationCenter.MainActorMessage {
  typealias Subject = HarnessConsumerTests.Subject
}

struct Synced: NotificationCenter.AsyncMessage {
  typealias Subject = HarnessConsumerTests.Subject
}

/// An owner that lives as long as the process, like an app delegate.
final class AppLifetime: Sendable {}
let appLifetime = AppLifetime()

/// An object that keeps the token of the observation it is the subject of, as view models do.
final class Holder: @unchecked Sendable {
  // @unchecked Sendable: `token` is set once, before the object is shared.
  var token: ObserverToken?
  func touch() {}
}

@Suite(.detectsLeaks(timeout: .milliseconds(200))) struct AllCentersLeakTests {
  @Test func typedObserveCapturesItsOwner() {
    let center = TypedNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Refresh.self, owner: holder) { _, _ in holder.touch() }  // capture line typedObserve
  }

  @Test func typedObserveTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = TypedNotificationCenter.default.observe(Refresh.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line typedObserve
  }

  @Test func typedObserveOnMainActorCapturesItsOwner() {
    let center = TypedNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnMainActor(Refresh.self, owner: holder) { _, _ in holder.touch() }  // capture line typedObserveOnMainActor
  }

  @Test func typedObserveOnMainActorTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = TypedNotificationCenter.default.observeOnMainActor(Refresh.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line typedObserveOnMainActor
  }

  @Test func typedObserveOnceCapturesItsOwner() {
    let center = TypedNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnce(Refresh.self, owner: holder) { _, _ in holder.touch() }  // capture line typedObserveOnce
  }

  @Test func typedObserveOnceTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = TypedNotificationCenter.default.observeOnce(Refresh.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line typedObserveOnce
  }

  @Test @MainActor func mainActorObserveCapturesItsOwner() {
    let center = MainActorNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Opened.self, owner: holder) { _, _ in holder.touch() }  // capture line mainActorObserve
  }

  @Test @MainActor func mainActorObserveTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = MainActorNotificationCenter.default.observe(Opened.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line mainActorObserve
  }

  @Test @MainActor func mainActorObserveOnceCapturesItsOwner() {
    let center = MainActorNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnce(Opened.self, owner: holder) { _, _ in holder.touch() }  // capture line mainActorObserveOnce
  }

  @Test @MainActor func mainActorObserveOnceTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = MainActorNotificationCenter.default.observeOnce(Opened.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line mainActorObserveOnce
  }

  @Test func bridgeObserveCapturesItsOwner() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Trimmed.self, owner: holder) { _, _ in holder.touch() }  // capture line bridgeObserve
  }

  @Test func bridgeObserveTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observe(Trimmed.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line bridgeObserve
  }

  @Test @MainActor func bridgeObserveOnMainActorCapturesItsOwner() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnMainActor(Trimmed.self, owner: holder) { _, _ in holder.touch() }  // capture line bridgeObserveOnMainActor
  }

  @Test @MainActor func bridgeObserveOnMainActorTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observeOnMainActor(Trimmed.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line bridgeObserveOnMainActor
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) @Test @MainActor func bridgeMainActorMessageCapturesItsOwner() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Saved.self, owner: holder) { _, _ in holder.touch() }  // capture line bridgeMainActorMessage
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) @Test @MainActor func bridgeMainActorMessageTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observe(Saved.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line bridgeMainActorMessage
  }

  @Test func bridgeAsyncMessageCapturesItsOwner() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Synced.self, owner: holder) { _, _ in holder.touch() }  // capture line bridgeAsyncMessage
  }

  @Test func bridgeAsyncMessageTokenStoredInWhatTheHandlerCaptures() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observe(Synced.self, owner: appLifetime) { _, _ in holder.touch() }  // cycle line bridgeAsyncMessage
  }
}

@Suite(.detectsLeaks(timeout: .milliseconds(200))) struct AllCentersTwinTests {
  @Test func typedObserveUsesTheOwnerArgument() {
    let center = TypedNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Refresh.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test func typedObserveTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = TypedNotificationCenter.default.observe(Refresh.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @Test func typedObserveOnMainActorUsesTheOwnerArgument() {
    let center = TypedNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnMainActor(Refresh.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test func typedObserveOnMainActorTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = TypedNotificationCenter.default.observeOnMainActor(Refresh.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @Test func typedObserveOnceUsesTheOwnerArgument() {
    let center = TypedNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnce(Refresh.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test func typedObserveOnceTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = TypedNotificationCenter.default.observeOnce(Refresh.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @Test @MainActor func mainActorObserveUsesTheOwnerArgument() {
    let center = MainActorNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Opened.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test @MainActor func mainActorObserveTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = MainActorNotificationCenter.default.observe(Opened.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @Test @MainActor func mainActorObserveOnceUsesTheOwnerArgument() {
    let center = MainActorNotificationCenter()
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnce(Opened.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test @MainActor func mainActorObserveOnceTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = MainActorNotificationCenter.default.observeOnce(Opened.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @Test func bridgeObserveUsesTheOwnerArgument() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Trimmed.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test func bridgeObserveTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observe(Trimmed.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @Test @MainActor func bridgeObserveOnMainActorUsesTheOwnerArgument() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observeOnMainActor(Trimmed.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test @MainActor func bridgeObserveOnMainActorTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observeOnMainActor(Trimmed.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) @Test @MainActor func bridgeMainActorMessageUsesTheOwnerArgument() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Saved.self, owner: holder) { holder, _ in holder.touch() }
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) @Test @MainActor func bridgeMainActorMessageTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observe(Saved.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }

  @Test func bridgeAsyncMessageUsesTheOwnerArgument() {
    let center = FoundationNotificationBridge(NotificationCenter())
    let holder = Holder()
    trackForLeaks(holder)
    center.observe(Synced.self, owner: holder) { holder, _ in holder.touch() }
  }

  @Test func bridgeAsyncMessageTokenStoredInWhatTheHandlerCapturesWeakly() {
    let holder = Holder()
    trackForLeaks(holder)
    holder.token = FoundationNotificationBridge.default.observe(Synced.self, owner: appLifetime) { [weak holder] _, _ in holder?.touch() }
    holder.token?.cancel()
  }
}
