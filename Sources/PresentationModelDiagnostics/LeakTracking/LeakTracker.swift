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
/// It prints a line per survivor, each with what holds it on lines of their own:
///
/// ```text
/// 2 of 2 tracked objects still alive after 0.1 s:
/// - MyApp.Canvas (tracked at MyApp/Example.swift:17), held by:
///   - Widget.canvas
///   - Canvas.widgets[0].canvas
/// - MyApp.Widget (tracked at MyApp/Example.swift:18), held by:
///   - Canvas.widgets[0]
///   - Widget.canvas.widgets[0]
/// ```
///
/// Inside a Swift Testing test with the `.detectsLeaks` trait, use
/// `trackForLeaks(_:)` instead; in an `XCTestCase`, use
/// `trackForLeaks(_:)` on the test case. Both check and report for you.
///
/// > Note: The tracker holds every object weakly and never keeps one alive. Tracking the same
/// > object twice records it once (at the first call). All methods may be called from any thread.
/// > When survivors are found, the report reads their stored properties to say what holds them:
/// > the paths that hold a survivor from the runtime's field records (no `customMirror` runs
/// > there), and the observer tokens a survivor keeps through `Mirror` (a survivor's own
/// > `customMirror`, if its type declares one, runs there). Those walks read the survivors without
/// > synchronisation, so check only once the code under test has stopped using them.
public final class LeakTracker: Sendable {
  /// How long `checkForLeaks(timeout:)` waits for stragglers unless told otherwise: one second.
  public static let defaultTimeout: Duration = .seconds(1)

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
  /// The registrations a report may copy handlers of: those of the test that made the tracker.
  private let log: LeakScopeLog?

  /// Creates a tracker with nothing tracked.
  ///
  /// Made inside a test that detects leaks, its reports look for holders among that test's own
  /// observers only (never copying another test's handlers, which would keep what they capture
  /// alive while the report runs); made elsewhere (an app's debug build, a tool), among every live
  /// center's.
  public init() {
    log = LeakScopeLog.inScope
  }

  /// A tracker whose reports look for holders among the observers recorded in `log`.
  package init(log: LeakScopeLog?) {
    self.log = log
  }

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
  /// - Parameter timeout: How long stragglers may take. `.zero` checks once.
  /// - Returns: The survivors, each with its type, the `track` call and what holds it.
  public func checkForLeaks(timeout: Duration = LeakTracker.defaultTimeout) async -> LeakReport {
    let clock = ContinuousClock()
    let start = clock.now
    await Polling.poll(timeout: timeout) { liveCount == 0 }
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
    return report(waited: start.duration(to: clock.now), mainQueueWasBlocked: mainQueueWasBlocked)
  }

  /// The report of the objects alive now, without waiting, and those objects (held strongly until
  /// the caller lets go): for a harness that waited itself, for more than the tracked objects.
  package func reportNow(waited: Duration) -> (report: LeakReport, survivors: [AnyObject]) {
    let (trackedCount, alive) = liveObjects()
    return (report(trackedCount: trackedCount, alive: alive, waited: waited), alive.map(\.object))
  }

  private func report(waited: Duration, mainQueueWasBlocked: Bool = false) -> LeakReport {
    let (trackedCount, alive) = liveObjects()
    return report(trackedCount: trackedCount, alive: alive, waited: waited, mainQueueWasBlocked: mainQueueWasBlocked)
  }

  private func report(
    trackedCount: Int, alive: [(entry: Entry, object: AnyObject)], waited: Duration, mainQueueWasBlocked: Bool = false
  ) -> LeakReport {
    let roots = alive.map(\.object)
    let holders = Holders.of(roots, roots: roots, log: log)
    let reported = alive.map { entry, object in
      let held = holders[ObjectIdentifier(object)] ?? Holders()
      return LeakReport.Survivor(
        typeName: entry.typeName, site: entry.site, retainingPaths: held.paths, retainingObservers: held.observers)
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
