internal import Dispatch
internal import Synchronization

/// Delivers ``MainActorNotification``s to observers on the main actor, synchronously and in
/// registration order. Nothing it carries needs to be `Sendable`: not the notification, not an
/// owner, not a handler.
///
/// ```swift
/// struct DocumentOpened: MainActorNotification {
///   let title: String
/// }
///
/// final class RecentDocuments {  // not Sendable
///   var items: [String] = []
///
///   @MainActor init(center: MainActorNotificationCenter) {
///     // Held weakly: ends by itself when the list deinitialises. No [weak self].
///     center.observe(DocumentOpened.self, owner: self) { recents, note in
///       recents.items.append(note.title)
///     }
///   }
/// }
///
/// @MainActor func example() {
///   let center = MainActorNotificationCenter()
///   var recents: RecentDocuments? = RecentDocuments(center: center)
///   center.post(DocumentOpened(title: "Notes"))
///   print(recents?.items ?? [])  // ["Notes"]
///   recents = nil
///   print(center.observerCount(for: DocumentOpened.self))  // 0
/// }
/// ```
///
/// > Note: It keeps the guarantees of ``TypedNotificationCenter``, on the main actor: observers
/// > run in registration order before `post` returns; a handler may post, observe and cancel, a
/// > nested post is delivered completely before the outer one continues, an observer added during a
/// > delivery does not receive it, and one cancelled (or whose owner deinitialised) during a
/// > delivery is not called afterwards; owners and senders are never retained; ``ObserverToken``s
/// > and ``ObserverBag``s may be cancelled and released on any thread; posting to existing
/// > observers does not allocate, and ending a registration is amortised O(1).
@MainActor
public final class MainActorNotificationCenter {
  /// The process-wide main-actor center, for apps that want a single one.
  public static let `default` = MainActorNotificationCenter()

  /// One channel per notification type.
  //
  // @exclusivity(unchecked): every access is momentary and none spans user code (what user code
  // may release is dropped only after the access ended), and the main actor serialises them; the
  // dynamic check would cost every post a runtime call.
  //
  // nonisolated(unsafe): only so that `deinit` (nonisolated) can reach it. Every other access is
  // in this class's main-actor-isolated methods; `deinit` runs after the last of them returned and
  // holds the only reference to the center, so no access can overlap it.
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var channels: [ObjectIdentifier: AnyMainActorChannel] =
    [:]

  /// Creates an empty center.
  public init() {}

  deinit {
    // The handlers may capture non-Sendable state: they are released on the main actor. A center
    // released elsewhere hands its channels to the main queue.
    let doomed = Doomed(channels: channels)
    for channel in doomed.channels.values {
      for registration in channel.registrations { _ = registration.beginEnding() }
    }
    if MainQueue.isCurrent {
      // assumeIsolated: MainQueue.isCurrent means this runs on the main actor's executor.
      MainActor.assumeIsolated { doomed.release() }
    } else {
      DispatchQueue.main.async {
        // assumeIsolated: a block on the main queue runs on the main actor's executor.
        MainActor.assumeIsolated { doomed.release() }
      }
    }
  }

  // MARK: Posting

  /// Delivers `notification` to every live observer of its type that does not filter by sender,
  /// synchronously, in registration order, before returning.
  @inlinable
  public func post<N: MainActorNotification>(_ notification: N) {
    deliver(notification, senderID: nil)
  }

  /// Delivers `notification` as sent by `sender`: observers without a sender filter and those
  /// filtering for this very object receive it. The sender is compared by identity and never
  /// retained.
  @inlinable
  public func post<N: MainActorNotification>(_ notification: N, from sender: AnyObject) {
    deliver(notification, senderID: ObjectIdentifier(sender))
  }

  // Inlinable so that it is specialised for `N` where it is called, as the posting-thread center's.
  @inlinable @inline(__always)
  func deliver<N: MainActorNotification>(_ notification: N, senderID: ObjectIdentifier?) {
    guard let erased = channels[ObjectIdentifier(N.self)] else { return }
    let channel = unsafeDowncast(erased, to: MainActorChannel<N>.self)
    #if DEBUG
      RecursionGuard.enter(N.self)
      defer { RecursionGuard.leave() }
    #endif
    channel.readers += 1
    // A copy: observers added or swept during the delivery do not change what this post visits.
    let snapshot = channel.entries
    // A loop, not `withUnsafeBufferPointer`: a closure formed here (main-actor code) and passed as
    // a nonisolated function would check its isolation at run time on every post.
    for index in snapshot.indices {
      Self.deliver(notification, senderID: senderID, to: snapshot[index])
    }
    channel.readers -= 1
    if channel.readers == 0 && channel.needsSweep { channel.sweepAfterReaders() }
  }

