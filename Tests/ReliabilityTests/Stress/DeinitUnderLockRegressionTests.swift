import PresentationModel
import PresentationTestSupport
import Testing

/// The exact interleaving of the deadlock, forced: the test's last outside reference to an owner is
/// dropped at the moment the center has loaded that owner (through ``OwnerLoadProbe``), so the
/// owner's `deinit` runs wherever the center releases its load. That `deinit` cancels its own token
/// and posts, both of which take the center's lock: had the load been made under the lock, the
/// test would deadlock.
///
/// Each runs in a child process (an exit test), where the watchdog ends a deadlock, and the test
/// fails by name, saying it deadlocked. In the test process itself the watchdog ended
/// the whole run (an owner loaded while the typed center rebuilt its storage under the lock was
/// reported only as "register path regression did not finish within 30.0 seconds"), with no test
/// recorded as failed (issue 29).
@Suite(.enabled(if: OwnerLoadProbe.isCompiledIn, "the probe exists in debug builds only"))
struct DeinitUnderLockRegressionTests {
  /// Register path: the registration that brings a channel to its sweep threshold makes the center
  /// look for dead owners, loading every owner of the channel; and a registration that grows the
  /// storage rebuilds it under the lock, where it must not load them.
  @Test(.timeLimit(.minutes(1)))
  func ownerReleasedWhileTheRegisterPathLoadsIt() async {
    await #expect(processExitsWith: .success, Self.deadlocked("register")) {
      try Self.releaseAnOwnerWhileTheRegisterPathLoadsIt()
    }
  }

  /// Post path: a handler cancels another observer mid-post, so the post ends by applying a
  /// deferred tombstone, rebuilding the storage under the lock. The owner's first load (to deliver
  /// to it) is let go; the next load releases the test's last reference. That load must not be the
  /// rebuild's: the center may load owners only outside its lock, here when it is next asked for
  /// its count.
  @Test(.timeLimit(.minutes(1)))
  func ownerReleasedWhileThePostPathLoadsIt() async {
    await #expect(processExitsWith: .success, Self.deadlocked("post")) {
      try Self.releaseAnOwnerWhileThePostPathLoadsIt()
    }
  }

  /// What a child that did not exit normally means.
  private static func deadlocked(_ path: String) -> Comment {
    let watchdog = "\"\(path) path regression did not finish\""
    return "the \(path) path deadlocked: the child's watchdog ended it after 20 s (\(watchdog)), or it crashed"
  }

  private static func releaseAnOwnerWhileTheRegisterPathLoadsIt() throws {
    let center = TypedNotificationCenter()
    let target = HeldOwner(CallingBackTarget(center: center))
    let targetID = try #require(target.id)
    var keepers: [Keeper] = []

    try failingOnDeadlock("register path regression", limit: .seconds(20)) {
      try #require(center.observerCount(for: Target.self) == 0)
      try target.withOwner { owner in
        center.observe(Target.self, owner: owner) { owner, _ in owner.touch() }
      }
      OwnerLoadProbe.$onLoad.withValue(target.releaseOnLoad(of: targetID)) {
        // Enough owner-bound registrations to reach the sweep threshold (32 live entries).
        for _ in 0..<40 {
          let keeper = Keeper()
          keepers.append(keeper)
          center.observe(Target.self, owner: keeper) { _, _ in }
        }
      }
    }

    #expect(target.wasReleasedOnLoad, "the probe saw the center load the owner")
    #expect(target.deinitRan, "the owner's deinit ran, calling back into the center")
    #expect(center.observerCount(for: Target.self) == keepers.count)
    #expect(center.observerCount(for: TargetsOwn.self) == 0, "the owner's own token ended with it")
  }

  private static func releaseAnOwnerWhileThePostPathLoadsIt() throws {
    let center = TypedNotificationCenter()
    let target = HeldOwner(CallingBackTarget(center: center))
    let targetID = try #require(target.id)
    let victim = center.observe(Target.self) { _ in }
    let canceller = center.observe(Target.self) { _ in victim.cancel() }
    try target.withOwner { owner in
      center.observe(Target.self, owner: owner) { owner, _ in owner.touch() }
    }

    failingOnDeadlock("post path regression", limit: .seconds(20)) {
      OwnerLoadProbe.$onLoad.withValue(target.releaseOnLoad(of: targetID, afterSkipping: 1)) {
        center.post(Target())
        #expect(target.loadsSeen == 1, "the post loaded the owner once, to deliver to it")
        #expect(center.observerCount(for: Target.self) == 2)
      }
    }

    #expect(target.wasReleasedOnLoad, "the probe saw the center load the owner")
    #expect(target.deinitRan, "the owner's deinit ran, calling back into the center")
    #expect(!victim.isActive)
    #expect(center.observerCount(for: Target.self) == 1, "only the canceller is left")
    #expect(target.loadsSeen == 2)
    #expect(center.observerCount(for: TargetsOwn.self) == 0, "the owner's own token ended with it")
    withExtendedLifetime(canceller) {}
  }
}

private struct Target: TypedNotification {}
private struct TargetsOwn: TypedNotification {}
private struct PostedByDeinit: TypedNotification {}

private final class Keeper: Sendable {}

/// An owner whose deinit cancels its own token, posts and observes: each takes the center's lock.
private final class CallingBackTarget: Sendable {
  let center: TypedNotificationCenter
  let token: ObserverToken
  let deinitRan: LockedState<Bool>

  init(center: TypedNotificationCenter) {
    self.center = center
    self.token = center.observe(TargetsOwn.self) { _ in }
    self.deinitRan = LockedState(false)
  }

  func touch() {}

  deinit {
    token.cancel()
    center.post(PostedByDeinit())
    center.observe(PostedByDeinit.self) { _ in }.cancel()
    deinitRan.withLock { $0 = true }
  }
}

/// The test's only strong reference to the target, dropped by the probe.
private final class HeldOwner: Sendable {
  private let owner: LockedState<CallingBackTarget?>
  private let releasedOnLoad = LockedState(false)
  private let loads = LockedState(0)
  private let deinitFlag: LockedState<Bool>

  init(_ owner: CallingBackTarget) {
    self.deinitFlag = owner.deinitRan
    self.owner = LockedState(owner)
  }

  var id: ObjectIdentifier? { owner.withLock { $0.map(ObjectIdentifier.init) } }
  var wasReleasedOnLoad: Bool { releasedOnLoad.withLock { $0 } }
  var loadsSeen: Int { loads.withLock { $0 } }
  var deinitRan: Bool { deinitFlag.withLock { $0 } }

  func withOwner(_ body: (CallingBackTarget) throws -> Void) throws {
    let owner = try #require(owner.withLock { $0 })
    try body(owner)
  }

  /// A probe that drops the held reference when the center loads the object `id`, after letting
  /// `skipped` loads of it go. The reference is taken out under this box's lock and released after
  /// it, so the box obeys the rule it tests.
  func releaseOnLoad(of id: ObjectIdentifier, afterSkipping skipped: Int = 0) -> @Sendable (AnyObject) -> Void {
    { [self] loaded in
      guard ObjectIdentifier(loaded) == id else { return }
      let seen = loads.withLock { loads in
        loads += 1
        return loads
      }
      guard seen > skipped else { return }
      let taken = owner.withLock { owner in
        defer { owner = nil }
        return owner
      }
      if taken != nil { releasedOnLoad.withLock { $0 = true } }
    }
  }
}
