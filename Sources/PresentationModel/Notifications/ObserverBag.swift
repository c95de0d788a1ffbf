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
    /// In insertion order.
    var tokens: [ObserverToken] = []
    var identifiers: Set<ObjectIdentifier> = []
    /// When `tokens.count` reaches this, the next insert looks for ended observations.
    var pruneThreshold = ObserverBag.minimumPruneThreshold
    /// Tokens visited by inserts and prunes, for the cost tests.
    var tokensVisited = 0
  }

  private static let minimumPruneThreshold = 16

  private let contents = LockedState(Contents())

  /// Creates an empty bag.
  public init() {}

  deinit {
    cancelAll()
  }

  /// The number of tokens held, including ended ones not yet dropped.
  public var count: Int { contents.withLock { $0.tokens.count } }

  /// Tokens visited so far by inserts and by the pruning of ended observations: a small multiple
  /// of the number of inserts when inserting is amortised O(1).
  package var tokensVisited: Int { contents.withLock { $0.tokensVisited } }

  /// Adds `token`; adding the same token twice holds it once.
  public func insert(_ token: ObserverToken) {
    let snapshot = contents.withLock { contents -> [ObserverToken]? in
      contents.tokensVisited += 1
      guard contents.identifiers.insert(ObjectIdentifier(token)).inserted else { return nil }
      contents.tokens.append(token)
      guard contents.tokens.count >= contents.pruneThreshold else { return nil }
      // Raised now, so that concurrent inserts do not start a second prune meanwhile.
      contents.pruneThreshold = contents.tokens.count * 2
      return contents.tokens
    }
    if let snapshot { dropEndedObservations(among: snapshot) }
  }

  /// Removes the tokens of `snapshot` whose observation has ended, and cancels them.
  ///
  /// Whether an observation ended is asked outside the lock: `isActive` loads the owner and the
  /// sender weakly, which holds them strongly for a moment, and if that is the last reference their
  /// `deinit` runs right there (and may use this bag). The removed tokens are released after the
  /// lock too, since releasing a token may end an observation.
  private func dropEndedObservations(among snapshot: [ObserverToken]) {
    let ended = Set(snapshot.lazy.filter { !$0.isActive }.map(ObjectIdentifier.init))
    let removed = contents.withLock { contents -> [ObserverToken] in
      contents.tokensVisited += snapshot.count
      var removed: [ObserverToken] = []
      if !ended.isEmpty {
        contents.tokensVisited += contents.tokens.count
        // The snapshot holds every ended token, so no identifier in `ended` can have been reused
        // by a token inserted meanwhile.
        removed.reserveCapacity(ended.count)
        contents.tokens.removeAll { token in
          guard ended.contains(ObjectIdentifier(token)) else { return false }
          removed.append(token)
          return true
        }
        for token in removed { contents.identifiers.remove(ObjectIdentifier(token)) }
      }
      contents.pruneThreshold = max(Self.minimumPruneThreshold, contents.tokens.count * 2)
      return removed
    }
    // Already ended: cancelling only tells the center at once (an owner that deinitialised leaves
    // its registration to be reclaimed lazily otherwise). Released here, after the lock.
    for token in removed { token.cancel() }
  }

  /// Cancels every token held and empties the bag.
  public func cancelAll() {
    let taken = contents.withLock { contents in
      defer {
        contents.tokens = []
        contents.identifiers = []
        contents.pruneThreshold = Self.minimumPruneThreshold
      }
      return contents.tokens
    }
    // Cancelled outside the bag's lock: ending an async sequence's observation resumes its consumer.
    for token in taken { token.cancel() }
  }
}
