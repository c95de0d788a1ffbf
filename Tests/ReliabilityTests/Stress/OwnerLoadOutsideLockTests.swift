import Foundation
import PresentationModel
import PresentationModelDiagnostics
import PresentationTestSupport
import Testing

/// Every operation that touches owners and senders, on the centers that lock (the typed center
/// and the bridge), run under an ``OwnerLoadProbe`` that checks each load and lets go of the test's
/// last reference to an owner at the moment the center loads it. That owner's `deinit` then runs
/// wherever the center releases its load, and calls back into the center (cancel, queries,
/// observe), each of which takes the center's lock.
///
/// - On both, the probe also asks whether the thread is inside an engine's exclusive section, under
///   its lock (``TestHooks/isInExclusiveSection``): a load there is recorded (and the owner kept, so
///   that the run does not deadlock) and fails the test.
/// - On both, a load released under the lock would deadlock in the `deinit`'s call back. Each case
///   runs in a child process (an exit test), where the watchdog ends such a deadlock, so the case
///   fails by name. (Run in the test process, the watchdog ended the whole run, naming the case
///   only in its message; an owner loaded under the typed center's lock while a leak report copied
///   its handlers was found that way, issue 29.)
@Suite(.enabled(if: OwnerLoadProbe.isCompiledIn, "the probe exists in debug builds only"), .timeLimit(.minutes(1)))
@MainActor struct OwnerLoadOutsideLockTests {
  enum LockingCenter: String, CaseIterable, Sendable, Codable {
    case typed = "TypedNotificationCenter"
    case bridge = "FoundationNotificationBridge"
  }

  enum Operation: String, CaseIterable, Sendable, Codable {
    /// `observe` with an owner and a sender (the debug build's checks load both).
    case registration
    /// A post reaching an owner-bound, sender-filtered observer on the posting thread (the bridge's
    /// Foundation observer block).
    case post
    /// The same, for an owner-bound observer on the main actor (`observeOnMainActor`).
    case mainActorPost
    case observerCount
    case registrations
    /// The sweep a registration runs once the storage has grown: it loads every owner.
    case sweep
    case cancel
    /// The center's deinit, with registrations left.
    case centerDeinit
    /// A leak report's copy of every live center's handlers (`LiveRegistries`): under the center's
    /// lock it reads each registration's own state only; the owners are loaded after unlocking.
    case leakReportCopy

    /// Whether the operation loads the owner at all (the probe must see it, or the test proves
    /// nothing about it).
    var loadsTheOwner: Bool { self != .cancel && self != .centerDeinit }
    /// Whether the center's load of the owner is the last reference to it, so its `deinit` runs
    /// where the center releases the load. At registration the caller's argument holds it.
    var releasesTheOwnerAtItsLoad: Bool { loadsTheOwner && self != .registration }
  }

