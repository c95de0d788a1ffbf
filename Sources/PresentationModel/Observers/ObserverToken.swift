/// A handle on one observation: cancel it, ask whether it is still active, or keep it in a set or
/// bag whose lifetime bounds the observation.
///
/// What releasing a token does depends on how the observation was made:
/// - without an owner (`observe`, `observeOnMainActor` or `observeOnce` with no `owner:`), the
///   token keeps the observation alive; releasing the last reference to it cancels the observation;
/// - with an owner (`owner:`), the owner bounds the observation and releasing the token does
///   nothing. Keep it only to end the observation before the owner goes;
/// - for an async sequence, the sequence and its iterators keep the observation alive; its
///   ``TypedNotificationSequence/token`` (or ``MainActorNotificationSequence/token``) only lets
///   you end it from outside.
///
/// ```swift
/// struct Ping: TypedNotification {}
/// let center = TypedNotificationCenter()
/// var tokens = Set<ObserverToken>()
/// center.observe(Ping.self) { _ in print("ping") }.store(in: &tokens)
/// center.post(Ping())
/// tokens.removeAll()  // ends the observation
/// ```
///
/// > Note: `cancel()` is idempotent and may be called from any thread, including from inside a
/// > handler, after the owner deinitialised, or after the center itself is gone. Once `cancel()`
/// > returns, the handler is not called again by any post that starts afterwards, and not again on
/// > the cancelling thread at all.
public final class ObserverToken: Hashable, Sendable {
  package let registration: Registration

  init(registration: Registration) {
    self.registration = registration
  }

  deinit {
    if registration.flags.contains(.endsWithToken) { registration.end() }
  }

  /// Whether the observation can still deliver: not cancelled, not yet fired (one-shot), and its
  /// owner and sender filter still alive.
  public var isActive: Bool { registration.isLive }

  /// Ends the observation. Calling it again, or after the observation ended otherwise, does nothing.
  public func cancel() {
    registration.end()
  }

  /// What the observation is, and where it was made.
  public var info: RegistrationInfo { registration.info }

  /// Inserts the token into `set`; removing it, or releasing the set, ends an owner-less
  /// observation.
  public func store(in set: inout Set<ObserverToken>) {
    set.insert(self)
  }

  /// Adds the token to `bag`, which cancels it when the bag is released or emptied.
  public func store(in bag: ObserverBag) {
    bag.insert(self)
  }

  /// Whether both are the same token: tokens compare by identity.
  public static func == (lhs: ObserverToken, rhs: ObserverToken) -> Bool {
    lhs === rhs
  }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
