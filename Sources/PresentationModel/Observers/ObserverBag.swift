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
///
/// > Note: Inserting is amortised O(1). Tokens whose observation ended by itself (a one-shot that
/// > fired, an owner or sender that deinitialised, a cancel from elsewhere) are dropped in batches:
/// > each time the bag has doubled since it last looked, so a long-lived bag holds at most about
/// > twice its active tokens (plus 16).
public final class ObserverBag: Sendable {
  private struct Contents {
    var tokens: Set<ObserverToken> = []
    /// When the next insert looks for ended observations.
    var prune = SweepPolicy(minimum: 16)
  }

  private let contents = LockedState(Contents())

  /// Creates an empty bag.
  public init() {}

  deinit {
    cancelAll()
  }

  /// The number of tokens held, including ended ones not yet dropped.
  public var count: Int { contents.withLock { $0.tokens.count } }

  /// Adds `token`; adding the same token twice holds it once.
  public func insert(_ token: ObserverToken) {
    TestHooks.count(.tokensVisited, 1)
    let snapshot = contents.withLock { contents -> Set<ObserverToken>? in
      guard contents.tokens.insert(token).inserted else { return nil }
      return contents.prune.isDue(count: contents.tokens.count) ? contents.tokens : nil
    }
    if let snapshot { dropEndedObservations(among: snapshot) }
  }

  /// Removes the tokens of `snapshot` whose observation has ended, and cancels them.
  ///
  /// Whether an observation ended is asked outside the lock: `isActive` loads the owner and the
  /// sender weakly, which holds them strongly for a moment, and if that is the last reference their
  /// `deinit` runs right there (and may use this bag). The removed tokens are released after the
  /// lock too (`ended` holds them), since releasing a token may end an observation.
  private func dropEndedObservations(among snapshot: Set<ObserverToken>) {
    let ended = snapshot.filter { !$0.isActive }
    TestHooks.count(.tokensVisited, snapshot.count + ended.count)
    contents.withLock { contents in
      contents.tokens.subtract(ended)
      contents.prune.finished(keeping: contents.tokens.count)
    }
    // Already ended: cancelling only tells the center at once (an owner that deinitialised leaves
    // its registration to be reclaimed lazily otherwise).
    for token in ended { token.cancel() }
  }

  /// Cancels every token held and empties the bag.
  public func cancelAll() {
    let taken = contents.withLock { contents in
      defer { contents = Contents() }
      return contents.tokens
    }
    // Cancelled outside the bag's lock: ending an async sequence's observation resumes its consumer.
    for token in taken { token.cancel() }
  }
}
