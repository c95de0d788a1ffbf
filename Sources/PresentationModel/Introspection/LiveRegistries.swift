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

    /// The registry's unended registrations with their handlers; under the set's lock (and, for
    /// the main-actor center, on the main queue).
    func copyRegistrations() -> [RegisteredHandler] {
      switch self {
      case .typed(let center): center._withUnsafeGuaranteedRef { $0.unendedRegistrationsWithHandlers() }
      case .mainActor(let center): center._withUnsafeGuaranteedRef { $0.unendedRegistrationsWithHandlers() }
      case .bridge(let bridge): bridge._withUnsafeGuaranteedRef { $0.unendedRegistrationsWithHandlers() }
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

  /// How many copies of every handler are made, and those still held.
  private struct Copies {
    var made = 0
    /// How many copies have begun: the next copy's number.
    var begun = 0
    /// The copies still held, in the order they began (rarely more than a few).
    var held: [HeldCopy] = []

    /// Gives the next copy its number and counts it as held.
    mutating func begin(endingWithoutTheMainQueue ends: Bool) -> Int {
      made += 1
      begun += 1
      held.append(HeldCopy(number: begun - 1, endsWithoutTheMainQueue: ends))
      return begun - 1
    }

    mutating func setEndsWithoutTheMainQueue(_ ends: Bool, for number: Int) {
      if let index = held.firstIndex(where: { $0.number == number }) { held[index].endsWithoutTheMainQueue = ends }
    }

    mutating func end(_ number: Int) {
      if let index = held.firstIndex(where: { $0.number == number }) { held.remove(at: index) }
    }
  }

  private struct HeldCopy {
    let number: Int
    /// Whether the copy goes without the main queue's help: it has copied every handler it will
    /// (no wait for the main queue ahead), and releases what it holds on its own thread. Not while
    /// it waits for the main queue to copy the main-actor handlers (it holds no other handler yet),
    /// nor once only its main-actor handlers, released on the main queue, are left.
    var endsWithoutTheMainQueue: Bool
  }

  private static let copies = LockedState(Copies())

  /// Counts each copy of the handlers of every registry that ``withRegistrationSnapshots(_:)`` makes
  /// (a leak report does, in whatever test runs it) twice: when it begins and once it is made. A
  /// test that checks that a handler was released reads it before and after: a copy made
  /// meanwhile may have held the handler for a moment. (Counted at both ends because a copy that
  /// began earlier may wait for the main queue before it copies anything.)
  package static var copiesOfEveryHandler: Int { copies.withLock { $0.made } }

  /// Whether some leak report holds copies of every registry's handlers right now. Such a copy
  /// keeps each handler, and what it captures, alive until the report is done with it: a check
  /// that an object has gone (in another test) waits for it to end (`LeakTracker.checkForLeaks`).
  package static var handlerCopiesAreHeld: Bool { copies.withLock { !$0.held.isEmpty } }

  /// How many copies of the handlers have begun so far. Each copy has a number, in the order they
  /// began, from 0: those numbered below this value began before it was read, and the ones that
  /// begin later copy only the registrations unended by then. So a check that finds an object
  /// alive at its deadline waits only for ``heldCopies(begunBefore:)`` of this value: a later
  /// copy can hold the object only when some unended registration holds it too, and reports made
  /// in other tests after the deadline cannot keep the check waiting.
  package static var copiesBegun: Int { copies.withLock { $0.begun } }

  /// The numbers of the copies still held (their release, for a main-actor handler dropped off
  /// the main queue, not yet run) that began before `count` copies had begun, in the order they
  /// began.
  package static func heldCopies(begunBefore count: Int) -> [Int] {
    copies.withLock { copies in copies.held.map(\.number).filter { $0 < count } }
  }

  /// Whether some copy that began before `count` copies had begun is still held; with
  /// `endingWithoutTheMainQueue`, only one that will let go without the main queue running (what a
  /// check blocking the main queue can wait for: a copy of the other handlers, not of main-actor
  /// ones, and not while it waits for the main queue itself).
  package static func copiesAreHeld(begunBefore count: Int, endingWithoutTheMainQueue: Bool = false) -> Bool {
    copies.withLock { copies in
      copies.held.contains { $0.number < count && (!endingWithoutTheMainQueue || $0.endsWithoutTheMainQueue) }
    }
  }

  static func remove(_ registry: ObjectIdentifier) {
    _ = entries.withLock { $0.removeValue(forKey: registry) }
  }

  /// Calls `body` with the live registrations of every center and bridge, with their handlers,
  /// in the listing order of each (centers in no particular order), and this copy's number (see
  /// ``copiesBegun``). `body` may drop the snapshots
  /// it no longer needs; every copy is released before this returns, and only then is it no
  /// longer counted in ``handlerCopiesAreHeld``. A copy of a main-actor handler, dropped here off
  /// the main queue, is released by a block enqueued on the main queue (``MainActorReleased``):
  /// then the count goes down in a block enqueued after it, once that release has run, so that a
  /// check waiting for the copies never looks while a main-actor handler is still held.
  ///
  /// Lock order: the set's lock, then each center's; nothing takes them the other way round. The
  /// handlers are retained by the copies and released here, outside every lock (main-actor
  /// ones on the main queue, see ``MainActorReleased``). Main-actor registries are read by a block
  /// on the main queue (at once on the main queue), which this waits for at most two seconds: a
  /// diagnostic made off the main queue while the main queue is blocked leaves them out.
  package static func withRegistrationSnapshots<Result>(
    _ body: (inout [RegistrationSnapshot], _ copyNumber: Int) -> Result
  ) -> Result {
    let onMainQueue = MainQueue.isCurrent
    // Off the main queue it may wait for the main queue first, to copy the main-actor handlers.
    let number = copies.withLock { $0.begin(endingWithoutTheMainQueue: onMainQueue) }
    var snapshots = registrationSnapshots()
    let releasedOnMainQueue = !onMainQueue && snapshots.contains(where: \.isReleasedOnMainQueue)
    copies.withLock { copies in
      copies.made += 1
      copies.setEndsWithoutTheMainQueue(true, for: number)
    }
    defer {
      if releasedOnMainQueue {
        // Only the main-actor handlers are held now, until the blocks the boxes enqueued have run.
        // The main queue is serial: this block runs after those.
        copies.withLock { $0.setEndsWithoutTheMainQueue(false, for: number) }
        DispatchQueue.main.async { copies.withLock { $0.end(number) } }
      } else {
        copies.withLock { $0.end(number) }
      }
    }
    let result = body(&snapshots, number)
    snapshots = []  // The copies go here, before `held` counts them out.
    return result
  }

  private static func registrationSnapshots() -> [RegistrationSnapshot] {
    let onMainQueue = MainQueue.isCurrent
    // The main-actor registries first: the wait for the main queue must not prolong the copies of
    // the other registries' handlers (a test may be waiting for a handler's captures to go). No
    // wait at all when there is none.
    let hasMainActorRegistries = entries.withLock { entries in entries.values.contains(where: \.readsOnMainActor) }
    var copied =
      onMainQueue || !hasMainActorRegistries
      ? []
      : MainQueue.valueOnMainActor {
        entries.withLock { entries in entries.values.filter(\.readsOnMainActor).flatMap { $0.copyRegistrations() } }
      } ?? []
    entries.withLock { entries in
      for entry in entries.values where onMainQueue || !entry.readsOnMainActor {
        copied.append(contentsOf: entry.copyRegistrations())
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
