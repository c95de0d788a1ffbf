internal import Dispatch
public import Synchronization  // public: the inlinable post path uses Atomic

/// The part of a registration that tokens and introspection see: its state and where it came
/// from. It never holds the handler, so a token that outlives its observation keeps nothing of
/// the handler's captures alive.
///
/// A registration is *live* while `state` is `active` and, when it has them, its owner and its
/// sender filter are alive. It ends exactly once: the first caller of `markEnded()` wins.
//
// @unchecked Sendable: every stored property is immutable after init (`let`), a `weak let` (the
// runtime makes weak loads thread-safe), the `Atomic` state, or `storedSlot`, which is only read
// and written while the owning center's lock is held. `fileIDStart` points into a string literal,
// which is immutable and lives as long as the process.
//
// Layout: one registration is made per observation, so its fields are ordered and sized to fit a
// 72-byte object (an 80-byte malloc chunk): the one-byte fields and the line share a word, the file
// name is a pointer and a 32-bit count instead of a 17-byte `StaticString`, and the slot is 32-bit.
@usableFromInline
class RegistrationCore: @unchecked Sendable {
  /// `0` while active, `1` once ended.
  @usableFromInline let state = Atomic<UInt8>(0)
  /// Packed flags; see `Flag`.
  @usableFromInline let flags: UInt8
  private let storedLine: UInt32
  weak let center: TypedNotificationCenter?
  @usableFromInline weak let owner: AnyObject?
  weak let sender: AnyObject?
  let ownerType: (any AnyObject.Type)?
  /// The UTF-8 of the `#fileID` literal, or `nil` when the literal was a single scalar, which is
  /// then stored in `fileIDCount`.
  private let fileIDStart: UnsafePointer<UInt8>?
  private let fileIDCount: UInt32
  // @exclusivity(unchecked): read and written only under the center's lock (see above), which
  // already makes every access exclusive.
  @exclusivity(unchecked) private var storedSlot: Int32 = -1

  /// Index of this registration's entry in its channel's storage. Guarded by the center's lock.
  var slot: Int {
    get { Int(storedSlot) }
    set { storedSlot = Int32(newValue) }
  }

  /// The `#fileID` of the `observe` call.
  var fileID: String {
    guard let fileIDStart else { return Unicode.Scalar(fileIDCount).map { String($0) } ?? "?" }
    return String(decoding: UnsafeBufferPointer(start: fileIDStart, count: Int(fileIDCount)), as: UTF8.self)
  }

  /// The line of the `observe` call (lines past `UInt32.max` read as `UInt32.max`).
  var line: Int { Int(storedLine) }

  // Computed and inlinable rather than `static let`, so the inlined post path folds them to
  // constants instead of calling a lazy global's accessor.
  @usableFromInline
  enum Flag {
    @inlinable static var hasOwner: UInt8 { 1 << 0 }
    @inlinable static var hasSender: UInt8 { 1 << 1 }
    @inlinable static var mainActor: UInt8 { 1 << 2 }
    @inlinable static var oneShot: UInt8 { 1 << 3 }
    @inlinable static var stream: UInt8 { 1 << 4 }
    /// Owner-less, non-stream registrations end when their token is released.
    @inlinable static var endsWithToken: UInt8 { 1 << 5 }
    /// Delivered in a task (Foundation's `AsyncMessage`, through the bridge).
    @inlinable static var task: UInt8 { 1 << 6 }
  }

  /// `center` is `nil` for registrations that belong to another kind of center (the main-actor
  /// center, the Foundation bridge); they detach themselves in `didEnd()`.
  init(
    center: TypedNotificationCenter?, owner: AnyObject?, sender: AnyObject?, flags: UInt8,
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
    self.storedLine = UInt32(clamping: line)
    if fileID.hasPointerRepresentation {
      self.fileIDStart = fileID.utf8Start
      self.fileIDCount = UInt32(clamping: fileID.utf8CodeUnitCount)
    } else {
      self.fileIDStart = nil
      self.fileIDCount = fileID.unicodeScalar.value
    }
  }

  @inline(__always) final func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

