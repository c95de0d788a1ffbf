import Foundation
import PresentationModel

/// A notification of the random-operations stress: one post, by ticket and posting thread.
protocol StressNote: TypedNotification, FoundationNotification {
  var post: Int { get }
  var poster: Int { get }
  init(post: Int, poster: Int)
}

extension StressNote {
  init?(_ notification: Notification) {
    guard let post = notification.userInfo?["post"] as? Int, let poster = notification.userInfo?["poster"] as? Int
    else { return nil }
    self.init(post: post, poster: poster)
  }

  var userInfo: [AnyHashable: Any] { ["post": post, "poster": poster] }
}

/// A center that the random-operations stress drives from several threads at once: the typed
/// center, or the bridge over a Foundation `NotificationCenter` of its own. (The main-actor center
/// is posted to on the main actor only, so it has no concurrent posts to reconcile.)
protocol RandomStressCenter: AnyObject, Sendable {
  /// Whether it has one-shot observers.
  var offersOneShots: Bool { get }
  /// The typed center, for its async sequences; `nil` for the bridge, which has none.
  var typedCenter: TypedNotificationCenter? { get }
  func postNote<N: StressNote>(_ note: N)
  func observeNote<N: StressNote>(_ type: N.Type, once: Bool, _ handler: @escaping @Sendable (N) -> Void)
    -> ObserverToken
  func observeNote<N: StressNote>(
    _ type: N.Type, once: Bool, owner: StressOwner, _ handler: @escaping @Sendable (StressOwner, N) -> Void
  ) -> ObserverToken
  func countObservers<N: StressNote>(of type: N.Type) -> Int
  var registrationCount: Int { get }
}

extension CenterKind {
  /// A center for the random-operations stress; `nil` for the main-actor center.
  func makeRandomStressCenter() -> (any RandomStressCenter)? {
    switch self {
    case .typed: TypedNotificationCenter()
    case .mainActor: nil
    case .bridge: FoundationNotificationBridge(NotificationCenter())
    }
  }
}

extension TypedNotificationCenter: RandomStressCenter {
  var offersOneShots: Bool { true }
  var typedCenter: TypedNotificationCenter? { self }

  func postNote<N: StressNote>(_ note: N) { post(note) }

  func observeNote<N: StressNote>(_ type: N.Type, once: Bool, _ handler: @escaping @Sendable (N) -> Void)
    -> ObserverToken
  {
    once ? observeOnce(N.self, handler) : observe(N.self, handler)
  }

  func observeNote<N: StressNote>(
    _ type: N.Type, once: Bool, owner: StressOwner, _ handler: @escaping @Sendable (StressOwner, N) -> Void
  ) -> ObserverToken {
    once ? observeOnce(N.self, owner: owner, handler) : observe(N.self, owner: owner, handler)
  }

  func countObservers<N: StressNote>(of type: N.Type) -> Int { observerCount(for: N.self) }
  var registrationCount: Int { registrations.count }
}

extension FoundationNotificationBridge: RandomStressCenter {
  var offersOneShots: Bool { false }
  var typedCenter: TypedNotificationCenter? { nil }

  func postNote<N: StressNote>(_ note: N) {
    notificationCenter.post(name: N.name, object: nil, userInfo: note.userInfo)
  }

  func observeNote<N: StressNote>(_ type: N.Type, once: Bool, _ handler: @escaping @Sendable (N) -> Void)
    -> ObserverToken
  {
    precondition(!once, "FoundationNotificationBridge has no one-shot observers")
    return observe(N.self, handler)
  }

  func observeNote<N: StressNote>(
    _ type: N.Type, once: Bool, owner: StressOwner, _ handler: @escaping @Sendable (StressOwner, N) -> Void
  ) -> ObserverToken {
    precondition(!once, "FoundationNotificationBridge has no one-shot observers")
    return observe(N.self, owner: owner, handler)
  }

  func countObservers<N: StressNote>(of type: N.Type) -> Int { observerCount(for: N.self) }
  var registrationCount: Int { registrations.count }
}
