import Foundation
import PresentationModel
import Testing

/// The three centers the reliability suites run against, each through its public API only: the
/// suites take a `CenterKind` argument, so one suite covers all three.
enum CenterKind: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
  case typed
  case mainActor
  /// A ``FoundationNotificationBridge`` over a real Foundation `NotificationCenter` of its own.
  case bridge

  var testDescription: String {
    switch self {
    case .typed: "TypedNotificationCenter"
    case .mainActor: "MainActorNotificationCenter"
    case .bridge: "FoundationNotificationBridge"
    }
  }

  /// Whether observers are called in registration order. The bridge calls them in the Foundation
  /// center's order, which on Linux is hash order.
  var keepsRegistrationOrder: Bool { self != .bridge }

  /// A fresh center of this kind, driven on the main actor.
  @MainActor func makeDriver() -> any CenterDriver {
    switch self {
    case .typed: TypedCenterDriver()
    case .mainActor: MainActorCenterDriver()
    case .bridge: BridgeDriver()
    }
  }
}

/// How an observer is registered: each of a center's forms, named once for all three.
enum ObserveForm: String, Sendable, Hashable, CaseIterable {
  case token
  case owner
  case onceToken
  case onceOwner
  /// `observeOnMainActor` without an owner (the typed center and the bridge).
  case mainActorToken
  /// `observeOnMainActor` with an owner (the typed center and the bridge).
  case mainActorOwner

  var hasOwner: Bool { self == .owner || self == .onceOwner || self == .mainActorOwner }
  var isOneShot: Bool { self == .onceToken || self == .onceOwner }
}

/// The notifications the suites post: each conforms to all three centers' protocols, so the same
/// program runs on each.
protocol ModelNote: TypedNotification, MainActorNotification, FoundationNotification {
  var value: Int { get }
  init(value: Int)
}

extension ModelNote {
  init?(_ notification: Notification) {
    guard let value = notification.userInfo?["value"] as? Int else { return nil }
    self.init(value: value)
  }

  var userInfo: [AnyHashable: Any] { ["value": value] }
}

struct ModelPing: ModelNote {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.ModelPing") }
  let value: Int
}

struct ModelPong: ModelNote {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.ModelPong") }
  let value: Int
}

/// An owner for owner-bound observers; `whenDeinitialising` runs in its `deinit`, with it, on the
/// main actor (where an owner that has it must deinitialise).
final class ModelOwner: Sendable {
  private let whenDeinitialising: (@MainActor @Sendable (ModelOwner) -> Void)?

  init(whenDeinitialising: (@MainActor @Sendable (ModelOwner) -> Void)? = nil) {
    self.whenDeinitialising = whenDeinitialising
  }

  deinit {
    guard let whenDeinitialising else { return }
    MainActor.assumeIsolated { whenDeinitialising(self) }
  }
}

/// A sender for sender-filtered observers (`from:`; the bridge posts it as the notification's `object`).
final class ModelSender: Sendable {}

/// One center, driven on the main actor through its public API.
@MainActor protocol CenterDriver: AnyObject {
  /// The forms this center offers.
  var forms: [ObserveForm] { get }
  /// The center itself (the bridge, for the bridge), to check that it deallocates.
  var center: AnyObject { get }
  /// Registers `handler` in `form`; `owner` is required by the owner-bound forms and ignored by the others.
  @discardableResult func observe<N: ModelNote>(
    _ type: N.Type, form: ObserveForm, owner: ModelOwner?, sender: ModelSender?,
    _ handler: @escaping @MainActor @Sendable (N) -> Void
  ) -> ObserverToken
  func post<N: ModelNote>(_ note: N, sender: ModelSender?)
  func observerCount<N: ModelNote>(for type: N.Type) -> Int
  var registrationCount: Int { get }
}

/// A center that may be posted to from any thread (all but the main-actor center).
protocol AnyThreadPosting: Sendable {
  nonisolated func postFromAnyThread<N: ModelNote>(_ note: N)
}

/// `handler` as a handler of a center that calls it on the posting thread.
///
/// `MainActor.assumeIsolated`: every post of these suites is made on the main actor, and the typed
/// center and a Foundation center call their (not main-actor) observers on the posting thread.
func calledOnThePostingThread<N: ModelNote>(_ handler: @escaping @MainActor @Sendable (N) -> Void)
  -> @Sendable (N) -> Void
{
  { note in MainActor.assumeIsolated { handler(note) } }
}

@MainActor final class TypedCenterDriver: CenterDriver, AnyThreadPosting {
  let typed = TypedNotificationCenter()
  var center: AnyObject { typed }
  let forms: [ObserveForm] = ObserveForm.allCases

