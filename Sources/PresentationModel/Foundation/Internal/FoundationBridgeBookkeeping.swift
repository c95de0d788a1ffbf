internal import Dispatch
internal import Foundation

// The bridge on the observation layer (ObservationRegistry.swift): how it makes, installs, lists
// and detaches its registrations. Its delivery engine is the Foundation center: each registration
// installs one Foundation observer, whose block checks the registration and calls the handler.
extension FoundationNotificationBridge {
  /// The registrations made through the bridge, by identity.
  struct Table {
    var entries: [ObjectIdentifier: BridgeEntry] = [:]
    var nextOrder = 0
    /// At this many entries, the next registration also sweeps registrations whose owner or sender
    /// died unnoticed (nothing posted since): a Foundation center has no other moment to drop
    /// their observers. Set from the survivors after each sweep, so the table holds at most about
    /// twice its live registrations (plus 32).
    var sweepThreshold = 32
  }

  /// Every access to the table: `table.withLock`, which in debug builds also marks the calling
  /// thread as holding the lock (``isTableLockHeldOnThisThread``, a test hook: the tests check
  /// from ``OwnerLoadProbe`` that no owner or sender is loaded under it).
  @inline(__always)
  func withTable<Result>(_ body: (inout Table) throws -> Result) rethrows -> Result {
    try table.withLock { table in
      #if DEBUG
        try Self.$holdsTableLock.withValue(true) { try body(&table) }
      #else
        try body(&table)
      #endif
    }
  }

  #if DEBUG
    /// Set while the current thread holds a bridge's table lock (debug builds only).
    @TaskLocal static var holdsTableLock = false
  #endif

  func observeClassic<N: FoundationNotification>(
    _ type: N.Type, object: AnyObject?, owner: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    form: StaticString, handler: Any, deliver: @escaping @Sendable (RegistrationCore, N) -> Void
  ) -> ObserverToken {
    let registration = Registration<N>.make(
      in: self, owner: owner, sender: object, flags: flags, fileID: fileID, line: line)
    return observeClassic(
      registration, object: object, fileID: fileID, line: line, form: form, handler: handler, deliver: deliver)
  }

  /// Lists `registration`, made for this bridge, and installs a Foundation observer of `N.name`
  /// whose block checks it, converts the notification and hands it to `deliver`.
  func observeClassic<N: FoundationNotification>(
    _ registration: Registration<N>, object: AnyObject?, fileID: StaticString, line: Int, form: StaticString,
    handler: Any, deliver: @escaping @Sendable (RegistrationCore, N) -> Void
  ) -> ObserverToken {
    register(registration, fileID: fileID, line: line, form: form, handler: handler) { registration in
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
    form: StaticString, handler: Any, install: (RegistrationCore) -> FoundationObservation
  ) -> ObserverToken {
    let registration = Registration<N>.make(
      in: self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    return register(registration, fileID: fileID, line: line, form: form, handler: handler, install: install)
  }

  /// Lists `registration`, made for this bridge, then lets `install` add its Foundation observer
  /// (unless its owner or sender was already deinitialising: the token is then ended at once).
  func register(
    _ registration: RegistrationCore, fileID: StaticString, line: Int, form: StaticString, handler: Any,
    install: (RegistrationCore) -> FoundationObservation
  ) -> ObserverToken {
    let token = ObserverToken(registration: registration)
    guard admit(token, handler: handler, form: form, fileID: fileID, line: line) else { return token }
    let key = ObjectIdentifier(registration)
    let sweepDue = withTable { table in
      table.entries[key] = BridgeEntry(
        order: table.nextOrder, registration: registration, handler: handler, observation: nil)
      table.nextOrder += 1
      guard table.entries.count >= table.sweepThreshold else { return false }
      table.sweepThreshold = .max  // one sweep at a time
      return true
    }
    let observation = install(registration)
    // Installing and ending may race (an owner dying during a post on another thread): an entry
    // already detached gets no observer, so the one just installed is removed here.
    let orphaned = withTable { table -> FoundationObservation? in
      guard table.entries[key] != nil else { return observation }
      table.entries[key]?.observation = observation
      return nil
    }
    orphaned?.remove(from: notificationCenter)
    if sweepDue {
      let liveCount = endDeadRegistrations(of: nil)
      withTable { table in table.sweepThreshold = Swift.max(32, liveCount * 2) }
    }
    return token
  }
}

extension FoundationNotificationBridge: ObservationRegistry {
  var registryName: StaticString { "FoundationNotificationBridge" }
  var registryKind: RegistryKind { .foundationBridge }

  /// Drops the entry of `registration`, which has ended, and removes its Foundation observer (with
  /// it, the block and the handler), after unlocking.
  func detach(_ registration: RegistrationCore) {
    let (released, observation) = withTable { table in
      var released = ReleasedAfterUnlock()
      let removed = table.entries.removeValue(forKey: ObjectIdentifier(registration))
      if let removed { released.keep(value: removed) }
      return (released, removed?.observation)
    }
    observation?.remove(from: notificationCenter)
    released.drop()
  }

  func unendedRegistrations(of notificationType: ObjectIdentifier?) -> [RegistrationCore] {
    unendedEntries(of: notificationType).map(\.registration)
  }

  func unendedRegistrationsWithHandlers(where isIncluded: @Sendable (RegistrationCore) -> Bool) -> [RegisteredHandler] {
    unendedEntries(of: nil, where: isIncluded).map {
      RegisteredHandler(registration: $0.registration, handler: $0.handler)
    }
  }

  /// The entries of `notificationType` (every type when `nil`) whose registration has not ended and
  /// that `isIncluded` accepts, copied out in registration order.
  private func unendedEntries(
    of notificationType: ObjectIdentifier?, where isIncluded: @Sendable (RegistrationCore) -> Bool = { _ in true }
  ) -> [BridgeEntry] {
    withTable { table in
      table.entries.values.filter { entry in
        !entry.registration.hasEnded
          && (notificationType.map { ObjectIdentifier(entry.registration.notificationType) == $0 } ?? true)
          && isIncluded(entry.registration)
      }
    }.sorted { $0.order < $1.order }
  }

  /// Removes every entry (the bridge is deinitialising) and their Foundation observers, then ends
  /// each registration (it has no registry left to detach from).
  func endAll() {
    let (released, taken) = withTable { table in
      var released = ReleasedAfterUnlock()
      let taken = Array(table.entries.values)
      released.keep(value: table.entries)
      table.entries = [:]
      return (released, taken)
    }
    for entry in taken { entry.observation?.remove(from: notificationCenter) }
    released.drop()
    for entry in taken { entry.registration.end() }
  }
}
