import Dispatch
import Foundation
import PresentationModel
import PresentationTestSupport
import Synchronization

/// What one callback-deinit stress run shares: counts, the handlers' captures, and the tokens that
/// `deinit`s registered (each must receive the final post: a registration made from a `deinit`
/// that runs inside the center must not be lost).
final class CallbackWorld: Sendable {
  let made = Atomic<Int>(0)
  let deinits = Atomic<Int>(0)
  let probes = CaptureProbes()
  let registeredFromDeinit = LockedLog<ObserverToken>()
  let deliveredToDeinitRegistrations = Atomic<Int>(0)

  var madeCount: Int { made.load(ordering: .sequentiallyConsistent) }
  var deinitCount: Int { deinits.load(ordering: .sequentiallyConsistent) }
  var deliveredToDeinitRegistrationsCount: Int {
    deliveredToDeinitRegistrations.load(ordering: .sequentiallyConsistent)
  }
}

/// One center, as the callback-deinit stress drives it from any thread: through the center itself
/// where it may be called from anywhere, through the main queue where it must be called on the
/// main actor. Cancels and releases always happen on the calling thread.
protocol CallbackStressCenter: AnyObject, Sendable {
  /// The center (the bridge, for the bridge), to check that it deallocates.
  var center: AnyObject { get }
  /// Registers two token-bound observers of ``CallbackChurn``, cancels one and releases both.
  func registerAndCancel(round: Int)
  /// Posts ``CallbackChurn`` to a victim and to a canceller that cancels the victim mid-delivery.
  func postCancellingMidDelivery(round: Int)
  /// Makes an owner and a sender whose `deinit` calls back (cancelling a token-bound observer made
  /// with it), each with owner-bound observers; all their handlers capture one probe of `world`.
  func makeOwnerAndSender(world: CallbackWorld) -> (owner: CallingBackObject, sender: CallingBackObject)
  /// A `deinit`'s call back: posts, observes and cancels, and registers an observer of
  /// ``DeinitRegistered`` kept in `world`.
  func callBack(world: CallbackWorld)
  /// Registers the observer of ``CallbackChurn`` that stays for the whole run.
  func observeStanding() async -> ObserverToken
  /// Posts ``CallbackChurn`` and ``DeinitRegistered`` once each, after everything queued.
  func postFinally() async
  /// `observerCount(for: CallbackChurn.self)` and `registrations.count`.
  func counts() async -> (churn: Int, registrations: Int)
}

struct CallbackChurn: ModelNote {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.CallbackChurn") }
  let value: Int
}

struct PostedFromDeinit: ModelNote {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.PostedFromDeinit") }
  let value: Int
}

struct DeinitRegistered: ModelNote {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.DeinitRegistered") }
  let value: Int
}

/// An owner or sender whose `deinit` cancels its own token and calls back into its center.
final class CallingBackObject: Sendable {
  let center: any CallbackStressCenter
  let world: CallbackWorld
  let token: ObserverToken

  init(center: any CallbackStressCenter, world: CallbackWorld, token: ObserverToken) {
    self.center = center
    self.world = world
    self.token = token
    world.made.add(1, ordering: .sequentiallyConsistent)
  }

  func touch() {}

  deinit {
    token.cancel()
    center.callBack(world: world)
    world.deinits.add(1, ordering: .sequentiallyConsistent)
  }
}

/// Whether this code runs on the main queue (and so on the main actor), by a queue-specific key
/// rather than `Thread.isMainThread`: on Linux another thread may drain the main queue.
enum MainQueueCheck {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

  /// Runs `body` on the main actor: at once when on the main queue, otherwise enqueued.
  static func run(_ body: @escaping @MainActor @Sendable () -> Void) {
    if isCurrent {
      // assumeIsolated: the main queue is the main actor's executor.
      MainActor.assumeIsolated { body() }
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    }
  }

  /// Runs `body` on the main actor and waits for it (the caller is never on the main queue).
  static func sync<Result: Sendable>(_ body: @MainActor () -> Result) -> Result {
    precondition(!isCurrent, "MainQueueCheck.sync called on the main queue")
    return DispatchQueue.main.sync { MainActor.assumeIsolated { body() } }
  }
}

/// Lets everything already enqueued on the main queue run, and what that enqueues, `rounds` deep.
func drainMainQueue(rounds: Int = 20) async {
  for _ in 0..<rounds {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { continuation.resume() }
    }
  }
}

