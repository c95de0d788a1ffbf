// Pruning: registrations whose owner or sender died are found by a post that reaches them, or by
// the one pass below, which both queries (`observerCount`, `registrations`) and the registration
// sweep use. The queries only read its answer; the sweep also ends what it found dead.
//
// It is the only place besides delivery that loads owners and senders: it copies the registrations
// out under the lock and loads them after unlocking, because a load makes a strong reference whose
// release may run the owner's `deinit`, which may call back into the center.
extension TypedNotificationCenter {
  /// The registrations of the channel of `key`, in registration order, split into the live ones and
  /// those found dead (owner or sender gone) but not yet ended. Changes nothing.
  func registrationsByLiveness(of key: ObjectIdentifier) -> (live: [RegistrationCore], dead: [RegistrationCore]) {
    let registrations = state.withLock { state in state.channels[key]?.registrations ?? [] }
    var live: [RegistrationCore] = []
    var dead: [RegistrationCore] = []
    live.reserveCapacity(registrations.count)
    for registration in registrations {
      if registration.isLive {
        live.append(registration)
      } else if !registration.hasEnded {
        dead.append(registration)
      }
    }
    return (live, dead)
  }

  /// Ends the registrations of the channel of `key` whose owner or sender died, so their entries
  /// are reclaimed, and returns how many were live.
  func pruneDeadRegistrations(of key: ObjectIdentifier) -> Int {
    let (live, dead) = registrationsByLiveness(of: key)
    for registration in dead { registration.end() }
    return live.count
  }
}
