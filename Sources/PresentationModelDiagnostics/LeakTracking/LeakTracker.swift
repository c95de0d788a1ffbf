package import Synchronization

/// Tracks objects that should deallocate, and reports the ones that did not.
///
/// Track each object a test creates and expects to be gone at the end; then check. The check polls
/// until every tracked object has deallocated or a deadline passes, so it is instant when nothing
/// leaks and tolerant of a release that happens a moment late (a fade that completes on the next
/// run-loop turn, a task that finishes after the test body).
///
/// ```swift
/// import PresentationModelTesting
///
/// final class Canvas {
///   var widgets: [Widget] = []
/// }
/// final class Widget {
///   var canvas: Canvas?
/// }
///
/// func example() async {
///   let tracker = LeakTracker()
///   do {
///     let canvas = Canvas()
///     let widget = Widget()
///     canvas.widgets.append(widget)
///     widget.canvas = canvas  // a retain cycle
///     tracker.track(canvas)
///     tracker.track(widget)
///   }
///   let report = await tracker.checkForLeaks(timeout: .milliseconds(100))
///   print(report)
/// }
/// ```
///
/// It prints a line per survivor, each with what holds it:
///
/// ```text
/// 2 of 2 tracked objects still alive after 0.1 s:
/// - MyApp.Canvas (tracked at MyApp/Example.swift:17). Still held by Widget.canvas, Canvas.widgets[0].canvas.
/// - MyApp.Widget (tracked at MyApp/Example.swift:18). Still held by Canvas.widgets[0], Widget.canvas.widgets[0].
/// ```
///
/// Inside a Swift Testing test with the `.detectsLeaks` trait, use
/// `trackForLeaks(_:)` instead; in an `XCTestCase`, use
/// `trackForLeaks(_:)` on the test case. Both check and report for you.
///
/// > Note: The tracker holds every object weakly and never keeps one alive. Tracking the same
/// > object twice records it once (at the first call). All methods may be called from any thread.
/// > When survivors are found, the report reads their stored properties (from the runtime's field
/// > records: no `customMirror` runs) to say what holds them; that walk reads the survivors without
/// > synchronisation, so check only once the code under test has stopped using them.
public final class LeakTracker: Sendable {
  /// How long `checkForLeaks(timeout:)` waits for stragglers unless told otherwise: one second.
  public static let defaultTimeout: Duration = .seconds(1)

  /// How much longer than its timeout `checkForLeaks(timeout:)` waits, when objects are still
  /// alive, for another test's leak report to let go of the handler copies it holds: two seconds.
  public static let reportWaitLimit: Duration = .seconds(2)

  /// Checks waiting now for another report's handler copies to go; for tests.
  package static let checksWaitingForAReport = Atomic<Int>(0)

  private struct Entry: Sendable {
    let reference: WeakReference
    let typeName: String
    let site: CallSite
    /// Tracking order, so reports list survivors in the order they were tracked.
    let order: Int
  }

  private struct Entries: Sendable {
    /// One entry per identifier: a lookup, not a scan, so tracking is O(1).
    var byIdentifier: [ObjectIdentifier: Entry] = [:]
    /// Objects tracked so far, dead ones included.
    var trackedCount = 0
  }

  private let entries = LockedState(Entries())

  /// Creates a tracker with nothing tracked.
  public init() {}

  /// The tracker of the Swift Testing test (or test case) running the caller, when that test has
  /// the `.detectsLeaks` trait; `nil` elsewhere.
  public static var current: LeakTracker? { LeakScope.tracker }

