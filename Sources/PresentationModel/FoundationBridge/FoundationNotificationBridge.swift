public import Foundation

/// Observes a Foundation `NotificationCenter` with the lifetimes, introspection and leak checks of
/// this package: owner-bound observers that end when their owner deinitialises, token-bound ones,
/// main-actor delivery where you ask for it, and ``registrations`` with the line of each call.
///
/// Classic notifications are observed as ``FoundationNotification`` values; Foundation's typed
/// messages (`NotificationCenter.MainActorMessage`, `NotificationCenter.AsyncMessage`) as they are.
///
/// ```swift
/// import Foundation
///
/// struct CacheTrimmed: FoundationNotification {
///   static var name: Notification.Name { Notification.Name("CacheTrimmed") }
///   let freedBytes: Int
///   init?(_ notification: Notification) {
///     guard let freedBytes = notification.userInfo?["freedBytes"] as? Int else { return nil }
///     self.freedBytes = freedBytes
///   }
/// }
///
/// final class CacheMeter: Sendable {
///   init(bridge: FoundationNotificationBridge) {
///     bridge.observe(CacheTrimmed.self, owner: self) { meter, trimmed in
///       print("freed \(trimmed.freedBytes) bytes")
///     }
///   }
/// }
///
/// let bridge = FoundationNotificationBridge(NotificationCenter.default)
/// var meter: CacheMeter? = CacheMeter(bridge: bridge)
/// NotificationCenter.default.post(name: CacheTrimmed.name, object: nil, userInfo: ["freedBytes": 512])
/// meter = nil  // the observation ends with its owner
/// ```
///
/// > Note: When an observation ends (cancelled, token or bag released, owner or sender found
/// > deinitialised, or the bridge deinitialising), the observer it installed in the Foundation
/// > center is removed, and with it the handler. An owner's death is noticed by the next post of
/// > that notification, or by the sweep a later registration of it runs once its registrations
/// > have doubled; a bridge cannot hook into an owner's `deinit`. Main-actor handlers are
/// > released on the main queue, whichever thread ends the observation.
public final class FoundationNotificationBridge: Sendable {
  /// A bridge to `NotificationCenter.default`.
  public static let `default` = FoundationNotificationBridge(NotificationCenter.default)

  /// The Foundation center this bridge observes.
  public let notificationCenter: NotificationCenter

  package let engine = Engine("FoundationNotificationBridge", exclusion: Locked.self)

  /// Creates a bridge that observes `notificationCenter`.
  public init(_ notificationCenter: NotificationCenter) {
    self.notificationCenter = notificationCenter
  }

  deinit {
    // After unlocking: removing each Foundation observer releases its handler.
    engine.endAll()
  }

  // MARK: Classic notifications, on the posting thread

