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

  @usableFromInline package nonisolated let engine = Engine("MainActorNotificationCenter", exclusion: OnMainActor.self)

  /// Creates an empty center.
  public init() {}

  deinit {
    // The handlers may capture non-Sendable state: they are released on the main actor.
    engine.endAll()
  }

  // MARK: Posting

  /// Delivers `notification` to every live observer of its type that does not filter by sender,
  /// synchronously, in registration order, before returning.
  @inlinable
  public func post<N: MainActorNotification>(_ notification: N) {
    deliver(notification, from: nil)
  }

  /// Delivers `notification` as sent by `sender`: observers without a sender filter and those
  /// filtering for this very object receive it. The sender is compared by identity and never
  /// retained.
  @inlinable
  public func post<N: MainActorNotification>(_ notification: N, from sender: AnyObject) {
    deliver(notification, from: ObjectIdentifier(sender))
  }

  @inlinable @inline(__always)
  func deliver<N: MainActorNotification>(_ notification: N, from senderID: ObjectIdentifier?) {
    engine.post(notification, from: senderID, under: OnMainActor.self) { _ in
      preconditionFailure("MainActorNotificationCenter: its registrations are delivered where the post is made")
    }
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
    engine.register(
      N.self, owner: owner, sender: sender, flags: [], fileID: fileID, line: line, call: Isolation.dropped(handler))
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
    engine.register(N.self, sender: sender, flags: [], fileID: fileID, line: line, call: Isolation.dropped(handler))
  }

  /// Calls `handler` with the next notification of type `type` only, then ends the observation.
  /// Releasing or cancelling the token before a notification arrives ends it without a call.
  public func observeOnce<N: MainActorNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor (N) -> Void
  ) -> ObserverToken {
    engine.register(
      N.self, sender: sender, flags: .oneShot, fileID: fileID, line: line, call: Isolation.dropped(handler))
  }

  /// Calls `handler` with `owner` and the next notification of type `type` only, then ends the
  /// observation; it also ends if `owner` deinitialises first.
  @discardableResult
  public func observeOnce<Owner: AnyObject, N: MainActorNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor (Owner, N) -> Void
  ) -> ObserverToken {
    engine.register(
      N.self, owner: owner, sender: sender, flags: .oneShot, fileID: fileID, line: line,
      call: Isolation.dropped(handler))
  }

  // MARK: Async sequence

  /// An async sequence of the notifications of type `type` posted from now on, to iterate on the
  /// main actor.
  ///
  /// The registration is made by this call, so nothing posted after it returns is missed, even
  /// before iteration starts. It ends when the consuming task is cancelled, when the sequence and
  /// every iterator made from it are released, when `token` of the sequence is cancelled, or when
  /// the center deinitialises; the sequence then finishes after handing out what it buffered.
  ///
  /// The notifications need not be `Sendable`: they never leave the main actor. The sequence's
  /// conformance to `AsyncSequence` is isolated to the main actor, so the compiler rejects a loop
  /// over it anywhere else (in a `Task.detached`, in a `nonisolated` async function); see
  /// ``MainActorNotificationSequence``.
  ///
  /// ```swift
  /// final class Document {  // not Sendable
  ///   var title = "Notes"
  /// }
  /// struct DocumentSaved: MainActorNotification {
  ///   let document: Document
  /// }
  ///
  /// @MainActor func showSaves(from center: MainActorNotificationCenter) async {
  ///   for await saved in center.notifications(of: DocumentSaved.self, bufferingPolicy: .bufferingNewest(1)) {
  ///     print("saved \(saved.document.title)")
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The notification type to observe.
  ///   - sender: When given, only notifications posted `from:` this very object are delivered.
  ///     Never retained.
  ///   - bufferingPolicy: What happens when notifications arrive faster than the consumer takes
  ///     them. See ``NotificationBufferingPolicy``; there is deliberately no default.
  ///   - fileID: The file of the call, recorded for ``registrations``; leave the default.
  ///   - line: The line of the call, recorded for ``registrations``; leave the default.
  public func notifications<N: MainActorNotification>(
    of type: N.Type, from sender: AnyObject? = nil, bufferingPolicy: NotificationBufferingPolicy,
    fileID: StaticString = #fileID, line: Int = #line
  ) -> MainActorNotificationSequence<N> {
    let (stream, continuation) = AsyncStream.makeStream(of: N.self, bufferingPolicy: bufferingPolicy.streamPolicy())
    let registration = StreamRegistration(in: engine, sender: sender, fileID: fileID, line: line, feeding: continuation)
    let handler: @MainActor (N) -> Void = { notification in
      // nonisolated(unsafe): `yield` takes its value as `sending`, as if it might be consumed in
      // another isolation domain. This stream is consumed only through the sequence's iterator,
      // whose conformance is isolated to the main actor and whose `next()` resumes on it; so the
      // notification stays on the main actor, as it does when a handler receives it.
      nonisolated(unsafe) let onMainActor = notification
      _ = continuation.yield(onMainActor)
    }
    let token = engine.register(
      PlainEntry(registration: registration, call: Isolation.dropped(handler)), form: "notifications(of:)")
    return MainActorNotificationSequence(stream: stream, token: token)
  }

  // MARK: Introspection

  /// The number of live registrations for `type`: not cancelled, and whose owner (and sender
  /// filter, if any) is still alive.
  public func observerCount<N: MainActorNotification>(for type: N.Type) -> Int {
    engine.observerCount(of: N.self)
  }

  /// Every live registration, grouped by notification type (types sorted by name) and in
  /// registration order within a type; each names the `observe` call that made it.
  ///
  /// Like ``observerCount(for:)``, it only reads: registrations whose owner or sender died are left
  /// out here and ended by the next post that reaches them or by the next sweep.
  public var registrations: [RegistrationInfo] { engine.listing }
}

// The metatype crosses isolation domains like any class's (generic code may ask for it), as it did
// when the center conformed to a `Sendable` protocol of the old observation layer.
extension MainActorNotificationCenter: SendableMetatype {}
