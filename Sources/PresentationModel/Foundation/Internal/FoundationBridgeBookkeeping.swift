internal import Dispatch
internal import Foundation

// How the bridge makes, lists and forgets its registrations.
extension FoundationNotificationBridge {
  func observeClassic<N: FoundationNotification>(
    _ type: N.Type, object: AnyObject?, owner: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    deliver: @escaping @Sendable (BridgedRegistration<N>, N) -> Void
  ) -> ObserverToken {
    register(N.self, owner: owner, sender: object, flags: flags, fileID: fileID, line: line) { registration in
      let observer = notificationCenter.addObserver(forName: N.name, object: object, queue: nil) { notification in
        guard registration.admitsDelivery() else { return }
        guard let value = N(notification) else {
          ConversionFailures.report(N.self, name: N.name)
          return
        }
        // Again: the conversion is user code, and may have cancelled this very observation.
        guard registration.admitsDelivery() else { return }
        deliver(registration, value)
      }
      return .classic(observer)
    }
  }

  /// Makes and lists a registration for `N`, then lets `install` add its Foundation observer
  /// (unless its owner or sender was already deinitialising: the token is then ended at once).
  func register<N>(
    _ type: N.Type, owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    install: (BridgedRegistration<N>) -> FoundationObservation
  ) -> ObserverToken {
    let registration = BridgedRegistration<N>(
      bridge: self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    let token = ObserverToken(registration: registration)
    let (admitted, sweepDue) = admit(registration)
    guard admitted else { return token }
    registration.install(install(registration))
    if sweepDue { sweepDeadRegistrations() }
    return token
  }

  /// Lists `registration`; not admitted (and ended) if its owner or sender was already
  /// deinitialising. A sweep is due when the list has grown to its threshold.
  func admit<N>(_ registration: BridgedRegistration<N>) -> (admitted: Bool, sweepDue: Bool) {
    guard !registration.startsDead else {
      registration.end()
      return (false, false)
    }
    let sweepDue = table.withLock { table in
      table.registrations[ObjectIdentifier(registration)] = (table.nextOrder, registration)
      table.nextOrder += 1
      guard table.registrations.count >= table.sweepThreshold else { return false }
      table.sweepThreshold = .max  // one sweep at a time
      return true
    }
    return (true, sweepDue)
  }

  /// Ends the registrations whose owner or sender died unnoticed, so their Foundation observers
  /// (and handlers) are released even when nothing is posted, and sets the next sweep. Unlocked:
  /// it loads owners and ends registrations, either of which may run a `deinit`.
  func sweepDeadRegistrations() {
    let liveCount = endDeadRegistrationsAndListLiveOnes().count
    table.withLock { $0.sweepThreshold = Swift.max(32, liveCount * 2) }
  }

  /// Drops `registration`, which has ended, from the list.
  func forget(_ registration: RegistrationCore) {
    let removed = table.withLock { $0.registrations.removeValue(forKey: ObjectIdentifier(registration)) }
    _ = removed  // released here, after the lock
  }

  /// Runs `body` on the main actor: at once when already there, otherwise enqueued on the main
  /// queue.
  static func onMainActor(_ body: @escaping @MainActor () -> Void) {
    if MainQueue.isCurrent {
      // assumeIsolated: MainQueue.isCurrent means this runs on the main actor's executor.
      MainActor.assumeIsolated { body() }
    } else {
      DispatchQueue.main.async {
        // assumeIsolated: a block on the main queue runs on the main actor's executor.
        MainActor.assumeIsolated { body() }
      }
    }
  }
}
