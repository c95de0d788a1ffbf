import Foundation
import PresentationModel
import PresentationTestSupport

/// The notification the stress threads post. `post` is the ticket drawn just before `post(_:)` was
/// called, which identifies the post and orders it against every other recorded event.
struct StressPing: StressNote {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.StressPing") }
  let post: Int
  let poster: Int
}

/// Posted from inside some handlers, nested in the delivery of the ping it echoes.
struct StressEcho: StressNote {
  static var name: Notification.Name { Notification.Name("ReliabilityTests.StressEcho") }
  let post: Int
  let poster: Int
}

/// One call of a handler: which post, on which thread (the poster's), and when.
struct StressDelivery: Sendable {
  let post: Int
  let thread: Int
  let ticket: Int
}

/// One call of `post(_:)`, from the ticket drawn before it to the ticket drawn after it returned.
struct StressPost: Sendable {
  let ticket: Int
  let endTicket: Int
  let poster: Int
}

/// One completed `cancel()` (or release of the only reference to a token): who did it, and the
/// tickets drawn just before the call and just after it returned.
struct StressEnd: Sendable {
  let thread: Int
  let startTicket: Int
  let endTicket: Int
}

/// The bookkeeping for one observer, kept by the test independently of the center.
final class StressObserver: Sendable {
  enum Kind: Sendable {
    /// `observe(_:_:)`; ended by `cancel()` or by releasing the token.
    case token
    /// `observe(_:owner:_:)`; ended by `cancel()` or by the owner deinitialising.
    case owner
    /// `observeOnce(_:_:)`.
    case onceToken
    /// `observeOnce(_:owner:_:)`.
    case onceOwner

    var isOneShot: Bool { self == .onceToken || self == .onceOwner }
    var hasOwner: Bool { self == .owner || self == .onceOwner }
  }

  enum Behavior: Sendable {
    /// Records the delivery.
    case record
    /// Records it, then posts a nested `StressEcho`.
    case echo
    /// Records it, then cancels some other observer (possibly one being delivered to right now).
    case cancelOther
  }

  private struct Lifecycle {
    var observeEndTicket: Int?
    var ends: [StressEnd] = []
    var ownerReleaseTicket: Int?
    var ownerDeathTicket: Int?
    var wrongOwnerCalls = 0
  }

  let id: Int
  let kind: Kind
  let behavior: Behavior
  let deliveries = LockedLog<StressDelivery>()
  private let lifecycle = LockedState(Lifecycle())

  init(id: Int, kind: Kind, behavior: Behavior) {
    self.id = id
    self.kind = kind
    self.behavior = behavior
  }

  /// The ticket drawn right after the `observe` call returned.
  var observeEndTicket: Int? { lifecycle.withLock { $0.observeEndTicket } }
  var ends: [StressEnd] { lifecycle.withLock { $0.ends } }
  /// When the creating thread dropped its (only) strong reference to the owner.
  var ownerReleaseTicket: Int? { lifecycle.withLock { $0.ownerReleaseTicket } }
  /// Drawn in the owner's `deinit`, after its weak references were already nil.
  var ownerDeathTicket: Int? { lifecycle.withLock { $0.ownerDeathTicket } }
  var wrongOwnerCalls: Int { lifecycle.withLock { $0.wrongOwnerCalls } }

  func observed(at ticket: Int) { lifecycle.withLock { $0.observeEndTicket = ticket } }
  func ended(_ end: StressEnd) { lifecycle.withLock { $0.ends.append(end) } }
  func ownerReleased(at ticket: Int) { lifecycle.withLock { $0.ownerReleaseTicket = ticket } }
  func ownerDied(at ticket: Int) { lifecycle.withLock { $0.ownerDeathTicket = ticket } }
  func calledWithWrongOwner() { lifecycle.withLock { $0.wrongOwnerCalls += 1 } }
}

/// The owner of an owner-bound stress observer; records the ticket of its own `deinit`.
final class StressOwner: Sendable {
  let id: Int
  private let record: StressObserver
  private let clock: TicketClock

  init(record: StressObserver, clock: TicketClock) {
    self.id = record.id
    self.record = record
    self.clock = clock
  }

  deinit {
    record.ownerDied(at: clock.tick())
  }
}

/// A weak reference, so the test can check at the end that every owner deallocated.
struct WeakStressOwner: Sendable {
  weak var owner: StressOwner?
}

/// An async-sequence consumer started by a stress thread.
struct StressConsumer: Sendable {
  /// How the consumer was stopped: the tickets before and after the stopping call.
  struct Stop: Sendable {
    let byTokenCancel: Bool
    let startTicket: Int
    let endTicket: Int
  }

  let createEndTicket: Int
  let received: LockedLog<StressPing>
  let task: Task<Void, Never>
  let token: ObserverToken
  var stop: Stop?
}

/// What a stress thread holds on to: its observers' tokens and owners.
enum StressSlot: Sendable {
  /// `shared` tokens are also in the world's cancellable list, so releasing the slot does not end
  /// them; unshared ones are referenced by this slot only, so releasing it ends the observation.
  case token(ObserverToken, StressObserver, shared: Bool)
  case owner(StressOwner, ObserverToken, StressObserver)

  var record: StressObserver {
    switch self {
    case .token(_, let record, _), .owner(_, _, let record): record
    }
  }

  var token: ObserverToken {
    switch self {
    case .token(let token, _, _), .owner(_, let token, _): token
    }
  }
}

/// Everything one stress thread did, handed back when it finishes.
struct StressThreadResult: Sendable {
  var posts: [StressPost] = []
  var slots: [StressSlot] = []
  var consumers: [StressConsumer] = []
}
