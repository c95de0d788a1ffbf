internal import Dispatch

/// Every center and bridge alive in the process (every ``ObservationRegistry``), so that
/// diagnostics (the leak harness's report) can look in all of them without being told which ones
/// exist.
///
/// A registry adds itself in `init` and removes itself first thing in `deinit`. The set never
/// retains a registry (a diagnostic must not keep a center alive, even for a moment: a test may be
/// checking that it deallocates): diagnostics read a registry under the set's lock, where its
/// `deinit` (blocked on that lock) cannot have progressed past its first line, so its storage is
/// intact. A main-actor registry is read on the main queue, under the same lock. Costs one lock
/// and one dictionary change per registry made and per registry released, nothing per registration
/// or post.
package enum LiveRegistries {
  /// An unretained reference to a registry, by its concrete type: dereferenced only through
  /// `_withUnsafeGuaranteedRef`, which neither retains nor releases it (a retain and release of a
  /// registry whose `deinit` has begun on another thread would run that `deinit` again, here).
  private enum Entry: @unchecked Sendable {
    // @unchecked Sendable: the references are only dereferenced under the set's lock, while the
    // registry cannot be deallocated (its deinit first removes this entry, under the same lock).
    case typed(Unmanaged<TypedNotificationCenter>)
    case mainActor(Unmanaged<MainActorNotificationCenter>)
    case bridge(Unmanaged<FoundationNotificationBridge>)

    var readsOnMainActor: Bool {
      if case .mainActor = self { return true }
      return false
    }

    /// The registry's unended registrations that `isIncluded` accepts, with their handlers; under
    /// the set's lock (and, for the main-actor center, on the main queue).
    func copyRegistrations(where isIncluded: @Sendable (RegistrationCore) -> Bool) -> [RegisteredHandler] {
      switch self {
      case .typed(let center):
        center._withUnsafeGuaranteedRef { $0.unendedRegistrationsWithHandlers(where: isIncluded) }
      case .mainActor(let center):
        center._withUnsafeGuaranteedRef { $0.unendedRegistrationsWithHandlers(where: isIncluded) }
      case .bridge(let bridge):
        bridge._withUnsafeGuaranteedRef { $0.unendedRegistrationsWithHandlers(where: isIncluded) }
      }
    }
  }

  private static let entries = LockedState<[ObjectIdentifier: Entry]>([:])

  static func insert(_ center: TypedNotificationCenter) {
    insert(.typed(.passUnretained(center)), for: ObjectIdentifier(center))
  }

  static func insert(_ center: MainActorNotificationCenter) {
    insert(.mainActor(.passUnretained(center)), for: ObjectIdentifier(center))
  }

  static func insert(_ bridge: FoundationNotificationBridge) {
    insert(.bridge(.passUnretained(bridge)), for: ObjectIdentifier(bridge))
  }

  private static func insert(_ entry: Entry, for identifier: ObjectIdentifier) {
    entries.withLock { $0[identifier] = entry }
  }

  static func remove(_ registry: ObjectIdentifier) {
    _ = entries.withLock { $0.removeValue(forKey: registry) }
  }

  /// Calls `body` with the live registrations of every center and bridge, with their handlers, in
  /// the listing order of each (centers in no particular order): only those recorded in `log` when
  /// one is given (a test's report copies its own test's handlers, never another's, which it would
  /// keep alive while it holds them); otherwise those made outside every open scope. `body` may drop the snapshots it no longer needs; every copy
  /// is released before this returns. A copy of a main-actor handler dropped here off the main
  /// queue is released by a block enqueued on the main queue (``MainActorReleased``).
  ///
  /// Lock order: the set's lock, then each center's, then the set of open logs', then each log's;
  /// nothing takes them the other way round. The handlers are retained by the copies and released here, outside every lock.
  /// Main-actor registries are read by a block on the main queue (at once on the main queue), which
  /// this waits for at most two seconds: a diagnostic made off the main queue while the main queue
  /// is blocked leaves them out. Without a log, or with one that recorded a main-actor center's
  /// registration, it may wait so; otherwise it never waits for the main queue.
  package static func withRegistrationSnapshots<Result>(
    of log: LeakScopeLog?, _ body: (inout [RegistrationSnapshot]) -> Result
  ) -> Result {
    var snapshots = registrationSnapshots(of: log)
    let result = body(&snapshots)
    snapshots = []
    return result
  }

  private static func registrationSnapshots(of log: LeakScopeLog?) -> [RegistrationSnapshot] {
    let onMainQueue = MainQueue.isCurrent
    // A report outside every scope leaves alone the registrations of the tests in one.
    let isIncluded: @Sendable (RegistrationCore) -> Bool = { registration in
      log?.contains(registration) ?? !LeakScopeLog.isInAnOpenScope(registration)
    }
    // The main-actor registries first: the wait for the main queue must not prolong the copies of
    // the other registries' handlers (a test may be waiting for a handler's captures to go). No
    // wait at all when there is none, or when the log has no registration of one.
    let readsMainActor =
      !onMainQueue && entries.withLock { entries in entries.values.contains(where: \.readsOnMainActor) }
      && (log?.hasMainActorCenterRegistrations ?? true)
    var copied =
      readsMainActor
      ? MainQueue.valueOnMainActor {
        entries.withLock { entries in
          entries.values.filter(\.readsOnMainActor).flatMap { $0.copyRegistrations(where: isIncluded) }
        }
      } ?? [] : []
    entries.withLock { entries in
      for entry in entries.values where onMainQueue || !entry.readsOnMainActor {
        copied.append(contentsOf: entry.copyRegistrations(where: isIncluded))
      }
    }
    var snapshots: [RegistrationSnapshot] = []
    snapshots.reserveCapacity(copied.count)
    for registration in copied {
      if let snapshot = RegistrationSnapshot(registration) { snapshots.append(snapshot) }
    }
    return snapshots
  }
}
