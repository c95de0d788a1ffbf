/// A collection of tokens that cancels every one of them when it is released or emptied.
///
/// Unlike a `Set<ObserverToken>`, a bag also ends owner-bound observations, whose tokens do not
/// end them on release.
///
/// ```swift
/// struct Ping: TypedNotification {}
/// let center = TypedNotificationCenter()
/// let bag = ObserverBag()
/// center.observe(Ping.self) { _ in }.store(in: bag)
/// bag.cancelAll()
/// ```
public final class ObserverBag: Sendable {
  private let tokens = LockedState<[ObserverToken]>([])

  /// Creates an empty bag.
  public init() {}

  deinit {
    cancelAll()
  }

  /// The number of tokens held.
  public var count: Int { tokens.withLock { $0.count } }

  /// Adds `token`; adding the same token twice holds it once.
  public func insert(_ token: ObserverToken) {
    tokens.withLock { tokens in
      if !tokens.contains(where: { $0 === token }) { tokens.append(token) }
    }
  }

  /// Cancels every token held and empties the bag.
  public func cancelAll() {
    let taken = tokens.withLock { tokens in
      defer { tokens = [] }
      return tokens
    }
    // Cancelled outside the bag's lock: ending an async sequence's observation resumes its consumer.
    for token in taken { token.cancel() }
  }
}
