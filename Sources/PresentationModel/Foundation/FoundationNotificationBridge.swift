internal import Dispatch
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
/// > that notification, or by ``observerCount(for:)`` or ``registrations``; a bridge cannot hook
/// > into an owner's `deinit`.
public final class FoundationNotificationBridge: Sendable {
  /// A bridge to `NotificationCenter.default`.
  public static let `default` = FoundationNotificationBridge(NotificationCenter.default)

  /// The Foundation center this bridge observes.
  public let notificationCenter: NotificationCenter

  /// The registrations made through the bridge, in the order they were made.
  struct Table {
    var registrations: [ObjectIdentifier: (order: Int, registration: RegistrationCore)] = [:]
    var nextOrder = 0
  }

  let table = LockedState(Table())

  /// Creates a bridge that observes `notificationCenter`.
  public init(_ notificationCenter: NotificationCenter) {
    self.notificationCenter = notificationCenter
  }

  deinit {
    let registrations = table.withLock { table in
      defer { table.registrations = [:] }
      return table.registrations.values.map(\.registration)
    }
    // Outside the lock: ending removes each Foundation observer, releasing its handler.
    for registration in registrations { registration.end() }
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
    observeClassic(N.self, object: sender, owner: owner, flags: [], fileID: fileID, line: line) { registration, value in
      guard let owner = registration.liveOwner() else { return }
      handler(unsafeDowncast(owner, to: Owner.self), value)
    }
  }

  /// Calls `handler` on the posting thread with each `type` notification posted to the Foundation
  /// center, until the returned token is cancelled or released.
  public func observe<N: FoundationNotification>(
    _ type: N.Type, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    observeClassic(N.self, object: sender, owner: nil, flags: [], fileID: fileID, line: line) { _, value in
      handler(value)
    }
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
    let call: @MainActor @Sendable (AnyObject, N) -> Void = { owner, value in
      handler(unsafeDowncast(owner, to: Owner.self), value)
    }
    return observeClassic(
      N.self, object: sender, owner: owner, flags: .mainActor, fileID: fileID, line: line
    ) { registration, value in
      Self.onMainActor {
        guard let owner = registration.liveOwner() else { return }
        call(owner, value)
      }
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
    observeClassic(
      N.self, object: sender, owner: nil, flags: .mainActor, fileID: fileID, line: line
    ) { registration, value in
      Self.onMainActor {
        guard registration.admitsDelivery() else { return }
        handler(value)
      }
    }
  }

  // MARK: Foundation's typed messages

  /// Calls `handler` with `owner` and each `type` message posted to the Foundation center (on the
  /// main actor, before `post` returns, as Foundation delivers them), for as long as `owner` lives.
  /// There is no token to keep; the owner need not be `Sendable`.
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
  @MainActor
  @discardableResult
  public func observe<Owner: AnyObject, M: NotificationCenter.MainActorMessage>(
    _ type: M.Type, owner: Owner, from subject: M.Subject? = nil,
    fileID: StaticString = #fileID, line: Int = #line,
    _ handler: @escaping @MainActor (Owner, M) -> Void
  ) -> ObserverToken where M.Subject: AnyObject {
    register(M.self, owner: owner, sender: subject, flags: .mainActor, fileID: fileID, line: line) {
      registration in
      let token = notificationCenter.addObserver(of: subject, for: M.self) { message in
        guard let owner = registration.liveOwner() else { return }
        handler(unsafeDowncast(owner, to: Owner.self), message)
      }
      return .message { center in center.removeObserver(token) }
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
    register(M.self, owner: owner, sender: subject, flags: .task, fileID: fileID, line: line) {
      registration in
      let token = notificationCenter.addObserver(of: subject, for: M.self) { message in
        guard let owner = registration.liveOwner() else { return }
        await handler(unsafeDowncast(owner, to: Owner.self), message)
      }
      return .message { center in center.removeObserver(token) }
    }
  }

  // MARK: Introspection

  /// The number of live registrations for `type`.
  ///
  /// Unlike the centers' queries, this one also ends the registrations it finds whose owner or
  /// sender died: a Foundation center has no other moment to drop their observers, since the bridge
  /// sees no post that does not reach them.
  public func observerCount<N>(for type: N.Type) -> Int {
    endDeadRegistrationsAndListLiveOnes().filter { ObjectIdentifier($0.notificationType) == ObjectIdentifier(N.self) }
      .count
  }

  /// Every live registration, in registration order; each names the `observe` call that made it.
  /// Like ``observerCount(for:)``, it ends the registrations it finds dead.
  public var registrations: [RegistrationInfo] {
    endDeadRegistrationsAndListLiveOnes().map(\.info)
  }

  /// The live registrations in order, ending those whose owner or sender died unnoticed (which
  /// removes their Foundation observers).
  private func endDeadRegistrationsAndListLiveOnes() -> [RegistrationCore] {
    let all = table.withLock { table in
      table.registrations.values.sorted { $0.order < $1.order }.map(\.registration)
    }
    var live: [RegistrationCore] = []
    for registration in all {
      if registration.isLive {
        live.append(registration)
      } else {
        registration.end()
      }
    }
    return live
  }

}
