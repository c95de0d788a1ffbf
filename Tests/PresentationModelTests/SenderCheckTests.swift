import Foundation
import PresentationModel
import PresentationTestSupport
import Testing

// A value given where a sender filter expects an object is boxed or bridged into an object only
// the call holds: the observation ends when the call returns. Debug builds say so, naming the call.
#if DEBUG
  @Suite(.timeLimit(.minutes(1))) @MainActor struct SenderCheckTests {
    struct Ping: TypedNotification {}
    struct MainPing: MainActorNotification {}
    struct Trimmed: FoundationNotification {
      static var name: Notification.Name { Notification.Name("SenderCheckTests.Trimmed") }
      init?(_ notification: Notification) {}
    }
    struct Editor {}
    final class Poster: Sendable {}

    /// The one finding of `body`, which must name `line` of this file.
    private func finding(atLine line: Int, _ body: () -> Void) throws -> String {
      let (_, findings) = collectingRegistrationFindings(body)
      try #require(findings.count == 1, "\(findings.map(\.message))")
      #expect(String(describing: findings[0].fileID) == #fileID)
      #expect(findings[0].line == line)
      return findings[0].message
    }

    @Test func aStringGivenToTheBridgeIsNamedAtItsObserveCall() throws {
      let bridge = FoundationNotificationBridge(NotificationCenter())
      var token: ObserverToken?
      let line = #line + 2
      let message = try finding(atLine: line) {
        token = bridge.observe(Trimmed.self, from: "editor" as AnyObject) { _ in }
      }
      #expect(message.hasPrefix("The sender filter (from:) of the observe call at \(#fileID):\(line) is "))
      #if !canImport(ObjectiveC)
        #expect(message.contains("a String bridged to a new NSString"))
        #expect(token?.isActive == false, "the trap itself: the bridged string is gone")
      #endif
      #expect(message.contains("the observation ends at once"))
    }

    @Test func aStructIsNamedOnEveryCenter() throws {
      let typed = TypedNotificationCenter()
      let mainActor = MainActorNotificationCenter()
      let bridge = FoundationNotificationBridge(NotificationCenter())
      var tokens: [ObserverToken] = []
      let owner = Poster()
      let calls: [(line: Int, observe: () -> Void)] = [
        (#line, { tokens.append(typed.observe(Ping.self, from: Editor() as AnyObject) { _ in }) }),
        (#line, { typed.observe(Ping.self, owner: owner, from: Editor() as AnyObject) { _, _ in } }),
        (#line, { tokens.append(typed.observeOnMainActor(Ping.self, from: Editor() as AnyObject) { _ in }) }),
        (#line, { _ = typed.notifications(of: Ping.self, from: Editor() as AnyObject, bufferingPolicy: .unbounded) }),
        (#line, { tokens.append(mainActor.observe(MainPing.self, from: Editor() as AnyObject) { _ in }) }),
        (#line, { mainActor.observe(MainPing.self, owner: owner, from: Editor() as AnyObject) { _, _ in } }),
        (#line, { tokens.append(bridge.observe(Trimmed.self, from: Editor() as AnyObject) { _ in }) }),
        (#line, { bridge.observe(Trimmed.self, owner: owner, from: Editor() as AnyObject) { _, _ in } }),
        (#line, { tokens.append(bridge.observeOnMainActor(Trimmed.self, from: Editor() as AnyObject) { _ in }) }),
      ]
      for call in calls {
        let message = try finding(atLine: call.line, call.observe)
        #expect(message.contains("is a value of a struct or enum type, boxed in a new object"), "\(message)")
      }
      #expect(tokens.allSatisfy { !$0.isActive })
    }

    @Test func anObjectThatOutlivesTheCallIsNotNamed() {
      let center = TypedNotificationCenter()
      let bridge = FoundationNotificationBridge(NotificationCenter())
      let poster = Poster()
      let (tokens, findings) = collectingRegistrationFindings {
        [
          center.observe(Ping.self, from: poster) { _ in },
          bridge.observe(Trimmed.self, from: poster) { _ in },
          center.observe(Ping.self) { _ in },
        ]
      }
      #expect(findings.isEmpty)
      #expect(tokens.allSatisfy { $0.isActive })
      for token in tokens { token.cancel() }
    }
  }
#endif
