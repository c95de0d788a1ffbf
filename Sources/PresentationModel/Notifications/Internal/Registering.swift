// Registering: `observe` and its variants make a registration and hand it, with its handler, to
// `register`, which appends an entry to the channel of `N` under the lock.
extension TypedNotificationCenter {
  func register<N: TypedNotification>(
    owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    handler: EntryHandler<N>
  ) -> ObserverToken {
    #if DEBUG
      if let owner, case .owned(let body) = handler {
        OwnerCaptureCheck.check(owner: owner, handler: body, flags: flags, fileID: fileID, line: line)
      }
    #endif
    let registration = Registration<N>(
      center: self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    return register(registration, handler: handler)
  }

  /// Adds `registration` with `handler`.
  ///
  /// Kept apart from the construction of the registration so that the common path never mentions
  /// `AsyncStream`, whose resilient metadata would be looked up on every registration.
  func register<N: TypedNotification>(_ registration: Registration<N>, handler: EntryHandler<N>) -> ObserverToken {
    let token = ObserverToken(registration: registration)
    #if DEBUG
      RegistrationDiagnostics.log?.insert(ObjectIdentifier(registration))
    #endif
    if registration.startsDead {
      registration.end()
      return token
    }
    let key = ObjectIdentifier(N.self)
    let entry = Entry.make(registration: registration, handler: handler)
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
