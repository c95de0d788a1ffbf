// Registering: `observe` and its variants make a registration and its entry and hand the entry to
// `register(_:for:)`, which appends the entry to the channel of the notification type under
// the lock.
extension TypedNotificationCenter {
  /// Registers `handler` without an owner: token-bound, main-actor and one-shot observers.
  func register<N: TypedNotification>(
    sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    handler: @escaping @Sendable (N) -> Void
  ) -> ObserverToken {
    let registration = Registration<N>(registry: self, sender: sender, flags: flags, fileID: fileID, line: line)
    return register(
      PlainEntry(registration: registration, handler: handler), for: N.self, form: "observe(_:)", fileID: fileID,
      line: line)
  }

  /// Registers `handler` bound to `owner`.
  func register<Owner: AnyObject, N: TypedNotification>(
    owner: Owner, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    handler: @escaping @Sendable (Owner, N) -> Void
  ) -> ObserverToken {
    let registration = OwnedRegistration<N>(
      registry: self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    let form: StaticString =
      flags.contains(.oneShot)
      ? "observeOnce(_:owner:)" : flags.contains(.mainActor) ? "observeOnMainActor(_:owner:)" : "observe(_:owner:)"
    return register(
      OwnerBoundEntry(registration: registration, handler: handler), for: N.self, form: form, fileID: fileID, line: line
    )
  }

  /// Adds `entry` to the channel of `type` and returns the token of its registration.
  ///
  /// Not generic, and kept apart from the construction of the registration, so that the common path
  /// never mentions `AsyncStream`, whose resilient metadata would be looked up on every
  /// registration, nor any other generic type.
  func register(
    _ entry: Entry, for type: any TypedNotification.Type, form: StaticString, fileID: StaticString, line: Int
  ) -> ObserverToken {
    let registration = entry.registration
    let token = ObserverToken(registration: registration)
    guard admit(token, handler: entry.anyHandler, form: form, fileID: fileID, line: line) else { return token }
    let key = ObjectIdentifier(type)
    let (released, sweepDue) = state.withLock { state in
      var released = ReleasedAfterUnlock()
      let channel: Channel
      if let existing = state.channels[key] {
        channel = existing
      } else {
        channel = Channel()
        state.channels.insert(channel, for: key)
      }
      let sweepDue = channel.append(entry, into: &released)
      return (released, sweepDue)
    }
    released.drop()
    if sweepDue {
      let liveCount = endDeadRegistrations(of: key)
      state.withLock { state in state.channels[key]?.sweepFinished(liveCount: liveCount) }
    }
    return token
  }
}
