// Registering: `observe` and its variants make a registration and its entry and hand the entry to
// `register(_:for:)`, which appends the entry to the channel of the notification type under
// the lock.
extension TypedNotificationCenter {
  /// Registers `handler` without an owner: token-bound, main-actor and one-shot observers.
  func register<N: TypedNotification>(
    sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    handler: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    #if DEBUG
      SenderCheck.check(sender, fileID: fileID, line: line)
    #endif
    let registration = Registration<N>(center: self, sender: sender, flags: flags, fileID: fileID, line: line)
    return register(PlainEntry(registration: registration, handler: handler), for: N.self)
  }

  /// Registers `handler` bound to `owner`.
  func register<Owner: AnyObject, N: TypedNotification>(
    owner: Owner, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    handler: @escaping @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    #if DEBUG
      OwnerCaptureCheck.check(owner: owner, handler: handler, flags: flags, fileID: fileID, line: line)
      SenderCheck.check(sender, fileID: fileID, line: line)
    #endif
    let registration = OwnedRegistration<N>(
      center: self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    return register(OwnerBoundEntry(registration: registration, handler: handler), for: N.self)
  }

  /// Adds `entry` to the channel of `type` and returns the token of its registration.
  ///
  /// Not generic, and kept apart from the construction of the registration, so that the common path
  /// never mentions `AsyncStream`, whose resilient metadata would be looked up on every
  /// registration, nor any other generic type.
  func register(_ entry: Entry, for type: any TypedNotification.Type) -> ObserverToken {
    let registration = entry.registration
    let token = ObserverToken(registration: registration)
    #if DEBUG
      RegistrationDiagnostics.log?.insert(ObjectIdentifier(registration))
    #endif
    if registration.startsDead {
      registration.end()
      return token
    }
    let key = ObjectIdentifier(type)
    let (reclaimed, sweepDue) = state.withLock { state in
      var reclaimed = Reclaimed()
      let channel: Channel
      if let existing = state.channels[key] {
        channel = existing
      } else {
        channel = Channel()
        state.channels.insert(channel, for: key)
      }
      let sweepDue = channel.append(entry, into: &reclaimed)
      return (reclaimed, sweepDue)
    }
    reclaimed.drop()
    if sweepDue { pruneDeadRegistrations(of: key) }
    return token
  }
}
