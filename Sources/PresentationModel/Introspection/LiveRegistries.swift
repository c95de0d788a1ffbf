/// The engine of every center and bridge alive in the process, so that diagnostics (the leak
/// harness's report) can look in all of them without being told which ones exist.
///
/// An engine adds itself when its center is made, and removes itself first thing in the center's
/// `deinit`. The set holds engines weakly and never holds a center: a diagnostic must not keep a
/// center alive, even for a moment (a test may be checking that it deallocates). Costs one lock and
/// one dictionary change per center made and per center released, nothing per registration or post.
package enum LiveRegistries {
  private struct WeakEngine: Sendable {
    weak var engine: Engine?
  }

  private static let engines = LockedState<[ObjectIdentifier: WeakEngine]>([:])

  static func insert(_ engine: Engine) {
    engines.withLock { $0[ObjectIdentifier(engine)] = WeakEngine(engine: engine) }
  }

  static func remove(_ engine: Engine) {
    _ = engines.withLock { $0.removeValue(forKey: ObjectIdentifier(engine)) }
  }

  /// Calls `body` with the live registrations of every center and bridge, with their handlers, in
  /// the listing order of each (centers in no particular order): only those recorded in `log` when
  /// one is given (a test's report copies its own test's handlers, never another's, which it would
  /// keep alive while it holds them); otherwise those made outside every open scope. `body` may drop
  /// the snapshots it no longer needs; every copy is released before this returns. A copy of a
  /// main-actor handler dropped here off the main queue is released by a block enqueued on the main
  /// queue (``MainActorReleased``).
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
    let live = engines.withLock { $0.values.compactMap(\.engine) }
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
      ? MainQueue.valueOnMainActor { onMainActor.flatMap { $0.unendedRegistrationsWithHandlers(where: isIncluded) } }
        ?? [] : []
    for engine in live where !engine.isMainActor {
      copied.append(contentsOf: engine.unendedRegistrationsWithHandlers(where: isIncluded))
    }
    return copied.filter(\.registration.isLive)
  }
}
