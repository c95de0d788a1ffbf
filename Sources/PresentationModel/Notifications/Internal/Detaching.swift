// The typed center's part of the end path (RegistrationCore+Ending.swift): `detach` and `endAll`.
extension TypedNotificationCenter: ObservationRegistry {
  var registryName: StaticString { "TypedNotificationCenter" }
  var registryKind: RegistryKind { .typedCenter }

  /// Releases the entry of `registration`, which has just ended (after unlocking), or leaves that
  /// to the last post reading the channel's storage.
  func detach(_ registration: RegistrationCore) {
    let key = ObjectIdentifier(registration.notificationType)
    let released = state.withLock { state in
      var released = ReleasedAfterUnlock()
      guard let channel = state.channels[key] else { return released }
      if channel.tombstone(registration, into: &released), channel.count == 0 {
        state.removeChannel(for: key, into: &released)
      }
      return released
    }
    released.drop()
  }

  func unendedRegistrations(of notificationType: ObjectIdentifier?) -> [RegistrationCore] {
    state.withLock { state in
      guard let notificationType else { return state.channels.values.flatMap(\.unendedRegistrations) }
      return state.channels[notificationType]?.unendedRegistrations ?? []
    }
  }

  func unendedRegistrationsWithHandlers(where isIncluded: @Sendable (RegistrationCore) -> Bool) -> [RegisteredHandler] {
    state.withLock { state in
      var copies: [RegisteredHandler] = []
      for channel in state.channels.values { channel.appendRegistrationsWithHandlers(to: &copies, where: isIncluded) }
      return copies
    }
  }

  /// Empties every channel (the center is deinitialising) and ends their registrations.
  func endAll() {
    var registrations: [RegistrationCore] = []
    let released = state.withLock { state in
      var released = ReleasedAfterUnlock()
      for channel in state.channels.values {
        registrations += channel.removeAll(into: &released)
        released.keep(channel)  // so that emptying the table below releases none of them
      }
      state.channels = ChannelTable()
      return released
    }
    released.drop()
    // Streams finish their sequences; the others only take the ended state.
    for registration in registrations { registration.end() }
  }
}