  /// Starts watching `object`; a later check reports it if it is still alive.
  ///
  /// Only class instances can be tracked: passing a struct or enum does not compile.
  ///
  /// ```swift
  /// import PresentationModelTesting
  ///
  /// final class Document {}
  /// let tracker = LeakTracker()
  /// tracker.track(Document())
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object expected to deallocate. Held weakly.
  ///   - fileID: Leave the default; the report names this call's file.
  ///   - filePath: Leave the default; used for XCTest failures.
  ///   - line: Leave the default; failures are reported at this line.
  ///   - column: Leave the default.
  public func track<Object: AnyObject>(
    _ object: Object, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: Int = #line, column: Int = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let reference = WeakReference(object)
    let typeName = TypeName.of(type(of: object))
    let replaced = entries.withLock { entries -> Entry? in
      let existing = entries.byIdentifier[reference.identifier]
      // Same identifier: either this very object, tracked before (the caller holds it, so this
      // weak load cannot release the last reference), or a dead one whose address was reused.
      if let existing, existing.reference.object === object { return nil }
      entries.byIdentifier[reference.identifier] = Entry(
        reference: reference, typeName: typeName, site: site, order: entries.trackedCount)
      entries.trackedCount += 1
      return existing
    }
    // The entry of a dead object whose identifier was reused goes here, outside the lock.
    _ = replaced
  }

  /// How many tracked objects are still alive.
  public var liveCount: Int { liveObjects().alive.count }

  /// Waits until every tracked object has deallocated or `timeout` has passed, then reports the
  /// survivors.
  ///
  /// Checks once immediately (so a passing check does not wait), then again after a `Task.yield()`
  /// and after short sleeps, growing from 1 ms to 20 ms, until the deadline.
  ///
  /// A leak report copies the handlers of every live center while it looks for what holds its
  /// survivors, and so keeps what they capture alive for that moment. When objects are still
  /// alive at the deadline and another report (another test's, running in parallel) holds such
  /// copies, the check waits for it to let go, up to ``reportWaitLimit`` more, then checks again:
  /// a failing test elsewhere never makes a survivor here. It waits only for the copies begun
  /// before its deadline: one begun later copies only unended registrations, and an object that
  /// one of those holds is a survivor anyway; so reports made meanwhile cannot keep it waiting.
  ///
  /// The synchronous form, when it runs on the main queue, waits only for the reports that can let
  /// go without the main queue: not for one still waiting for the main queue to copy the
  /// main-actor handlers, nor for the main-actor handlers a report has copied (main-actor center,
  /// `observeOnMainActor` and `MainActorMessage` forms), which are released on the main queue.
  ///
  /// - Parameter timeout: How long stragglers may take. `.zero` checks once (twice, around the
  ///   wait for another report).
  /// - Returns: The survivors, each with its type, the `track` call and what holds it.
  public func checkForLeaks(timeout: Duration = LeakTracker.defaultTimeout) async -> LeakReport {
    let clock = ContinuousClock()
    let start = clock.now
    await Polling.poll(timeout: timeout) { liveCount == 0 }
    // Only the copies begun by now can hold an object that no unended registration holds.
    let copiesBegun = LiveRegistries.copiesBegun
    if LiveRegistries.copiesAreHeld(begunBefore: copiesBegun), liveCount > 0 {
      Self.checksWaitingForAReport.add(1, ordering: .relaxed)
      await Polling.poll(timeout: Self.reportWaitLimit) { !LiveRegistries.copiesAreHeld(begunBefore: copiesBegun) }
      Self.checksWaitingForAReport.subtract(1, ordering: .relaxed)
    }
    return report(waited: start.duration(to: clock.now))
  }

