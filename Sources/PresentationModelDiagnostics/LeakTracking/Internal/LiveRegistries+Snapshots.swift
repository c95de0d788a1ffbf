internal import Dispatch

// The leak harness's copies of every live center's registrations: which engines it reads, in which
// order, and which registrations a test's report may copy. The core offers the engines
// (`LiveRegistries.live`) and each engine's copy (`Engine.unendedRegistrationsWithHandlers`).
extension LiveRegistries {
  /// Calls `body` with the live registrations of every center and bridge, with their handlers, in
  /// the listing order of each (centers in no particular order): only those recorded in `log` when
  /// one is given (a test's report copies its own test's handlers, never another's, which it would
  /// keep alive while it holds them); otherwise those made outside every open scope. `body` may drop
  /// the snapshots it no longer needs; every copy is released before this returns. A copy of a
  /// main-actor handler dropped here off the main queue is released by a block enqueued on the main
  /// queue (`MainActorReleased`).
  ///
  /// Lock order: each center's exclusive section, then the set of open logs' lock, then each log's;
  /// nothing takes them the other way round. The handlers are retained by the copies and released
  /// here, outside every lock. Main-actor engines are read by a block on the main queue (at once on
  /// the main queue), which this waits for at most two seconds: a diagnostic made off the main queue
  /// while the main queue is blocked leaves them out. Without a log, or with one that recorded a
  /// main-actor center's registration, it may wait so; otherwise it never waits for the main queue.
  package static func withRegistrationSnapshots<Result>(
    of log: LeakScopeLog?, _ body: (inout [RegistrationSnapshot]) -> Result
  ) -> Result {
    var snapshots = registrationSnapshots(of: log)
    let result = body(&snapshots)
    snapshots = []
    return result
  }

  private static func registrationSnapshots(of log: LeakScopeLog?) -> [RegistrationSnapshot] {
    let live = Self.live
    // A report outside every scope leaves alone the registrations of the tests in one.
    let isIncluded: @Sendable (Registration) -> Bool = { registration in
      log?.contains(registration) ?? !LeakScopeLog.isInAnOpenScope(registration)
    }
    // The main-actor engines first: the wait for the main queue must not prolong the copies of the
    // other engines' handlers (a test may be waiting for a handler's captures to go). No wait at all
    // when there is none, or when the log has no registration of one.
    let onMainActor = live.filter(\.isMainActor)
    var copied =
      !onMainActor.isEmpty && (MainQueue.isCurrent || log?.hasMainActorCenterRegistrations ?? true)
      ? valueOnMainActor { onMainActor.flatMap { $0.unendedRegistrationsWithHandlers(where: isIncluded) } } ?? []
      : []
    for engine in live where !engine.isMainActor {
      copied.append(contentsOf: engine.unendedRegistrationsWithHandlers(where: isIncluded))
    }
    return copied.map(RegistrationSnapshot.init).filter(\.registration.isLive)
  }

  /// `body`'s result, computed on the main actor: at once on the main queue, otherwise by a block on
  /// the main queue that this waits for at most `timeout` (`nil` when it did not run in time).
  private static func valueOnMainActor<Value: Sendable>(
    timeout: DispatchTimeInterval = .seconds(2), _ body: @escaping @MainActor @Sendable () -> Value
  ) -> Value? {
    if MainQueue.isCurrent {
      // assumeIsolated: `isCurrent` means this runs on the main queue, the main actor's executor
      // (or on the main thread), which is what the main actor's isolation check accepts.
      return MainActor.assumeIsolated { body() }
    }
    let result = LockedState<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
      // assumeIsolated: a block on the main queue runs on the main actor's executor.
      let value = MainActor.assumeIsolated { body() }
      result.withLock { $0 = value }
      done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success else { return nil }
    return result.withLock { $0.take() }
  }
}
