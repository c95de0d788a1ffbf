internal import Synchronization

// The leak harness's side of a test's log: opening and closing its scope around a test, and reading
// what it recorded. The core keeps only what a registration and a fade write (`LeakScopeLog`).
extension LeakScopeLog {
  /// The logs whose scopes are open, each with how many times it is open: a leak report made
  /// outside every scope leaves their registrations alone.
  private static let openLogs = LockedState<[ObjectIdentifier: (log: LeakScopeLog, count: Int)]>([:])

  /// Runs `body` with `log` as the log of its task and of the tasks that inherit its task-locals.
  package static func withScope<Result>(
    _ log: LeakScopeLog, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async rethrows -> Result {
    log.open()
    defer { log.close() }
    return try await $current.withValue(log, operation: body, isolation: isolation)
  }

  /// The synchronous form of ``withScope(_:isolation:_:)``.
  package static func withScope<Result>(_ log: LeakScopeLog, _ body: () throws -> Result) rethrows -> Result {
    log.open()
    defer { log.close() }
    return try $current.withValue(log, operation: body)
  }

  private func open() {
    Self.openScopes.add(1, ordering: .relaxed)
    Self.openLogs.withLock { logs in
      logs[ObjectIdentifier(self), default: (self, 0)].count += 1
    }
  }

  private func close() {
    // The log itself is released after unlocking: it holds only weak references, but its release
    // must not run under a lock a center's lock may be taken after.
    let closed = Self.openLogs.withLock { logs -> LeakScopeLog? in
      let key = ObjectIdentifier(self)
      guard let entry = logs[key] else { return nil }
      if entry.count > 1 {
        logs[key]?.count -= 1
        return nil
      }
      return logs.removeValue(forKey: key)?.log
    }
    withExtendedLifetime(closed) {}
    Self.openScopes.subtract(1, ordering: .relaxed)
  }

  /// Whether `registration` was made in the scope of a log that is open now. Called under a
  /// center's lock.
  static func isInAnOpenScope(_ registration: Registration) -> Bool {
    openLogs.withLock { logs in logs.values.contains { $0.log.contains(registration) } }
  }

  /// Whether `registration` was made in this scope. Called under a center's lock: loads only the
  /// record's weak reference to the registration, which the center holds.
  func contains(_ registration: Registration) -> Bool {
    records.withLock { $0.registrations[ObjectIdentifier(registration)]?.registration === registration }
  }

  /// The registrations made in the scope, in the order they were made (those already gone
  /// included: their weak references read `nil`).
  package var registrations: [RegistrationRecord] {
    records.withLock { Array($0.registrations.values) }.sorted { $0.order < $1.order }
  }

  /// Whether a registration made in the scope and not yet gone belongs to a
  /// `MainActorNotificationCenter` (whose storage is read on the main queue).
  var hasMainActorCenterRegistrations: Bool {
    registrations.contains { $0.registration?.engine?.isMainActor ?? false }
  }
}

extension LeakScopeLog.RegistrationRecord {
  /// Whether it has not ended and its owner and sender filter (if any) are alive: what a test
  /// must not leave behind. Loads the owner and sender: call it with no lock held.
  package var isLive: Bool { registration?.isLive ?? false }
  /// What it observes and where it was made, while the registration object exists.
  package var info: RegistrationInfo? { registration?.info }
  /// The owner of an owner-bound registration, while it is alive.
  package var owner: AnyObject? { registration?.owner }
}