  @inlinable @inline(__always)
  static func deliver<N: MainActorNotification>(
    _ notification: N, senderID: ObjectIdentifier?, to entry: borrowing MainActorEntry<N>
  ) {
    // unowned(unsafe): the snapshot the caller iterates keeps the registration alive.
    unowned(unsafe) let registration = entry.registration
    guard !registration.hasEnded else { return }
    let flags = registration.flags
    if flags == [.hasOwner, .mainActor] {
      guard let owner = registration.owner else {
        registration.end()  // The owner deinitialised: this registration is over.
        return
      }
      if case .owned(let body)? = entry.handler { body(owner, notification) }
      return
    }
    if flags == [.endsWithToken, .mainActor],
      case .plain(let body)? = entry.handler
    {
      body(notification)
      return
    }
    if let handler = entry.handler {
      deliverSlowPath(notification, senderID: senderID, registration: registration, handler: handler)
    }
  }

  /// Sender filters and one-shot observers.
  @usableFromInline
  static func deliverSlowPath<N: MainActorNotification>(
    _ notification: N, senderID: ObjectIdentifier?, registration: MainActorRegistration<N>,
    handler: MainActorHandler<N>
  ) {
    if registration.flags.contains(.hasSender) {
      guard let sender = registration.sender else {
        registration.end()  // The sender filter can never match again.
        return
      }
      guard let senderID, senderID == ObjectIdentifier(sender) else { return }
    }
    var owner: AnyObject?
    if registration.flags.contains(.hasOwner) {
      owner = registration.owner
      guard owner != nil else {
        registration.end()
        return
      }
    }
    let isOneShot = registration.flags.contains(.oneShot)
    // A one-shot ends before its call, so a post from inside its handler does not call it again.
    if isOneShot { guard registration.beginEnding() else { return } }
    switch handler {
    case .plain(let body): body(notification)
    case .owned(let body): body(owner.unsafelyUnwrapped, notification)
    }
    if isOneShot { registration.finishEnding() }
  }

  // MARK: Observing