  /// Calls `handler` on the posting thread with `owner` and each `type` notification posted to the
  /// Foundation center, for as long as `owner` lives.
  ///
  /// - Parameters:
  ///   - type: The notification type; its `name` is observed and its `init?(_:)` converts.
  ///   - owner: The object whose lifetime bounds the observation. Never retained.
  ///   - sender: When given, only notifications posted with this very object (Foundation's
  ///     `object:`) are delivered (the Foundation center filters); the observation ends when the
  ///     sender deinitialises. Never retained.
  ///   - fileID: The file of the call, recorded for ``registrations``; leave the default.
  ///   - line: The line of the call, recorded for ``registrations``; leave the default.
  ///   - handler: Runs on the thread that posted.
  /// - Returns: A token that can end the observation early; discarding it does not end it.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, N: FoundationNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    observeClassic(
      Registration(in: engine, N.self, owner: owner, sender: sender, flags: [], fileID: fileID, line: line),
      form: "observe(_:owner:)", handler: handler
    ) { handler(unsafeDowncast($0.unsafelyUnwrapped, to: Owner.self), $1) }
  }

  /// Calls `handler` on the posting thread with each `type` notification posted to the Foundation
  /// center, until the returned token is cancelled or released.
  public func observe<N: FoundationNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    observeClassic(
      Registration(in: engine, N.self, owner: nil, sender: sender, flags: [], fileID: fileID, line: line),
      form: "observe(_:)", handler: handler
    ) { handler($1) }
  }

  // MARK: Classic notifications, once

  /// Calls `handler` on the posting thread with the next `type` notification only, then ends the
  /// observation (removing its Foundation observer).
  ///
  /// Exactly one call happens even when several threads post at once. Releasing or cancelling the
  /// token before a notification arrives ends it without a call.
  ///
  /// ```swift
  /// import Foundation
  ///
  /// struct Launched: FoundationNotification {
  ///   static var name: Notification.Name { Notification.Name("Launched") }
  ///   init?(_ notification: Notification) {}
  /// }
  ///
  /// let bridge = FoundationNotificationBridge(NotificationCenter())
  /// let token = bridge.observeOnce(Launched.self) { _ in print("launched") }
  /// bridge.notificationCenter.post(name: Launched.name, object: nil)  // prints once
  /// bridge.notificationCenter.post(name: Launched.name, object: nil)  // nothing
  /// withExtendedLifetime(token) {}
  /// ```
  public func observeOnce<N: FoundationNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    observeClassic(
      Registration(in: engine, N.self, owner: nil, sender: sender, flags: .oneShot, fileID: fileID, line: line),
      form: "observeOnce(_:)", handler: handler
    ) { handler($1) }
  }

  /// Calls `handler` on the posting thread with `owner` and the next `type` notification only, then
  /// ends the observation; it also ends if `owner` deinitialises first.
  @discardableResult
  public func observeOnce<Owner: AnyObject & Sendable, N: FoundationNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    observeClassic(
      Registration(in: engine, N.self, owner: owner, sender: sender, flags: .oneShot, fileID: fileID, line: line),
      form: "observeOnce(_:owner:)", handler: handler
    ) { handler(unsafeDowncast($0.unsafelyUnwrapped, to: Owner.self), $1) }
  }

  // MARK: Classic notifications, on the main actor

  /// Calls `handler` on the main actor with `owner` and each `type` notification, for as long as
  /// `owner` lives. Callable from any thread, like
  /// ``TypedNotificationCenter/observeOnMainActor(_:owner:from:fileID:line:_:)``: the owner is
  /// `Sendable` (a `@MainActor` class is), since the bridge holds it where any thread may read it.
  ///
  /// A notification posted on the main actor is delivered before `post` returns; one posted
  /// elsewhere is converted there and enqueued on the main queue, and not delivered if the
  /// observation ended before it runs.
  @discardableResult
  public func observeOnMainActor<Owner: AnyObject & Sendable, N: FoundationNotification>(
    _ type: N.Type, owner: Owner, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    // Boxed: Foundation may release its block on any thread; the box releases the handler on the
    // main queue, as the centers release main-actor handlers.
    let call = MainActorReleased(handler)
    return observeClassic(
      Registration(in: engine, N.self, owner: owner, sender: sender, flags: .mainActor, fileID: fileID, line: line),
      form: "observeOnMainActor(_:owner:)", handler: call
    ) { owner, value in
      let owner = unsafeDowncast(owner.unsafelyUnwrapped, to: Owner.self)  // an `Owner`, which is Sendable
      MainActor.assumeIsolated { call.value(owner, value) }
    }
  }

  /// Calls `handler` on the main actor with each `type` notification until the returned token is
  /// cancelled or released; delivery as in ``observeOnMainActor(_:owner:from:fileID:line:_:)``.
  /// Callable from any thread.
  public func observeOnMainActor<N: FoundationNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor @Sendable (N) -> Void
  ) -> ObserverToken {
    // Boxed, as in the owner-bound form.
    let call = MainActorReleased(handler)
    return observeClassic(
      Registration(in: engine, N.self, owner: nil, sender: sender, flags: .mainActor, fileID: fileID, line: line),
      form: "observeOnMainActor(_:)", handler: call
    ) { _, value in MainActor.assumeIsolated { call.value(value) } }
  }

  // MARK: Classic notifications, as an async sequence

  /// An async sequence of the `type` notifications posted to the Foundation center from now on.
  ///
  /// The registration, and its Foundation observer, are made by this call, so nothing posted after
  /// it returns is missed, even before iteration starts. It ends when the consuming task is
  /// cancelled, when the sequence and every iterator made from it are released, when `token` of
  /// the sequence is cancelled, or when the bridge deinitialises; its Foundation observer is then
  /// removed, and the sequence finishes after handing out what it buffered. The notifications are
  /// converted on the posting thread, as for ``observe(_:from:fileID:line:_:)``; one whose
  /// `init?(_:)` returns `nil` is skipped.
  ///
  /// ```swift
  /// import Foundation
  ///
  /// struct DownloadFinished: FoundationNotification {
  ///   static var name: Notification.Name { Notification.Name("DownloadFinished") }
  ///   let path: String
  ///   init?(_ notification: Notification) {
  ///     guard let path = notification.userInfo?["path"] as? String else { return nil }
  ///     self.path = path
  ///   }
  /// }
  ///
  /// func firstDownload(from bridge: FoundationNotificationBridge) async -> String? {
  ///   for await finished in bridge.notifications(of: DownloadFinished.self, bufferingPolicy: .bufferingOldest(1)) {
  ///     return finished.path  // leaving the loop ends the observation
  ///   }
  ///   return nil
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The notification type; its `name` is observed and its `init?(_:)` converts.
  ///   - sender: When given, only notifications posted with this very object (Foundation's
  ///     `object:`) are delivered. Never retained.
  ///   - bufferingPolicy: What happens when notifications arrive faster than the consumer takes
  ///     them. See ``NotificationBufferingPolicy``; there is deliberately no default.
  ///   - fileID: The file of the call, recorded for ``registrations``; leave the default.
  ///   - line: The line of the call, recorded for ``registrations``; leave the default.
  public func notifications<N: FoundationNotification>(
    of type: N.Type, from sender: AnyObject? = nil, bufferingPolicy: NotificationBufferingPolicy,
    fileID: StaticString = #fileID, line: Int = #line
  ) -> TypedNotificationSequence<N> {
    TypedNotificationSequence(in: engine, sender: sender, bufferingPolicy: bufferingPolicy, fileID: fileID, line: line)
    {
      registration, yield in
      // Foundation filters by `object:`; the block converts on the posting thread, then yields.
      observeClassic(registration, form: "notifications(of:)", handler: yield) { yield($1) }
    }
  }

  // MARK: Foundation's typed messages

  /// Calls `handler` with `owner` and each `type` message posted to the Foundation center (on the
  /// main actor, before `post` returns, as Foundation delivers them), for as long as `owner` lives.
  /// There is no token to keep.
  ///
  /// Callable from any thread, with a `Sendable` owner and a `@MainActor @Sendable` handler: the
  /// rule of ``observeOnMainActor(_:owner:from:fileID:line:_:)``, for the same reason (the
  /// registration is read from any thread: by `registrations`, the leak harness, and a cancel or
  /// the owner's death, which may release it anywhere). A `@MainActor` class is `Sendable`.
  ///
  /// - Parameters:
  ///   - type: A `NotificationCenter.MainActorMessage` type.
  ///   - owner: The object whose lifetime bounds the observation. Never retained.
  ///   - subject: When given, only messages posted with this subject (Foundation's `of:`) are
  ///     delivered; the observation ends when the subject deinitialises. Never retained.
  ///   - fileID: The file of the call, recorded for ``registrations``; leave the default.
  ///   - line: The line of the call, recorded for ``registrations``; leave the default.
  ///   - handler: Runs on the main actor.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, M: NotificationCenter.MainActorMessage>(
    _ type: M.Type, owner: Owner, from subject: M.Subject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, M) -> Void
  ) -> ObserverToken where M.Subject: AnyObject {
    // Boxed, as in `observeOnMainActor`.
    let call = MainActorReleased(handler)
    let registration = Registration(
      in: engine, M.self, owner: owner, sender: subject, flags: .mainActor, fileID: fileID, line: line)
    let token = notificationCenter.addObserver(of: subject, for: M.self) { message in
      registration.deliver(from: nil, senderFilteredByFoundation: true) {
        call.value(unsafeDowncast($0.unsafelyUnwrapped, to: Owner.self), message)
      }
    }
    return register(registration, form: "observe(_:owner:from:)", handler: call) { [notificationCenter] in
      notificationCenter.removeObserver(token)
    }
  }

  /// Calls `handler` with `owner` and each `type` message posted to the Foundation center (in a
  /// task Foundation starts for each message, after `post` returned), for as long as `owner` lives.
  /// There is no token to keep.
  ///
  /// The owner is held weakly and strongly for the duration of each call; a message that arrives
  /// after the owner deinitialised ends the observation instead.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, M: NotificationCenter.AsyncMessage>(
    _ type: M.Type, owner: Owner, from subject: M.Subject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (Owner, M) async -> Void
  ) -> ObserverToken where M.Subject: AnyObject {
    let registration = Registration(
      in: engine, M.self, owner: owner, sender: subject, flags: .task, fileID: fileID, line: line)
    let token = notificationCenter.addObserver(of: subject, for: M.self) { message in
      // Decided before the call, which is async (never a one-shot: there is nothing to finish).
      var owner: AnyObject?
      registration.deliver(from: nil, senderFilteredByFoundation: true) { owner = $0 }
      guard let owner else { return }
      await handler(unsafeDowncast(owner, to: Owner.self), message)
    }
    return register(registration, form: "observe(_:owner:from:)", handler: handler) { [notificationCenter] in
      notificationCenter.removeObserver(token)
    }
  }

  // MARK: Introspection

  /// The number of live registrations for `type`.
  ///
  /// Like the centers' queries, it only reads: registrations whose owner or sender died are left
  /// out, and ended by the next post that reaches them or by the sweep a later registration of the
  /// type runs once its registrations have doubled (which removes their Foundation observers).
  public func observerCount<N>(for type: N.Type) -> Int {
    engine.observerCount(of: N.self)
  }

  /// Every live registration, grouped by notification type (types sorted by name) and in
  /// registration order within a type; each names the `observe` call that made it. Like
  /// ``observerCount(for:)``, it only reads.
  public var registrations: [RegistrationInfo] { engine.listing }
}