extension CenterKind {
  func makeCallbackStressCenter() -> any CallbackStressCenter {
    switch self {
    case .typed: TypedCallbackStress()
    case .mainActor: MainActorCallbackStress()
    case .bridge: BridgeCallbackStress()
    }
  }
}

final class TypedCallbackStress: CallbackStressCenter {
  let typed = TypedNotificationCenter()
  var center: AnyObject { typed }

  func registerAndCancel(round: Int) {
    let first = typed.observe(CallbackChurn.self) { _ in }
    let second = typed.observe(CallbackChurn.self) { _ in }
    if round.isMultiple(of: 2) { first.cancel() } else { second.cancel() }
    withExtendedLifetime((first, second)) {}
  }

  func postCancellingMidDelivery(round: Int) {
    let victim = typed.observe(CallbackChurn.self) { _ in }
    let canceller = typed.observe(CallbackChurn.self) { _ in victim.cancel() }
    typed.post(CallbackChurn(value: round))
    withExtendedLifetime(canceller) {}
  }

  func makeOwnerAndSender(world: CallbackWorld) -> (owner: CallingBackObject, sender: CallingBackObject) {
    let probe = world.probes.make()
    let owner = CallingBackObject(
      center: self, world: world, token: typed.observe(CallbackChurn.self) { _ in probe.touch() })
    let sender = CallingBackObject(
      center: self, world: world, token: typed.observe(CallbackChurn.self) { _ in probe.touch() })
    typed.observe(CallbackChurn.self, owner: owner) { owner, _ in
      owner.touch()
      probe.touch()
    }
    typed.observe(CallbackChurn.self, owner: owner, from: sender) { owner, _ in probe.touch() }
    typed.observeOnce(CallbackChurn.self, owner: sender) { sender, _ in probe.touch() }
    return (owner, sender)
  }

  func callBack(world: CallbackWorld) {
    typed.post(PostedFromDeinit(value: 0))
    typed.observe(PostedFromDeinit.self) { _ in }.cancel()
    world.registeredFromDeinit.record(
      typed.observe(DeinitRegistered.self) { _ in
        world.deliveredToDeinitRegistrations.add(1, ordering: .sequentiallyConsistent)
      })
  }

  func observeStanding() async -> ObserverToken { typed.observe(CallbackChurn.self) { _ in } }

  func postFinally() async {
    typed.post(CallbackChurn(value: -1))
    typed.post(DeinitRegistered(value: -1))
  }

  func counts() async -> (churn: Int, registrations: Int) {
    (typed.observerCount(for: CallbackChurn.self), typed.registrations.count)
  }
}

/// Posts and registrations on the main actor (through the main queue); cancels, token releases
/// and owner releases on the calling thread.
final class MainActorCallbackStress: CallbackStressCenter {
  /// Made on the main actor, and used only there (every use below is inside `MainQueueCheck` or
  /// `MainActor.run`).
  let mainActor: MainActorNotificationCenter
  var center: AnyObject { mainActor }

  init() {
    mainActor = MainQueueCheck.sync { MainActorNotificationCenter() }
  }

  func registerAndCancel(round: Int) {
    let (first, second) = MainQueueCheck.sync {
      (mainActor.observe(CallbackChurn.self) { _ in }, mainActor.observe(CallbackChurn.self) { _ in })
    }
    if round.isMultiple(of: 2) { first.cancel() } else { second.cancel() }
    withExtendedLifetime((first, second)) {}
  }

  func postCancellingMidDelivery(round: Int) {
    let tokens = MainQueueCheck.sync {
      let victim = mainActor.observe(CallbackChurn.self) { _ in }
      let canceller = mainActor.observe(CallbackChurn.self) { _ in victim.cancel() }
      mainActor.post(CallbackChurn(value: round))
      return (victim, canceller)
    }
    withExtendedLifetime(tokens) {}  // released here, off the main actor
  }

  func makeOwnerAndSender(world: CallbackWorld) -> (owner: CallingBackObject, sender: CallingBackObject) {
    MainQueueCheck.sync {
      let probe = world.probes.make()
      let owner = CallingBackObject(
        center: self, world: world, token: mainActor.observe(CallbackChurn.self) { _ in probe.touch() })
      let sender = CallingBackObject(
        center: self, world: world, token: mainActor.observe(CallbackChurn.self) { _ in probe.touch() })
      mainActor.observe(CallbackChurn.self, owner: owner) { owner, _ in
        owner.touch()
        probe.touch()
      }
      mainActor.observe(CallbackChurn.self, owner: owner, from: sender) { _, _ in probe.touch() }
      mainActor.observeOnce(CallbackChurn.self, owner: sender) { _, _ in probe.touch() }
      return (owner, sender)
    }
  }

