/// Delivers typed notifications to observers, in registration order, from any thread.
///
/// ```swift
/// struct SelectionChanged: TypedNotification {
///   let selectedIndex: Int?
/// }
///
/// final class MenuModel: Sendable {
///   init(center: TypedNotificationCenter) {
///     // Held weakly: ends by itself when this model deinitialises.
///     center.observe(SelectionChanged.self, owner: self) { model, note in
///       model.selectionDidChange(to: note.selectedIndex)
///     }
///   }
///   func selectionDidChange(to index: Int?) {}
/// }
///
/// let center = TypedNotificationCenter()
/// let menu = MenuModel(center: center)
/// center.post(SelectionChanged(selectedIndex: 2))
/// _ = menu
/// ```
///
/// Posts may come from any thread, so the notification, a posting-thread owner and the handler must
/// be `Sendable`. When the compiler says one is not (`type 'MyView' does not conform to the
/// 'Sendable' protocol`, or a handler that captures non-`Sendable` state), the code is usually main-actor
/// UI code: use ``MainActorNotificationCenter``, where nothing needs to be `Sendable`. The table in
/// <doc:Notifications#Which-center> says which center fits which code.
///
/// > Note: Guarantees you may rely on:
/// > - Every method may be called from any thread; no lock is held while an observer runs.
/// > - Observers of one notification type run in the order they were registered.
/// > - A handler may post, observe and cancel. A nested post is delivered completely before the
/// >   outer post continues; an observer added during a delivery does not receive that delivery;
/// >   an observer cancelled (or whose owner deinitialised) during a delivery is not called after.
/// > - The center never retains an owner or a sender. Registrations whose owner died are never
/// >   called again and are not counted; their storage is released lazily.
/// > - Posting to existing observers that run on the posting thread does not allocate; ending a
/// >   registration is amortised O(1).
public final class TypedNotificationCenter: Sendable {
  /// The process-wide center, for apps that want a single one.
  public static let `default` = TypedNotificationCenter()

  /// How deeply posts of one notification type may nest inside each other on one thread before a
  /// debug build stops with a message naming the type and the cycle. Release builds do not check.
  public static let maximumNestedPostDepth = 100

  @usableFromInline package let engine = Engine("TypedNotificationCenter", exclusion: Locked.self)

  /// Creates an empty center.
  public init() {}

  deinit {
    // Registrations ended here finish their async sequences; handlers are released after unlocking.
    engine.endAll()
  }

  // MARK: Posting

  /// Delivers `notification` to every live observer of its type that does not filter by sender.
  ///
  /// Observers run synchronously on the calling thread, in registration order, before `post`
  /// returns; main-actor observers run synchronously when the caller is on the main queue (where
  /// the main actor runs) and are enqueued on the main queue (in order) otherwise; async sequences
  /// buffer the notification for their consumer. Posting a type nobody observes is a cheap no-op.
  @inlinable
  public func post<N: TypedNotification>(_ notification: N) {
    deliver(notification, from: nil)
  }

  /// Delivers `notification` as sent by `sender`: observers without a sender filter and those
  /// filtering for this very object receive it.
  ///
  /// The sender is compared by identity and never retained.
  @inlinable
  public func post<N: TypedNotification>(_ notification: N, from sender: AnyObject) {
    deliver(notification, from: ObjectIdentifier(sender))
  }

  @inlinable @inline(__always)
  func deliver<N: TypedNotification>(_ notification: N, from senderID: ObjectIdentifier?) {
    engine.post(notification, from: senderID, under: Locked.self) { registration in
      engine.deliverOnMainQueue(notification, from: senderID, to: registration)
    }
  }

  // MARK: Observing with an owner