  /// Calls `handler` on the main actor with `owner` and each notification of type `type`, for as
  /// long as `owner` lives.
  ///
  /// The owner is held weakly and handed to the handler strongly for the duration of each call, so
  /// the handler needs no `[weak self]`; the registration ends by itself when the owner
  /// deinitialises. Keep the returned token only to end it earlier; discarding it does not end it.
  ///
  /// - Parameters:
  ///   - type: The notification type to observe.
  ///   - owner: The object whose lifetime bounds the observation; it need not be `Sendable`. Never
  ///     retained by the center. An owner that is already deinitialising yields an ended token.
  ///   - sender: When given, only notifications posted `from:` this very object are delivered; the
  ///     observation ends when the sender deinitialises.
  ///   - fileID: The file of the call, recorded for ``registrations``; leave the default.
  ///   - line: The line of the call, recorded for ``registrations``; leave the default.
  ///   - handler: Runs on the main actor. Capturing `owner` strongly in it would keep the owner
  ///     alive forever; use the `owner` argument instead.
  /// - Returns: A token that can end the observation early.
  @discardableResult
  public func observe<Owner: AnyObject, N: MainActorNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor (Owner, N) -> Void
  ) -> ObserverToken {
    register(
      owner: owner, sender: sender, flags: [], fileID: fileID, line: line,
      handler: .owned { owner, notification in handler(unsafeDowncast(owner, to: Owner.self), notification) })
  }

  /// Calls `handler` on the main actor with each notification of type `type` until the returned
  /// token is cancelled or released.
  ///
  /// - Returns: The token that keeps the observation alive. Releasing it ends the observation, so
  ///   the compiler warns when the result is unused.
  public func observe<N: MainActorNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor (N) -> Void
  ) -> ObserverToken {
    register(owner: nil, sender: sender, flags: [], fileID: fileID, line: line, handler: .plain(handler))
  }

  /// Calls `handler` with the next notification of type `type` only, then ends the observation.
  /// Releasing or cancelling the token before a notification arrives ends it without a call.
  public func observeOnce<N: MainActorNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor (N) -> Void
  ) -> ObserverToken {
    register(
      owner: nil, sender: sender, flags: .oneShot, fileID: fileID, line: line,
      handler: .plain(handler))
  }

  /// Calls `handler` with `owner` and the next notification of type `type` only, then ends the
  /// observation; it also ends if `owner` deinitialises first.
  @discardableResult
  public func observeOnce<Owner: AnyObject, N: MainActorNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor (Owner, N) -> Void
  ) -> ObserverToken {
    register(
      owner: owner, sender: sender, flags: .oneShot, fileID: fileID, line: line,
      handler: .owned { owner, notification in handler(unsafeDowncast(owner, to: Owner.self), notification) })
  }

  // MARK: Introspection

  /// The number of live registrations for `type`: not cancelled, and whose owner (and sender
  /// filter, if any) is still alive.
  public func observerCount<N: MainActorNotification>(for type: N.Type) -> Int {
    (channels[ObjectIdentifier(N.self)]?.registrations ?? []).count(where: \.isLive)
  }

  /// Every live registration, grouped by notification type (types sorted by name) and in
  /// registration order within a type; each names the `observe` call that made it.
  ///
  /// Like ``observerCount(for:)``, it only reads: registrations whose owner or sender died are left
  /// out here and ended by the next post that reaches them or by the next sweep.
  public var registrations: [RegistrationInfo] {
    channels.values.map(\.registrations).compactMap { group in
      group.first.map { (name: String(reflecting: $0.notificationType), registrations: group) }
    }.sorted { $0.name < $1.name }
      .flatMap { $0.registrations.filter(\.isLive).map(\.info) }
  }

  // MARK: Registration bookkeeping

  private func register<N: MainActorNotification>(
    owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    handler: MainActorHandler<N>
  ) -> ObserverToken {
    let registration = MainActorRegistration<N>(
      center: self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    let token = ObserverToken(registration: registration)
    // An owner already deinitialising cannot be referenced weakly: the weak load is nil at once.
    if registration.startsDead {
      registration.end()
      return token
    }
    var garbage: [Any] = []
    let key = ObjectIdentifier(N.self)
    let channel: MainActorChannel<N>
    if let existing = channels[key] {
      channel = unsafeDowncast(existing, to: MainActorChannel<N>.self)
    } else {
      channel = MainActorChannel<N>()
      channels[key] = channel
    }
    channel.append(registration, handler: handler, into: &garbage)
    garbage = []  // released after every mutation is over
    return token
  }

  /// Releases the entry of `registration`, which has just ended.
  func detach<N: MainActorNotification>(_ registration: MainActorRegistration<N>) {
    let key = ObjectIdentifier(N.self)
    guard let existing = channels[key] else { return }
    let channel = unsafeDowncast(existing, to: MainActorChannel<N>.self)
    var garbage: [Any] = []
    channel.tombstone(registration, into: &garbage)
    if channel.isEmpty && channel.readers == 0, let removed = channels.removeValue(forKey: key) {
      garbage.append(removed)
    }
    garbage = []  // released after every mutation is over
  }
}

/// The channels of a center that is deinitialising, on their way to the main actor.
//
// @unchecked Sendable: made in the center's deinit, which holds the only remaining reference to
// the channels, and then touched by exactly one thread at a time: the deinitialising thread reads
// it (marking registrations ended, which is atomic), then hands it whole to the main queue, which
// releases it. Nothing else can reach the channels any more.
private final class Doomed: @unchecked Sendable {
  var channels: [ObjectIdentifier: AnyMainActorChannel]

  init(channels: [ObjectIdentifier: AnyMainActorChannel]) {
    self.channels = channels
  }

  @MainActor
  func release() {
    var garbage: [Any] = []
    for channel in channels.values { channel.endAll(into: &garbage) }
    let released = channels
    channels = [:]
    garbage = []
    _ = released
  }
}
