// The main-actor center on the observation layer (ObservationRegistry.swift): its start
// (`register`), its part of the end path (`detach`, always on the main actor), the reads the
// queries and diagnostics share, and its end (`deinit` → `releaseOnMainQueue`).
extension MainActorNotificationCenter {
  func register<N: MainActorNotification>(
    owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    form: StaticString, userHandler: @autoclosure () -> Any, handler: MainActorHandler<N>
  ) -> ObserverToken {
    let registration = Registration<N>.make(
      in: self, owner: owner, sender: sender, flags: flags.union(.mainActor), fileID: fileID, line: line)
    return register(
      registration, form: form, fileID: fileID, line: line, userHandler: userHandler(), handler: handler)
  }

  /// Adds `registration`, made for this center (its flags contain `mainActor`), with `handler` to
  /// the channel of `N` and returns its token.
  func register<N: MainActorNotification>(
    _ registration: Registration<N>, form: StaticString, fileID: StaticString, line: Int,
    userHandler: @autoclosure () -> Any, handler: MainActorHandler<N>
  ) -> ObserverToken {
    let token = ObserverToken(registration: registration)
    guard admit(token, handler: userHandler(), form: form, fileID: fileID, line: line) else { return token }
    let key = ObjectIdentifier(N.self)
    let channel: MainActorChannel<N>
    if let existing = channels[key] {
      channel = unsafeDowncast(existing, to: MainActorChannel<N>.self)
    } else {
      channel = MainActorChannel<N>()
      channels[key] = channel
    }
    let sweepDue = channel.append(registration, handler: handler)
    if sweepDue {
      let liveCount = endDeadRegistrations(of: key)
      if let swept = channels[key] {
        unsafeDowncast(swept, to: MainActorChannel<N>.self).sweepFinished(liveCount: liveCount)
      }
    }
    return token
  }

  /// Releases the entry of `registration`, which has just ended, on the main actor.
  func detachOnMainActor(_ registration: RegistrationCore) {
    let key = ObjectIdentifier(registration.notificationType)
    guard let channel = channels[key] else { return }
    var released = ReleasedAfterUnlock()
    channel.tombstone(registration, into: &released)
    if channel.isEmpty && !channel.isRead, let removed = channels.removeValue(forKey: key) {
      released.keep(removed)
    }
    released.drop()  // after every mutation is over
  }
}

extension MainActorNotificationCenter: ObservationRegistry {
  nonisolated var registryName: StaticString { "MainActorNotificationCenter" }
  nonisolated var registryKind: RegistryKind { .mainActorCenter }

  /// `end()` may run on any thread (a token cancelled or released elsewhere): the ended state is
  /// already set, so no post calls the handler again; releasing the handler, which may capture
  /// non-Sendable state, waits for the main queue.
  nonisolated func detach(_ registration: RegistrationCore) {
    MainQueue.runOnMainActor { self.detachOnMainActor(registration) }
  }

  /// Main-actor state: called on the main actor only: by the center's own (main-actor) queries and sweep, and by
  /// `LiveRegistries` on the main queue.
  nonisolated func unendedRegistrations(of notificationType: ObjectIdentifier?) -> [RegistrationCore] {
    // assumeIsolated: see above; it traps, naming the main actor, if a caller breaks that rule.
    MainActor.assumeIsolated {
      let channels = notificationType.map { self.channels[$0].map { [$0] } ?? [] } ?? Array(self.channels.values)
      return channels.flatMap { $0.registrations.filter { !$0.hasEnded } }
    }
  }

  nonisolated func unendedRegistrationsWithHandlers(
    where isIncluded: @Sendable (RegistrationCore) -> Bool
  ) -> [RegisteredHandler] {
    // assumeIsolated: as in `unendedRegistrations(of:)`.
    MainActor.assumeIsolated { self.channels.values.flatMap { $0.registrationsWithHandlers(where: isIncluded) } }
  }

  /// The end of a center: its registrations end at once (on the deinitialising thread: the ended
  /// state is atomic; there is no registry left to detach from, and an async sequence finishes),
  /// and its channels, taken by `deinit` (which holds the only reference to them), are released on
  /// the main queue, since their handlers may capture non-Sendable state.
  nonisolated static func releaseOnMainQueue(_ channels: [ObjectIdentifier: AnyMainActorChannel]) {
    for channel in channels.values {
      for registration in channel.registrations { registration.end() }
    }
    var released = ReleasedAfterUnlock()
    released.keep(value: channels)
    released.dropOnMainQueue()
  }
}