  /// Whether the registration has not ended and its owner and sender filter are alive.
  ///
  /// A `true` answer is a snapshot: another thread may end the registration right after.
  ///
  /// Never call it while the center's lock is held: it loads the owner and the sender strongly, and
  /// releasing such a load may run their `deinit` (see ``OwnerLoadProbe``).
  final var isLive: Bool {
    guard state.load(ordering: .acquiring) == 0 else { return false }
    if has(Flag.hasOwner) {
      guard let owner else { return false }
      #if DEBUG
        OwnerLoadProbe.loaded(owner)
      #endif
    }
    if has(Flag.hasSender) {
      guard let sender else { return false }
      #if DEBUG
        OwnerLoadProbe.loaded(sender)
      #endif
    }
    return true
  }

  @inline(__always) final var hasEnded: Bool { state.load(ordering: .acquiring) != 0 }

  /// Ends the registration and lets the center release its handler; later calls do nothing.
  ///
  /// Must not be called while the center's lock is held.
  @usableFromInline
  @discardableResult
  final func end() -> Bool {
    guard markEnded() else { return false }
    finishEnding()
    return true
  }

  /// What ending does once `markEnded()` has been won: the center releases the handler, then
  /// `didEnd()`. `end()` runs it at once; a one-shot runs it after its call (it marks itself ended
  /// before calling, so that no other post calls it too).
  final func finishEnding() {
    if let center { detach(from: center) }
    didEnd()
  }

  /// Sets the ended state only; the first caller wins.
  @inline(__always)
  final func markEnded() -> Bool {
    state.exchange(1, ordering: .acquiringAndReleasing) == 0
  }

  /// Removes the entry from `center` (typed, so overridden by `Registration<N>`).
  func detach(from center: TypedNotificationCenter) {}

  /// Called once after the registration ended (stream registrations finish their stream).
  func didEnd() {}

  /// The notification type, for introspection.
  var notificationType: any Any.Type { fatalError("abstract") }

  final var info: RegistrationInfo {
    let delivery: RegistrationInfo.Delivery =
      has(Flag.stream) ? .asyncSequence : has(Flag.mainActor) ? .mainActor : has(Flag.task) ? .task : .postingThread
    return RegistrationInfo(
      notificationType: notificationType, ownerType: ownerType, fileID: fileID, line: line,
      delivery: delivery, isOneShot: has(Flag.oneShot), filtersBySender: has(Flag.hasSender))
  }
}

/// A registration for notifications of type `N`.
@usableFromInline
class Registration<N: TypedNotification>: RegistrationCore, @unchecked Sendable {
  // @unchecked Sendable: adds no stored state to RegistrationCore.

  override var notificationType: any Any.Type { N.self }

  override func detach(from center: TypedNotificationCenter) {
    center.detach(self)
  }
}

/// A registration feeding an async sequence: ending it finishes the sequence.
final class StreamRegistration<N: TypedNotification>: Registration<N>, @unchecked Sendable {
  // @unchecked Sendable: adds only an immutable `AsyncStream.Continuation`, which is Sendable.
  let continuation: AsyncStream<N>.Continuation

  init(
    center: TypedNotificationCenter, sender: AnyObject?, fileID: StaticString, line: UInt,
    continuation: AsyncStream<N>.Continuation
  ) {
    self.continuation = continuation
    super.init(center: center, owner: nil, sender: sender, flags: Flag.stream, fileID: fileID, line: line)
  }

  override func didEnd() {
    continuation.finish()
  }
}

/// How an entry calls its observer.
@usableFromInline
enum Handler<N: TypedNotification>: Sendable {
  /// Called with the notification.
  case plain(@Sendable (N) -> Void)
  /// Called with the (weakly held, then strongly loaded) owner and the notification.
  case owned(@Sendable (AnyObject, N) -> Void)
  /// Yields into an async sequence. A closure rather than the `AsyncStream.Continuation` itself:
  /// the continuation's layout is resilient, which would make every copy of every entry go through
  /// run-time metadata, even in specialised code.
  case stream(@Sendable (N) -> Void)
}

/// One observer in a channel: the registration (shared with the token) and the handler (owned by
/// the channel alone, dropped as soon as the registration ends and no post is using it).
@usableFromInline
struct Entry<N: TypedNotification>: Sendable {
  @usableFromInline let registration: Registration<N>
  /// `nil` once the registration ended and the handler was released (a tombstone).
  @usableFromInline var handler: Handler<N>?