  func callBack(world: CallbackWorld) {
    MainQueueCheck.run { [mainActor] in
      mainActor.post(PostedFromDeinit(value: 0))
      mainActor.observe(PostedFromDeinit.self) { _ in }.cancel()
      world.registeredFromDeinit.record(
        mainActor.observe(DeinitRegistered.self) { _ in
          world.deliveredToDeinitRegistrations.add(1, ordering: .sequentiallyConsistent)
        })
    }
  }

  func observeStanding() async -> ObserverToken {
    await MainActor.run { mainActor.observe(CallbackChurn.self) { _ in } }
  }

  func postFinally() async {
    await drainMainQueue()
    await MainActor.run {
      mainActor.post(CallbackChurn(value: -1))
      mainActor.post(DeinitRegistered(value: -1))
    }
  }

  func counts() async -> (churn: Int, registrations: Int) {
    await drainMainQueue()
    return await MainActor.run { (mainActor.observerCount(for: CallbackChurn.self), mainActor.registrations.count) }
  }
}

/// The bridge over a Foundation center of its own, called from any thread.
final class BridgeCallbackStress: CallbackStressCenter {
  let notificationCenter = NotificationCenter()
  let bridge: FoundationNotificationBridge
  var center: AnyObject { bridge }

  init() {
    bridge = FoundationNotificationBridge(notificationCenter)
  }

  private func post<N: ModelNote>(_ note: N) {
    notificationCenter.post(name: N.name, object: nil, userInfo: note.userInfo)
  }

  func registerAndCancel(round: Int) {
    let first = bridge.observe(CallbackChurn.self) { _ in }
    let second = bridge.observe(CallbackChurn.self) { _ in }
    if round.isMultiple(of: 2) { first.cancel() } else { second.cancel() }
    withExtendedLifetime((first, second)) {}
  }

  func postCancellingMidDelivery(round: Int) {
    // Foundation calls a name's observers in its own order: each cancels the other.
    let first = LockedBox<ObserverToken?>(nil)
    let second = LockedBox<ObserverToken?>(nil)
    first.withLock { $0 = bridge.observe(CallbackChurn.self) { _ in second.value?.cancel() } }
    second.withLock { $0 = bridge.observe(CallbackChurn.self) { _ in first.value?.cancel() } }
    post(CallbackChurn(value: round))
    first.withLock { $0 = nil }
    second.withLock { $0 = nil }
  }

  func makeOwnerAndSender(world: CallbackWorld) -> (owner: CallingBackObject, sender: CallingBackObject) {
    let probe = world.probes.make()
    let owner = CallingBackObject(
      center: self, world: world, token: bridge.observe(CallbackChurn.self) { _ in probe.touch() })
    let sender = CallingBackObject(
      center: self, world: world, token: bridge.observe(CallbackChurn.self) { _ in probe.touch() })
    bridge.observe(CallbackChurn.self, owner: owner) { owner, _ in
      owner.touch()
      probe.touch()
    }
    // No probe here: once its sender is gone, Foundation (which filters by object) gives this
    // registration no post, and the bridge's queries only read, so it is ended by a later
    // registration sweep, whose bound AllCentersFaultTests checks, not by the final post.
    bridge.observe(CallbackChurn.self, owner: owner, from: sender) { owner, _ in owner.touch() }
    bridge.observe(CallbackChurn.self, owner: sender) { _, _ in probe.touch() }
    return (owner, sender)
  }

  func callBack(world: CallbackWorld) {
    post(PostedFromDeinit(value: 0))
    bridge.observe(PostedFromDeinit.self) { _ in }.cancel()
    world.registeredFromDeinit.record(
      bridge.observe(DeinitRegistered.self) { _ in
        world.deliveredToDeinitRegistrations.add(1, ordering: .sequentiallyConsistent)
      })
  }

  func observeStanding() async -> ObserverToken { bridge.observe(CallbackChurn.self) { _ in } }

  func postFinally() async {
    post(CallbackChurn(value: -1))
    post(DeinitRegistered(value: -1))
  }

  func counts() async -> (churn: Int, registrations: Int) {
    (bridge.observerCount(for: CallbackChurn.self), bridge.registrations.count)
  }
}