// How the bridge registers: each registration installs one observer in the Foundation center,
// whose block converts a classic notification on the posting thread and delivers through the
// registration's decision (`Registration.deliver`), on the main actor for the main-actor forms; its
// entry in the engine holds the handler for diagnostics and removes that observer when the engine
// releases it (once the registration ended, after unlocking).
extension FoundationNotificationBridge {
  /// Installs an observer of `N.name` (from the registration's sender only, when it has one) whose
  /// block converts each notification on the posting thread, then hands it to `call` through the
  /// registration's decision: there, or on the main actor for a main-actor registration (at once on
  /// the main queue, enqueued there otherwise, and decided there). Then registers `registration`.
  private func observeClassic<N: FoundationNotification>(
    _ registration: Registration, form: StaticString, handler: any Sendable,
    call: @escaping @Sendable (AnyObject?, N) -> Void
  ) -> ObserverToken {
    let observer = notificationCenter.addObserver(forName: N.name, object: registration.sender, queue: nil) {
      notification in
      guard registration.lifecycle.isLive else { return }
      guard let value = N(notification) else { return ConversionFailures.report(N.self, name: N.name) }
      // Decides again: the conversion is user code and may have ended it.
      let deliver: @Sendable () -> Void = {
        registration.deliver(from: nil, senderFilteredByFoundation: true) { call($0, value) }
      }
      if registration.flags.contains(.mainActor) { MainQueue.runOnMainActor(deliver) } else { deliver() }
    }
    return register(registration, form: form, handler: handler) { [notificationCenter] in
      notificationCenter.removeObserver(observer)
    }
  }

  /// Stores `registration`, whose Foundation observer `removeObserver` removes, in the engine.
  private func register(
    _ registration: Registration, form: StaticString, handler: any Sendable, removeObserver: @escaping () -> Void
  ) -> ObserverToken {
    engine.register(
      FoundationEntry(registration: registration, handler: handler, removeObserver: removeObserver), form: form)
  }
}
