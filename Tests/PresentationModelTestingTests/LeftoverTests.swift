import Foundation
import PresentationModelTesting
import Synchronization
import Testing

/// Under plain `.detectsLeaks`, with nothing annotated: every registration the test made, on every
/// center, must have ended when it ends, and every widget it handed to a `PendingDelete` must be
/// disposed and gone. Each leaking scenario runs the trait's scope inside `withKnownIssue` and
/// expects the issue at the line that made the leftover; each twin runs under the real trait.
@Suite struct LeftoverTests {
  struct Ping: TypedNotification {}
  struct MainActorPing: MainActorNotification {}
  struct BridgedPing: FoundationNotification {
    static var name: Notification.Name { Notification.Name("PresentationModelTestingTests.LeftoverTests.BridgedPing") }
    init?(_ notification: Notification) {}
  }

  /// The three centers, each observed by its own `observe` line (so the issue's line is known).
  enum Center: CaseIterable, Sendable, CustomTestStringConvertible {
    case typed
    case mainActor
    case bridge

    var testDescription: String {
      switch self {
      case .typed: "TypedNotificationCenter"
      case .mainActor: "MainActorNotificationCenter"
      case .bridge: "FoundationNotificationBridge"
      }
    }

    /// A new center of this kind.
    @MainActor func make() -> any AnyObject & Sendable {
      switch self {
      case .typed: TypedNotificationCenter()
      case .mainActor: MainActorNotificationCenter()
      case .bridge: FoundationNotificationBridge(NotificationCenter())
      }
    }

    /// Observes with `owner` on `center`; returns the `observe` line.
    @MainActor func observe(on center: any AnyObject & Sendable, owner: Listener) -> Int {
      switch self {
      case .typed:
        (center as! TypedNotificationCenter).observe(Ping.self, owner: owner) { _, _ in }
        return #line - 1
      case .mainActor:
        (center as! MainActorNotificationCenter).observe(MainActorPing.self, owner: owner) { _, _ in }
        return #line - 1
      case .bridge:
        (center as! FoundationNotificationBridge).observe(BridgedPing.self, owner: owner) { _, _ in }
        return #line - 1
      }
    }