  /// Delivers `notification` from the sender identified by `senderID` to the entry at `entry`, if
  /// its registration is still live and its filter matches.
  ///
  /// `entry` must lie in a storage that the caller keeps retained for the whole call, as a post
  /// does with its snapshot. Such a storage is never mutated (a change copies it first), so the
  /// entry's registration and handler outlive the call; the registration is therefore read without
  /// retaining it.
  ///
  /// Inlinable, with the center's post path, so that it is specialised for `N` in the module that
  /// posts: unspecialised, every entry would look up generic metadata for `Handler<N>`.
  @inlinable @inline(__always)
  static func deliver(_ notification: N, senderID: ObjectIdentifier?, to entry: UnsafeMutablePointer<Self>) {
    // unowned(unsafe): the retained snapshot holding `entry` keeps the registration alive (see above).
    unowned(unsafe) let registration = entry.pointee.registration
    guard registration.state.load(ordering: .acquiring) == 0 else { return }
    let flags = registration.flags
    if flags == RegistrationCore.Flag.hasOwner {
      // An owner-bound observer on the posting thread, without a sender filter. The owner is
      // loaded before the handler is read, so the handler is not held across the runtime call.
      guard let owner = registration.owner else {
        registration.end()  // The owner deinitialised: this registration is over.
        return
      }
      #if DEBUG
        OwnerLoadProbe.loaded(owner)
      #endif
      if callOwned(entry.pointee.handler, owner, notification) { return }
    }
    // The common case: a token-bound observer on the posting thread.
    if flags == RegistrationCore.Flag.endsWithToken && callPlain(entry.pointee.handler, notification) { return }
    if let handler = entry.pointee.handler {
      deliverSlowPath(notification, senderID: senderID, registration: registration, handler: handler)
    }
  }

  /// Calls a `.plain` handler in place: borrowed from the entry (which the post's snapshot keeps
  /// alive), so the closure's context is not retained and released around every delivery.
  @inlinable @inline(__always)
  static func callPlain(_ handler: borrowing Handler<N>?, _ notification: N) -> Bool {
    switch handler {
    case .plain(let body)?:
      body(notification)
      return true
    default:
      return false
    }
  }

  /// Calls an `.owned` handler in place; see ``callPlain(_:_:)``.
  @inlinable @inline(__always)
  static func callOwned(_ handler: borrowing Handler<N>?, _ owner: AnyObject, _ notification: N) -> Bool {
    switch handler {
    case .owned(let body)?:
      body(owner, notification)
      return true
    default:
      return false
    }
  }

  @usableFromInline
  static func deliverSlowPath(
    _ notification: N, senderID: ObjectIdentifier?, registration: Registration<N>, handler: Handler<N>
  ) {
    if registration.has(RegistrationCore.Flag.hasSender) {
      guard let sender = registration.sender else {
        registration.end()  // The sender filter can never match again.
        return
      }
      #if DEBUG
        OwnerLoadProbe.loaded(sender)
      #endif
      guard let senderID, senderID == ObjectIdentifier(sender) else { return }
    }
    if registration.has(RegistrationCore.Flag.mainActor) && !MainQueue.isCurrent {
      DispatchQueue.main.async { call(notification, registration: registration, handler: handler) }
      return
    }
    call(notification, registration: registration, handler: handler)
  }

  /// Calls the handler, re-checking liveness (a main-actor delivery may run long after the post).
  private static func call(_ notification: N, registration: Registration<N>, handler: Handler<N>) {
    if registration.has(RegistrationCore.Flag.oneShot) {
      guard registration.markEnded() else { return }
      invoke(notification, registration: registration, handler: handler)
      registration.finishEnding()
      return
    }
    guard !registration.hasEnded else { return }
    invoke(notification, registration: registration, handler: handler)
  }

  private static func invoke(_ notification: N, registration: Registration<N>, handler: Handler<N>) {
    switch handler {
    case .plain(let body):
      body(notification)
    case .owned(let body):
      guard let owner = registration.owner else {
        registration.end()  // The owner deinitialised: this registration is over.
        return
      }
      #if DEBUG
        OwnerLoadProbe.loaded(owner)
      #endif
      body(owner, notification)
    case .stream(let yield):
      yield(notification)
    }
  }
}