  /// Calls `handler` with `owner` and each notification of type `type`, for as long as `owner`
  /// lives.
  ///
  /// The owner is held weakly and handed to the handler strongly for the duration of each call,
  /// so the handler needs no `[weak self]`. The registration ends by itself when the owner
  /// deinitialises. Keep the returned token only to end it earlier; discarding it does not end it.
  ///
  /// ```swift
  /// struct Saved: TypedNotification {}
  /// final class StatusBar: Sendable {
  ///   func showSaved() {}
  /// }
  /// let center = TypedNotificationCenter()
  /// let bar = StatusBar()
  /// center.observe(Saved.self, owner: bar) { bar, _ in bar.showSaved() }
  /// center.post(Saved())
  /// ```
  ///
  /// - Parameters:
  ///   - type: The notification type to observe.
  ///   - owner: The object whose lifetime bounds the observation. Never retained by the center. An
  ///     owner that is already deinitialising yields an ended token and registers nothing. It must
  ///     be `Sendable`, since posts come from any thread; for a main-actor class that is not, use
  ///     ``MainActorNotificationCenter`` (<doc:Notifications#Which-center>).
  ///   - sender: When given, only notifications posted `from:` this very object are delivered; the
  ///     observation ends when the sender deinitialises.
  ///   - fileID: The file of the call, recorded for ``registrations``; leave the default.
  ///   - line: The line of the call, recorded for ``registrations``; leave the default.
  ///   - handler: Runs on the posting thread. Capturing `owner` strongly in it would keep the owner
  ///     alive forever; use the `owner` argument instead.
  /// - Returns: A token that can end the observation early.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, N: TypedNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    engine.register(N.self, owner: owner, sender: sender, flags: [], fileID: fileID, line: line, call: handler)
  }

  /// Calls `handler` on the main actor with `owner` and each notification of type `type`, for as
  /// long as `owner` lives.
  ///
  /// Use this for UI owners: the handler may touch `@MainActor` state directly. A post made on the
  /// main queue (where the main actor runs) delivers synchronously, in order with the other
  /// observers; a post from elsewhere enqueues the delivery on the main queue, in the order of
  /// posting. Liveness is checked again
  /// when an enqueued delivery runs, so an observer cancelled in between is not called.
  @discardableResult
  public func observeOnMainActor<Owner: AnyObject & Sendable, N: TypedNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    engine.register(
      N.self, owner: owner, sender: sender, flags: .mainActor, fileID: fileID, line: line,
      call: Isolation.dropped(handler))
  }

  // MARK: Observing with a token

  /// Calls `handler` with each notification of type `type` until the returned token is cancelled
  /// or released.
  ///
  /// ```swift
  /// struct Tick: TypedNotification {}
  /// let center = TypedNotificationCenter()
  /// let token = center.observe(Tick.self) { _ in print("tick") }
  /// center.post(Tick())
  /// token.cancel()
  /// ```
  ///
  /// - Returns: The token that keeps the observation alive. Releasing it ends the observation, so
  ///   the compiler warns when the result is unused.
  public func observe<N: TypedNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    engine.register(N.self, sender: sender, flags: [], fileID: fileID, line: line, call: handler)
  }

  /// Calls `handler` on the main actor with each notification of type `type` until the returned
  /// token is cancelled or released. Delivery follows the rules of
  /// ``observeOnMainActor(_:owner:from:fileID:line:_:)``.
  public func observeOnMainActor<N: TypedNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor @Sendable (N) -> Void
  ) -> ObserverToken {
    engine.register(
      N.self, sender: sender, flags: .mainActor, fileID: fileID, line: line, call: Isolation.dropped(handler))
  }

  // MARK: One-shot

  /// Calls `handler` with the next notification of type `type` only, then ends the observation.
  ///
  /// Exactly one call happens even when several threads post at once. Releasing or cancelling the
  /// token before a notification arrives ends it without a call.
  public func observeOnce<N: TypedNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    engine.register(N.self, sender: sender, flags: .oneShot, fileID: fileID, line: line, call: handler)
  }

  /// Calls `handler` with `owner` and the next notification of type `type` only, then ends the
  /// observation; it also ends if `owner` deinitialises first.
  @discardableResult
  public func observeOnce<Owner: AnyObject & Sendable, N: TypedNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    engine.register(N.self, owner: owner, sender: sender, flags: .oneShot, fileID: fileID, line: line, call: handler)
  }

  // MARK: Async sequence

  /// An async sequence of the notifications of type `type` posted from now on.
  ///
  /// The registration is made by this call, so nothing posted after it returns is missed, even
  /// before iteration starts. It ends when the consuming task is cancelled, when the sequence and
  /// every iterator made from it are released, when `token` of the sequence is cancelled, or when
  /// the center deinitialises (the sequence then finishes).
  ///
  /// ```swift
  /// struct Progress: TypedNotification { let fraction: Double }
  /// func follow(_ center: TypedNotificationCenter) async {
  ///   for await progress in center.notifications(of: Progress.self, bufferingPolicy: .bufferingNewest(1)) {
  ///     print(progress.fraction)
  ///     if progress.fraction >= 1 { break }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The notification type to observe.
  ///   - sender: When given, only notifications posted `from:` this very object are delivered.
  ///   - bufferingPolicy: What happens when notifications arrive faster than the consumer takes
  ///     them. See ``NotificationBufferingPolicy``; there is deliberately no default.
  ///   - fileID: The file of the call, recorded for ``registrations``; leave the default.
  ///   - line: The line of the call, recorded for ``registrations``; leave the default.
  public func notifications<N: TypedNotification>(
    of type: N.Type, from sender: AnyObject? = nil, bufferingPolicy: NotificationBufferingPolicy,
    fileID: StaticString = #fileID, line: Int = #line
  ) -> TypedNotificationSequence<N> {
    TypedNotificationSequence(in: engine, sender: sender, bufferingPolicy: bufferingPolicy, fileID: fileID, line: line)
    {
      engine.register(PlainEntry(registration: $0, call: $1), form: "notifications(of:)")
    }
  }

  // MARK: Introspection

  /// The number of live registrations for `type`: not cancelled, and whose owner (and sender
  /// filter, if any) is still alive.
  public func observerCount<N: TypedNotification>(for type: N.Type) -> Int {
    engine.observerCount(of: N.self)
  }

  /// Every live registration, grouped by notification type (types sorted by name) and in
  /// registration order within a type.
  ///
  /// Each ``RegistrationInfo`` names the `observe` call that made it, so a test that expects no
  /// observers can say where a leftover one came from.
  ///
  /// Like ``observerCount(for:)``, it only reads: registrations whose owner or sender died are left
  /// out here and ended by the next post that reaches them or by the next registration sweep.
  public var registrations: [RegistrationInfo] { engine.listing }
}