    /// Observes by a token on `center`; returns the token and the `observe` line.
    @MainActor func observe(on center: any AnyObject & Sendable) -> (token: ObserverToken, line: Int) {
      switch self {
      case .typed: ((center as! TypedNotificationCenter).observe(Ping.self) { _ in }, #line)
      case .mainActor: ((center as! MainActorNotificationCenter).observe(MainActorPing.self) { _ in }, #line)
      case .bridge: ((center as! FoundationNotificationBridge).observe(BridgedPing.self) { _ in }, #line)
      }
    }
  }

  /// Holds what a scenario keeps past its test body, as a global or a long-lived service would.
  final class Keeper: @unchecked Sendable {
    // @unchecked Sendable: `objects` is only touched under `lock`.
    private let lock = NSLock()
    private var objects: [AnyObject] = []

    func keep(_ object: AnyObject) { lock.withLock { objects.append(object) } }
    func letGo() { lock.withLock { objects.removeAll() } }
  }

  /// The trait's scope, as the testing library runs it, so its issues can be caught.
  private static func runInTraitScope(
    _ level: LeakDetectionTrait.Level = .observersAndWidgets, expecting: LeakDetectionTrait.Expectation? = nil,
    _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    let test = try #require(Test.current)
    try await LeakDetectionTrait(level, timeout: .milliseconds(50), expecting: expecting).provideScope(
      for: test, testCase: Test.Case.current, performing: body)
  }

  private static func message(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
  }

  private static func isAt(_ issue: Issue, line: Int) -> Bool {
    issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "LeftoverTests.swift"
  }

  // MARK: Registrations

  @Test(
    "Fails on purpose: an owner kept alive past the test leaves its observer registered", arguments: Center.allCases)
  func anOwnerKeptAliveLeavesItsObserver(on kind: Center) async throws {
    let keeper = Keeper()
    let center = await kind.make()
    let observeLine = Mutex(0)
    try await withKnownIssue {
      try await Self.runInTraitScope {
        let line = await MainActor.run {
          let listener = Listener()
          keeper.keep(listener)
          return kind.observe(on: center, owner: listener)
        }
        observeLine.withLock { $0 = line }
      }
    } matching: { issue in
      Self.isAt(issue, line: observeLine.withLock { $0 })
        && Self.message(of: issue).contains("Observer still registered")
        && Self.message(of: issue).contains(
          "observed by Listener at PresentationModelTestingTests/LeftoverTests.swift:")
        && Self.message(of: issue).contains("Its owner, a PresentationModelTestingTests.Listener, is still alive")
    }
    keeper.letGo()
    withExtendedLifetime(center) {}
  }

  @Test("Fails on purpose: a token kept past the test leaves its observer registered", arguments: Center.allCases)
  func aTokenKeptLeavesItsObserver(on kind: Center) async throws {
    let keeper = Keeper()
    let center = await kind.make()
    let observeLine = Mutex(0)
    try await withKnownIssue {
      try await Self.runInTraitScope {
        let line = await MainActor.run {
          let (token, line) = kind.observe(on: center)
          keeper.keep(token)
          return line
        }
        observeLine.withLock { $0 = line }
      }
    } matching: { issue in
      Self.isAt(issue, line: observeLine.withLock { $0 })
        && Self.message(of: issue).contains("observed (token) at PresentationModelTestingTests/LeftoverTests.swift:")
        && Self.message(of: issue).contains("Its token is still alive")
    }
    keeper.letGo()
    withExtendedLifetime(center) {}
  }

  /// The path from a tracked object to the owner that keeps the observer live is named.
  @Test("Fails on purpose: what holds a leftover observer's owner is named")
  func whatHoldsTheOwnerIsNamed() async throws {
    let center = TypedNotificationCenter()
    let keeper = Keeper()
    let observeLine = #line + 9
    try await withKnownIssue {
      try await Self.runInTraitScope {
        final class Screen: @unchecked Sendable {
          // @unchecked Sendable: set once before it is shared.
          var listeners: [Listener] = []
        }
        let screen = Screen()
        screen.listeners = [Listener(), Listener()]
        center.observe(Ping.self, owner: screen.listeners[1]) { _, _ in }
        keeper.keep(screen)
        trackForLeaks(screen)
      }
    } matching: { issue in
      guard Self.isAt(issue, line: observeLine) else { return true }  // the screen itself, tracked
      return Self.message(of: issue).contains("is still alive, held by:\n- Screen.listeners[1]")
    }
    keeper.letGo()
  }

  @Test("Fails on purpose: an async sequence still iterated leaves its observer registered")
  func aSequenceStillIteratedLeavesItsObserver() async throws {
    let center = TypedNotificationCenter()
    let started = Mutex<Task<Void, Never>?>(nil)
    let observeLine = #line + 4
    try await withKnownIssue {
      try await Self.runInTraitScope {
        // A task that outlives the test, iterating (a common leak: nobody cancels it).
        let sequence = center.notifications(of: Ping.self, bufferingPolicy: .unbounded)
        started.withLock {
          $0 = Task {
            for await _ in sequence {}
          }
        }
      }
    } matching: { issue in
      Self.isAt(issue, line: observeLine)
        && Self.message(of: issue).contains("Ping observed (token) at")
        && Self.message(of: issue).contains("Its async sequence, or an iterator of it, is still alive")
    }
    started.withLock { $0?.cancel() }
  }

  @Test(.detectsLeaks, arguments: Center.allCases)
  func observersWhoseOwnerOrTokenGoesLeaveNothing(on kind: Center) async {
    let center = await kind.make()
    await MainActor.run {
      let listener = Listener()
      _ = kind.observe(on: center, owner: listener)
      var token: ObserverToken? = kind.observe(on: center).token
      #expect(token?.isActive == true)
      token = nil
    }
    withExtendedLifetime(center) {}
  }

  @Test(.detectsLeaks) func aSequenceWhoseTaskIsCancelledLeavesNothing() async {
    let center = TypedNotificationCenter()
    let sequence = center.notifications(of: Ping.self, bufferingPolicy: .unbounded)
    let task = Task {
      for await _ in sequence {}
    }
    task.cancel()
    await task.value
  }

  // MARK: Widgets

  @MainActor final class Node: Fadable {
    var opacity = 1.0
    private(set) var disposed = false
    func dispose() { disposed = true }
  }

  @Test("Fails on purpose: a fade that never finished is reported at its call")
  func aFadeThatNeverFinishedIsReported() async throws {
    let fadeLine = #line + 5
    try await withKnownIssue {
      try await Self.runInTraitScope {
        await MainActor.run {
          let pendingDelete = PendingDelete(duration: .milliseconds(100), steps: 4, scheduler: ManualStepScheduler())
          pendingDelete.fadeOutAndDispose(Node())
        }
      }
    } matching: { issue in
      Self.isAt(issue, line: fadeLine)
        && Self.message(of: issue).contains(
          "a PresentationModelTestingTests.LeftoverTests.Node handed to PendingDelete at "
            + "PresentationModelTestingTests/LeftoverTests.swift:\(fadeLine)")
        && Self.message(of: issue).contains("Its fade had not finished when the test ended: 0 of 4 steps ran")
    }
  }

  @Test("Fails on purpose: a disposed widget still alive is reported with what holds it")
  func aDisposedWidgetStillAliveIsReported() async throws {
    let keeper = Keeper()
    let fadeLine = #line + 8
    try await withKnownIssue {
      try await Self.runInTraitScope {
        await MainActor.run {
          let scheduler = ManualStepScheduler()
          let pendingDelete = PendingDelete(duration: .milliseconds(100), steps: 4, scheduler: scheduler)
          let node = Node()
          keeper.keep(node)  // a stale reference left in some registry
          pendingDelete.fadeOutAndDispose(node)
          scheduler.advance(by: .milliseconds(100))
          #expect(node.disposed)
        }
      }
    } matching: { issue in
      Self.isAt(issue, line: fadeLine)
        && Self.message(of: issue).contains(
          "handed to PendingDelete at PresentationModelTestingTests/LeftoverTests.swift:")
        && Self.message(of: issue).contains("It was disposed but is still alive")
    }
    keeper.letGo()
  }

  @Test(.detectsLeaks) @MainActor func aFinishedFadeAndACancelledOneLeaveNothing() {
    let scheduler = ManualStepScheduler()
    let pendingDelete = PendingDelete(duration: .milliseconds(100), steps: 4, scheduler: scheduler)
    let kept = Node()
    pendingDelete.fadeOutAndDispose(Node())
    pendingDelete.fadeOutAndDispose(kept)
    #expect(pendingDelete.cancel(kept))
    scheduler.advance(by: .milliseconds(100))
    #expect(pendingDelete.pendingCount == 0)
  }

  // MARK: Levels and expectations

  /// `.trackedObjects` checks what was tracked and nothing else: a test that keeps an observer on
  /// purpose says so.
  @Test func theTrackedObjectsLevelLeavesRegistrationsAndWidgetsAlone() async throws {
    let keeper = Keeper()
    let center = TypedNotificationCenter()
    try await Self.runInTraitScope(.trackedObjects) {
      keeper.keep(center.observe(Ping.self) { _ in })
      await MainActor.run {
        let pendingDelete = PendingDelete(duration: .milliseconds(100), steps: 4, scheduler: ManualStepScheduler())
        pendingDelete.fadeOutAndDispose(Node())
      }
    }
    keeper.letGo()
  }

  @Test("Fails on purpose: an expected leak is a known issue, and the test passes")
  func anExpectedLeakIsAKnownIssue() async throws {
    let keeper = Keeper()
    let center = TypedNotificationCenter()
    // No withKnownIssue here: the trait records the expected leak as a known issue itself.
    try await Self.runInTraitScope(expecting: .leaks(of: [Listener.self])) {
      let listener = Listener()
      keeper.keep(listener)
      center.observe(Ping.self, owner: listener) { _, _ in }
    }
    keeper.letGo()
  }

  @Test("Fails on purpose: an expected leak that does not happen fails the test")
  func anExpectedLeakThatDoesNotHappenFails() async throws {
    try await withKnownIssue {
      try await Self.runInTraitScope(expecting: .anyLeak) {
        _ = Listener()
      }
    } matching: { issue in
      Self.message(of: issue).contains("The test was expected to leak (expecting: .anyLeak), and nothing leaked.")
    }
  }

  @Test("Fails on purpose: a leak of another type than the expected one fails the test")
  func aLeakOfAnotherTypeFails() async throws {
    let keeper = Keeper()
    try await withKnownIssue {
      try await Self.runInTraitScope(expecting: .leaks(of: [Listener.self])) {
        let other = SpecialListener()
        keeper.keep(other)
        trackForLeaks(other)
      }
    } matching: { issue in
      let message = Self.message(of: issue)
      return message.contains("Leaked PresentationModelTestingTests.SpecialListener")
        || message.contains("expected to leak a PresentationModelTestingTests.Listener")
    }
    keeper.letGo()
  }
}