  @Test(
    "no owner or sender is loaded under the center's lock, and an owner released at its load calls back into the center",
    arguments: LockingCenter.allCases, Operation.allCases)
  func noOwnerOrSenderIsLoadedUnderTheLock(center kind: LockingCenter, operation: Operation) async {
    await #expect(
      processExitsWith: .success,
      "\(kind.rawValue), \(operation): deadlocked (the child's watchdog ended it after 30 s), or crashed"
    ) { [kind, operation] in
      try await Self.loadOwners(during: operation, on: kind)
    }
  }

  private static func loadOwners(during operation: Operation, on kind: LockingCenter) throws {
    var center: LockCenter? = LockCenter(kind)
    let sender = LockSender()
    let held = LockedBox<CallingBackOwner?>(CallingBackOwner(calling: try #require(center)))
    let ownerID = try #require(held.value.map(ObjectIdentifier.init))
    let deinitRan = try #require(held.value).deinitRan
    var keepers: [CallingBackOwner] = []
    var tokens: [ObserverToken] = []
    if operation != .registration {
      let owner = try #require(held.value)
      tokens = try #require(center).observe(owner: owner, sender: sender, onMainActor: operation == .mainActorPost)
      #expect(try #require(center).observerCount() == 2)
    }
    let loads = LoadRecord()
    let probe: @Sendable (AnyObject) -> Void = { loaded in
      let underLock = TestHooks.isInExclusiveSection
      let isOwner = ObjectIdentifier(loaded) == ownerID
      loads.record(String(describing: type(of: loaded)), isOwner: isOwner, underLock: underLock)
      guard isOwner, !underLock else { return }
      let taken = held.withLock { held in
        defer { held = nil }
        return held
      }
      _ = taken  // released after the box's lock: the center's own load is now the last reference
    }

    failingOnDeadlock("\(kind.rawValue), \(operation)", limit: .seconds(30)) {
      OwnerLoadProbe.$onLoad.withValue(probe) {
        guard let live = center else { return }
        switch operation {
        case .registration:
          if let owner = held.value {
            tokens = live.observe(owner: owner, sender: sender, onMainActor: false)
            tokens += live.observe(owner: owner, sender: sender, onMainActor: true)
          }
        case .post, .mainActorPost: live.post(from: sender)
        case .observerCount: _ = live.observerCount()
        case .registrations: _ = live.registrations()
        case .sweep:
          // Enough owner-bound registrations to reach the sweep threshold (32 entries).
          for _ in 0..<40 {
            let keeper = CallingBackOwner(calling: live)
            keepers.append(keeper)
            tokens += live.observe(owner: keeper, sender: sender, onMainActor: false)
          }
        case .cancel:
          for token in tokens { token.cancel() }
        case .centerDeinit:
          center = nil
        case .leakReportCopy:
          LiveRegistries.withRegistrationSnapshots(of: nil) { _ in }
        }
      }
    }

    #expect(loads.underLock.isEmpty, "\(kind.rawValue), \(operation): loaded under the lock: \(loads.underLock)")
    if operation.loadsTheOwner {
      #expect(loads.ownerLoads > 0, "\(kind.rawValue), \(operation): the probe saw the center load the owner")
    }
    if operation.releasesTheOwnerAtItsLoad {
      #expect(held.value == nil, "\(kind.rawValue), \(operation): the test's reference was let go at the load")
      #expect(deinitRan.value, "\(kind.rawValue), \(operation): the owner's deinit ran and called back into the center")
    }
    withExtendedLifetime((keepers, tokens, sender)) {}
  }
}

/// The notification the suite observes, on both centers.
private struct LockNote: TypedNotification, FoundationNotification {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.LockNote") }
  init() {}
  init?(_ notification: Notification) {}
}

/// Observed (and then cancelled) by the owner's own `deinit`.
private struct OwnNote: TypedNotification, FoundationNotification {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.OwnNote") }
  init() {}
  init?(_ notification: Notification) {}
}

private final class LockSender: Sendable {}

/// A typed center or a bridge, driven through its public API.
private final class LockCenter: Sendable {
  let kind: OwnerLoadOutsideLockTests.LockingCenter
  let typed = TypedNotificationCenter()
  let foundation = NotificationCenter()
  let bridge: FoundationNotificationBridge

  init(_ kind: OwnerLoadOutsideLockTests.LockingCenter) {
    self.kind = kind
    bridge = FoundationNotificationBridge(foundation)
  }

  /// An owner-bound, sender-filtered observer on the posting thread (or the main actor), and a
  /// token-bound one filtering for the same sender.
  func observe(owner: CallingBackOwner, sender: LockSender, onMainActor: Bool) -> [ObserverToken] {
    switch (kind, onMainActor) {
    case (.typed, false):
      [
        typed.observe(LockNote.self, owner: owner, from: sender) { owner, _ in owner.touch() },
        typed.observe(LockNote.self, from: sender) { _ in },
      ]
    case (.typed, true):
      [
        typed.observeOnMainActor(LockNote.self, owner: owner, from: sender) { owner, _ in owner.touch() },
        typed.observeOnMainActor(LockNote.self, from: sender) { _ in },
      ]
    case (.bridge, false):
      [
        bridge.observe(LockNote.self, owner: owner, from: sender) { owner, _ in owner.touch() },
        bridge.observe(LockNote.self, from: sender) { _ in },
      ]
    case (.bridge, true):
      [
        bridge.observeOnMainActor(LockNote.self, owner: owner, from: sender) { owner, _ in owner.touch() },
        bridge.observeOnMainActor(LockNote.self, from: sender) { _ in },
      ]
    }
  }

  func post(from sender: LockSender) {
    switch kind {
    case .typed: typed.post(LockNote(), from: sender)
    case .bridge: foundation.post(name: LockNote.name, object: sender)
    }
  }

  func observerCount() -> Int {
    switch kind {
    case .typed: typed.observerCount(for: LockNote.self)
    case .bridge: bridge.observerCount(for: LockNote.self)
    }
  }

  func registrations() -> [RegistrationInfo] {
    switch kind {
    case .typed: typed.registrations
    case .bridge: bridge.registrations
    }
  }

  /// What an owner's `deinit` does: each step takes the center's lock.
  func callBack(cancelling token: ObserverToken) {
    token.cancel()
    _ = observerCount()
    _ = registrations()
    switch kind {
    case .typed:
      typed.observe(OwnNote.self) { _ in }.cancel()
      typed.post(OwnNote())
    case .bridge:
      bridge.observe(OwnNote.self) { _ in }.cancel()
    }
  }
}

/// An owner whose `deinit` calls back into its center, which it holds weakly (so the center can
/// deinitialise first).
private final class CallingBackOwner: Sendable {
  weak let center: LockCenter?
  let token: ObserverToken
  let deinitRan = LockedBox(false)

  init(calling center: LockCenter) {
    self.center = center
    token =
      switch center.kind {
      case .typed: center.typed.observe(OwnNote.self) { _ in }
      case .bridge: center.bridge.observe(OwnNote.self) { _ in }
      }
  }

  func touch() {}

  deinit {
    center?.callBack(cancelling: token)
    deinitRan.withLock { $0 = true }
  }
}

/// The loads the probe saw.
private final class LoadRecord: Sendable {
  private let state = LockedBox((ownerLoads: 0, underLock: [String]()))

  var ownerLoads: Int { state.value.ownerLoads }
  var underLock: [String] { state.value.underLock }

  func record(_ typeName: String, isOwner: Bool, underLock: Bool) {
    state.withLock { state in
      if isOwner { state.ownerLoads += 1 }
      if underLock { state.underLock.append(typeName) }
    }
  }
}
