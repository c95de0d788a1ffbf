internal import Dispatch
internal import Foundation
internal import Synchronization

/// The part of a registration that the center, tokens and introspection see without knowing the
/// notification type.
///
/// A registration is *live* while its `state` is `active` and, when it has one, its owner and its
/// sender filter are still alive. It ends exactly once: the first of `end()` (cancel, owner or
/// sender found gone, one-shot delivered, stream terminated) wins the exchange on `state`.
//
// @unchecked Sendable: every stored property is either immutable after init (`let`), a `weak let`
// (the runtime makes weak loads thread-safe), or the `Atomic` state. Nothing is mutated without
// the atomic, so sharing a registration between threads cannot race.
class RegistrationCore: @unchecked Sendable {
  /// `0` while active, `1` once ended.
  let state = Atomic<UInt8>(0)
  /// Packed flags; see the `Flag` constants.
  let flags: UInt8
  weak let center: TypedNotificationCenter?
  weak let owner: AnyObject?
  weak let sender: AnyObject?
  let ownerType: (any AnyObject.Type)?
  let fileID: StaticString
  let line: UInt

  enum Flag {
    static let hasOwner: UInt8 = 1 << 0
    static let hasSender: UInt8 = 1 << 1
    static let mainActor: UInt8 = 1 << 2
    static let oneShot: UInt8 = 1 << 3
    static let stream: UInt8 = 1 << 4
    /// Owner-less registrations end when their token is released.
    static let endsWithToken: UInt8 = 1 << 5
  }

  init(
    center: TypedNotificationCenter, owner: AnyObject?, sender: AnyObject?, flags: UInt8,
    fileID: StaticString, line: UInt
  ) {
    self.center = center
    self.owner = owner
    self.ownerType = owner.map { type(of: $0) }
    self.sender = sender
    var flags = flags
    if owner != nil { flags |= Flag.hasOwner }
    if sender != nil { flags |= Flag.hasSender }
    if owner == nil && flags & Flag.stream == 0 { flags |= Flag.endsWithToken }
    self.flags = flags
    self.fileID = fileID
    self.line = line
  }

  @inline(__always) final func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

  /// Whether the registration has not ended and its owner and sender filter are alive.
  ///
  /// A `true` answer is a snapshot: another thread may end the registration right after.
  final var isLive: Bool {
    guard state.load(ordering: .acquiring) == 0 else { return false }
    if has(Flag.hasOwner) && owner == nil { return false }
    if has(Flag.hasSender) && sender == nil { return false }
    return true
  }

  final var hasEnded: Bool { state.load(ordering: .acquiring) != 0 }

  /// Ends the registration; the first call wins and later calls do nothing.
  ///
  /// Must not be called while the center's lock is held.
  @discardableResult
  final func end() -> Bool {
    guard markEnded() else { return false }
    center?.registrationDidEnd(self)
    didEnd()
    return true
  }

  /// Sets the ended state without telling the center; for use under the center's lock.
  @inline(__always)
  final func markEnded() -> Bool {
    state.exchange(1, ordering: .acquiringAndReleasing) == 0
  }

  /// Called once after the registration ended (stream registrations finish their stream).
  func didEnd() {}

  /// The type-erased notification type, for introspection.
  var notificationType: any TypedNotification.Type { fatalError("abstract") }

  final var info: RegistrationInfo {
    let delivery: RegistrationInfo.Delivery =
      has(Flag.stream) ? .asyncSequence : has(Flag.mainActor) ? .mainActor : .postingThread
    return RegistrationInfo(
      notificationType: notificationType, ownerType: ownerType, fileID: "\(fileID)", line: Int(line),
      delivery: delivery, isOneShot: has(Flag.oneShot), filtersBySender: has(Flag.hasSender))
  }
}

/// A registration for notifications of type `N`: the handler and how to call it.
final class Registration<N: TypedNotification>: RegistrationCore, @unchecked Sendable {
  // @unchecked Sendable: adds only an immutable `handler` whose payloads are `@Sendable` closures
  // or an `AsyncStream.Continuation`, all of which are Sendable.

  enum Handler {
    /// Called with the notification.
    case plain(@Sendable (N) -> Void)
    /// Called with the (weakly held, then strongly loaded) owner and the notification.
    case owned(@Sendable (AnyObject, N) -> Void)
    /// Yields into an async sequence.
    case stream(AsyncStream<N>.Continuation)
  }

  let handler: Handler

  init(
    center: TypedNotificationCenter, owner: AnyObject?, sender: AnyObject?, flags: UInt8,
    fileID: StaticString, line: UInt, handler: Handler
  ) {
    self.handler = handler
    super.init(center: center, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
  }

  override var notificationType: any TypedNotification.Type { N.self }

  override func didEnd() {
    if case .stream(let continuation) = handler { continuation.finish() }
  }

  /// Delivers `notification`, posted by the object identified by `senderID`, if this registration
  /// is still live and its sender filter matches.
  @inline(__always)
  func deliver(_ notification: N, senderID: ObjectIdentifier?) {
    guard state.load(ordering: .acquiring) == 0 else { return }
    if flags == Flag.endsWithToken {
      // The common case: a plain token-bound observer on the posting thread.
      if case .plain(let body) = handler { return body(notification) }
    }
    deliverSlowPath(notification, senderID: senderID)
  }

  private func deliverSlowPath(_ notification: N, senderID: ObjectIdentifier?) {
    if has(Flag.hasSender) {
      guard let sender else {
        end()  // The sender filter can never match again.
        return
      }
      guard let senderID, senderID == ObjectIdentifier(sender) else { return }
    }
    if has(Flag.mainActor) && !Thread.isMainThread {
      DispatchQueue.main.async { self.deliverNow(notification) }
      return
    }
    deliverNow(notification)
  }

  /// Calls the handler, re-checking liveness (a main-actor delivery may run long after the post).
  private func deliverNow(_ notification: N) {
    if has(Flag.oneShot) {
      guard markEnded() else { return }
      defer {
        center?.registrationDidEnd(self)
        didEnd()
      }
      call(notification)
    } else {
      guard state.load(ordering: .acquiring) == 0 else { return }
      call(notification)
    }
  }

  @inline(__always)
  private func call(_ notification: N) {
    switch handler {
    case .plain(let body):
      body(notification)
    case .owned(let body):
      guard let owner else {
        end()  // The owner deinitialised: this registration is over.
        return
      }
      body(owner, notification)
    case .stream(let continuation):
      continuation.yield(notification)
    }
  }
}