  /// The synchronous form of `checkForLeaks(timeout:)`, which Swift picks in synchronous code such
  /// as an XCTest `tearDown()`: it blocks the calling thread while it waits. On the main thread it
  /// runs the current run loop between checks, so releases enqueued on the main queue can happen
  /// while it waits.
  ///
  /// > Important: Called on the main queue itself (in `@MainActor` code, or in a block running on
  /// > `DispatchQueue.main`), it cannot let the main queue run while it waits: that queue is busy
  /// > with the caller until it returns. A release enqueued there is then reported as a leak, and
  /// > the report says why (``LeakReport/mainQueueWasBlocked``). Call
  /// > `await` `checkForLeaks(timeout:)` there instead: it suspends, and the main queue runs.
  public func checkForLeaks(timeout: Duration = LeakTracker.defaultTimeout) -> LeakReport {
    let clock = ContinuousClock()
    let start = clock.now
    let mainQueueWasBlocked = Polling.pollBlocking(timeout: timeout) { liveCount == 0 }
    // On the main queue, only for the copies that go without it: another report may be waiting for
    // the main queue, to copy the main-actor handlers there, or may release those there.
    let copiesBegun = LiveRegistries.copiesBegun
    let onMainQueue = MainQueueProbe.isOnMainQueue
    let copiesAreHeld = {
      LiveRegistries.copiesAreHeld(begunBefore: copiesBegun, endingWithoutTheMainQueue: onMainQueue)
    }
    if copiesAreHeld(), liveCount > 0 {
      Self.checksWaitingForAReport.add(1, ordering: .relaxed)
      Polling.pollBlocking(timeout: Self.reportWaitLimit) { !copiesAreHeld() }
      Self.checksWaitingForAReport.subtract(1, ordering: .relaxed)
    }
    return report(waited: start.duration(to: clock.now), mainQueueWasBlocked: mainQueueWasBlocked)
  }

  private func report(waited: Duration, mainQueueWasBlocked: Bool = false) -> LeakReport {
    let (trackedCount, alive) = liveObjects()
    let roots = alive.map(\.object)
    let observers = RetainingObserverFinder.observers(holding: roots)
    var paths = roots.map { RetainingPathFinder.paths(to: $0, from: roots) }
    // The survivors nothing above explains: what holds them, from one scan of the heap.
    let scans = UntrackedHolderFinder.isEnabled ? UntrackedHolderFinder.maximumSurvivors : 0
    let unexplained = roots.indices.filter { index in
      paths[index].isEmpty && (observers[ObjectIdentifier(roots[index])] ?? []).isEmpty
    }.prefix(scans)
    for (index, scanned) in zip(unexplained, UntrackedHolderFinder.paths(to: unexplained.map { roots[$0] })) {
      paths[index] = scanned
    }
    let reported = alive.indices.map { index in
      LeakReport.Survivor(
        typeName: alive[index].entry.typeName, site: alive[index].entry.site, retainingPaths: paths[index],
        retainingObservers: observers[ObjectIdentifier(roots[index])] ?? [])
    }
    return LeakReport(
      trackedCount: trackedCount, survivors: reported, waited: waited,
      mainQueueWasBlocked: mainQueueWasBlocked && !reported.isEmpty)
  }

  /// The tracked objects still alive, in tracking order, each held strongly until the caller lets
  /// go; the entries of dead ones are forgotten.
  ///
  /// The weak loads happen outside the lock: a load holds the object for a moment, and if another
  /// thread drops the last reference meanwhile, its `deinit` runs right there (and may track).
  private func liveObjects() -> (trackedCount: Int, alive: [(entry: Entry, object: AnyObject)]) {
    let (trackedCount, snapshot) = entries.withLock { ($0.trackedCount, Array($0.byIdentifier.values)) }
    var alive: [(entry: Entry, object: AnyObject)] = []
    var dead: [Entry] = []
    for entry in snapshot {
      if let object = entry.reference.object { alive.append((entry, object)) } else { dead.append(entry) }
    }
    if !dead.isEmpty {
      entries.withLock { entries in
        // Compared by reference, not loaded: an identifier may have been reused by an object
        // tracked meanwhile, whose entry stays.
        for entry in dead where entries.byIdentifier[entry.reference.identifier]?.reference === entry.reference {
          entries.byIdentifier[entry.reference.identifier] = nil
        }
      }
    }
    alive.sort { $0.entry.order < $1.entry.order }
    return (trackedCount, alive)
  }
}