  @discardableResult func observe<N: ModelNote>(
    _ type: N.Type, form: ObserveForm, owner: ModelOwner?, sender: ModelSender?,
    _ handler: @escaping @MainActor @Sendable (N) -> Void
  ) -> ObserverToken {
    let call = calledOnThePostingThread(handler)
    switch form {
    case .token: return typed.observe(N.self, from: sender, call)
    case .onceToken: return typed.observeOnce(N.self, from: sender, call)
    case .mainActorToken: return typed.observeOnMainActor(N.self, from: sender, handler)
    case .owner: return typed.observe(N.self, owner: owner!, from: sender) { _, note in call(note) }
    case .onceOwner: return typed.observeOnce(N.self, owner: owner!, from: sender) { _, note in call(note) }
    case .mainActorOwner: return typed.observeOnMainActor(N.self, owner: owner!, from: sender) { _, n in handler(n) }
    }
  }

  func post<N: ModelNote>(_ note: N, sender: ModelSender?) {
    if let sender { typed.post(note, from: sender) } else { typed.post(note) }
  }

  nonisolated func postFromAnyThread<N: ModelNote>(_ note: N) { typed.post(note) }

  func observerCount<N: ModelNote>(for type: N.Type) -> Int { typed.observerCount(for: N.self) }
  var registrationCount: Int { typed.registrations.count }
}

@MainActor final class MainActorCenterDriver: CenterDriver {
  let mainActor = MainActorNotificationCenter()
  var center: AnyObject { mainActor }
  let forms: [ObserveForm] = [.token, .owner, .onceToken, .onceOwner]

  @discardableResult func observe<N: ModelNote>(
    _ type: N.Type, form: ObserveForm, owner: ModelOwner?, sender: ModelSender?,
    _ handler: @escaping @MainActor @Sendable (N) -> Void
  ) -> ObserverToken {
    switch form {
    case .token, .mainActorToken: return mainActor.observe(N.self, from: sender, handler)
    case .onceToken: return mainActor.observeOnce(N.self, from: sender, handler)
    case .owner, .mainActorOwner: return mainActor.observe(N.self, owner: owner!, from: sender) { _, n in handler(n) }
    case .onceOwner: return mainActor.observeOnce(N.self, owner: owner!, from: sender) { _, n in handler(n) }
    }
  }

  func post<N: ModelNote>(_ note: N, sender: ModelSender?) {
    if let sender { mainActor.post(note, from: sender) } else { mainActor.post(note) }
  }

  func observerCount<N: ModelNote>(for type: N.Type) -> Int { mainActor.observerCount(for: N.self) }
  var registrationCount: Int { mainActor.registrations.count }
}

@MainActor final class BridgeDriver: CenterDriver, AnyThreadPosting {
  let notificationCenter = NotificationCenter()
  let bridge: FoundationNotificationBridge
  var center: AnyObject { bridge }
  let forms: [ObserveForm] = ObserveForm.allCases

  init() {
    bridge = FoundationNotificationBridge(notificationCenter)
  }

  @discardableResult func observe<N: ModelNote>(
    _ type: N.Type, form: ObserveForm, owner: ModelOwner?, sender: ModelSender?,
    _ handler: @escaping @MainActor @Sendable (N) -> Void
  ) -> ObserverToken {
    let call = calledOnThePostingThread(handler)
    switch form {
    case .token: return bridge.observe(N.self, from: sender, call)
    case .onceToken: return bridge.observeOnce(N.self, from: sender, call)
    case .owner: return bridge.observe(N.self, owner: owner!, from: sender) { _, note in call(note) }
    case .onceOwner: return bridge.observeOnce(N.self, owner: owner!, from: sender) { _, note in call(note) }
    case .mainActorToken: return bridge.observeOnMainActor(N.self, from: sender, handler)
    case .mainActorOwner:
      return bridge.observeOnMainActor(N.self, owner: owner!, from: sender) { _, note in handler(note) }
    }
  }

  func post<N: ModelNote>(_ note: N, sender: ModelSender?) {
    notificationCenter.post(name: N.name, object: sender, userInfo: note.userInfo)
  }

  nonisolated func postFromAnyThread<N: ModelNote>(_ note: N) {
    notificationCenter.post(name: N.name, object: nil, userInfo: note.userInfo)
  }

  func observerCount<N: ModelNote>(for type: N.Type) -> Int { bridge.observerCount(for: N.self) }
  var registrationCount: Int { bridge.registrations.count }
}
