import Foundation
import PresentationModelTesting
import Testing

/// The leak report names the `observe` call whose handler keeps a survivor alive for the handlers
/// that run on the main actor too: the main-actor center's, the typed center's and the bridge's
/// `observeOnMainActor`, and the bridge's form for Foundation's `MainActorMessage`. Their handlers
/// are held in boxes that release them on the main queue, and only here are those forms worded by
/// the harness's own tests: with "Held by the handler of …" left out of the survivor's line for
/// main-actor handlers, only the demo's end-to-end test and `.ci/harness-consumer-check.sh`
/// failed (issue 29).
@Suite(.timeLimit(.minutes(1))) @MainActor struct MainActorHandlerLeakTests {
  enum Form: CaseIterable, Sendable, CustomTestStringConvertible {
    case mainActorCenter
    case typedObserveOnMainActor
    case bridgeObserveOnMainActor
    case bridgeObserveOnMainActorWithAnOwner
    case bridgeMainActorMessage

    var testDescription: String {
      switch self {
      case .mainActorCenter: "MainActorNotificationCenter.observe"
      case .typedObserveOnMainActor: "TypedNotificationCenter.observeOnMainActor"
      case .bridgeObserveOnMainActor: "FoundationNotificationBridge.observeOnMainActor"
      case .bridgeObserveOnMainActorWithAnOwner: "FoundationNotificationBridge.observeOnMainActor(_:owner:)"
      case .bridgeMainActorMessage: "FoundationNotificationBridge.observe(_:owner:), a MainActorMessage"
      }
    }
  }

  @Test(
    "A main-actor handler that captures a survivor is named in the report and in the test failure",
    arguments: Form.allCases)
  func namesTheMainActorHandlerThatHoldsASurvivor(form: Form) async throws {
    for attempt in 1...5 {
      // The registrations made here are logged, as the leak harness logs a test's, and the report
      // looks for holders among them.
      let log = LeakScopeLog()
      let tracker = LeakTracker(log: log)
      guard let observation = LeakScopeLog.withScope(log, { Self.observe(form, tracker) }) else { return }
      // Off the main actor, which the check does not hold meanwhile (a report on it held it for
      // seconds under ThreadSanitizer, and main-actor tests with time limits ran out).
      let report = await tracker.checkForLeaks(timeout: .zero)
      observation.token.cancel()
      withExtendedLifetime(observation.center) {}
      let survivor = try #require(report.survivors.first, "the captured object survived")
      // The report reads the main-actor registrations in a block on the main queue, and leaves them
      // out when the queue stays busy for two seconds (other main-actor tests): it then found no
      // holder at all, and the attempt is made again.
      if survivor.retainingObservers.isEmpty && attempt < 5 { continue }
      let registration =
        "\(observation.registration) at PresentationModelTestingTests/MainActorHandlerLeakTests.swift:"
        + "\(observation.line), main actor"
      #if !canImport(ObjectiveC)  // where the harness can read closure captures
        let holder = "- the handler of \(registration), which captures it"
        #expect(survivor.description.hasSuffix(holder), "the report's line: \(survivor.description)")
        #expect(report.description.contains(holder))
        #expect(SurvivorWording.leakFailure(survivor, waited: .zero).hasSuffix(holder), "the test failure's")
      #endif
      return
    }
  }

  /// An observation in `form` whose handler captures one new object, which `tracker` tracks and
  /// nothing else holds; `nil` where the form does not exist.
  private static func observe(_ form: Form, _ tracker: LeakTracker) -> Observation? {
    let captured = Captured()
    tracker.track(captured)
    let owner = Owner()
    switch form {
    case .mainActorCenter:
      let center = MainActorNotificationCenter()
      let token = center.observe(Shown.self) { _ in withExtendedLifetime(captured) {} }
      return Observation(center: center, token: token, line: #line - 1, registration: "Shown observed (token)")
    case .typedObserveOnMainActor:
      let center = TypedNotificationCenter()
      let token = center.observeOnMainActor(Shown.self) { _ in withExtendedLifetime(captured) {} }
      return Observation(center: center, token: token, line: #line - 1, registration: "Shown observed (token)")
    case .bridgeObserveOnMainActor:
      let bridge = FoundationNotificationBridge(NotificationCenter())
      let token = bridge.observeOnMainActor(Bridged.self) { _ in withExtendedLifetime(captured) {} }
      return Observation(center: bridge, token: token, line: #line - 1, registration: "Bridged observed (token)")
    case .bridgeObserveOnMainActorWithAnOwner:
      let bridge = FoundationNotificationBridge(NotificationCenter())
      let token = bridge.observeOnMainActor(Bridged.self, owner: owner) { _, _ in withExtendedLifetime(captured) {} }
      return Observation(
        center: (bridge, owner), token: token, line: #line - 2, registration: "Bridged observed by Owner")
    case .bridgeMainActorMessage:
      guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return nil }
      let bridge = FoundationNotificationBridge(NotificationCenter())
      let token = bridge.observe(Message.self, owner: owner) { _, _ in withExtendedLifetime(captured) {} }
      return Observation(
        center: (bridge, owner), token: token, line: #line - 2, registration: "Message observed by Owner")
    }
  }

  struct Observation {
    /// What must outlive the check: the center (its `deinit` would drop the handler) and the owner.
    let center: Any
    let token: ObserverToken
    let line: Int
    /// How the report describes the registration, up to its file.
    let registration: String
  }

  private final class Captured: Sendable {}
  final class Owner: Sendable {}
  private struct Shown: MainActorNotification, TypedNotification {}

  private struct Bridged: FoundationNotification {
    static var name: Notification.Name { Notification.Name("PresentationModelTestingTests.MainActorHandlerLeakTests") }
    init?(_ notification: Notification) {}
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  private struct Message: NotificationCenter.MainActorMessage {
    typealias Subject = Owner
  }
}
