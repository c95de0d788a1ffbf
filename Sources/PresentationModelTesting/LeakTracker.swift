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
///   print(report)  // Canvas ... held by Widget.canvas, ...; Widget ... held by Canvas.widgets[0], ...
/// }
/// ```
///
/// Inside a Swift Testing test with the ``Testing/Trait/detectsLeaks`` trait, use
/// ``trackForLeaks(_:fileID:filePath:line:column:)`` instead; in an `XCTestCase`, use
/// `trackForLeaks(_:)` on the test case. Both check and report for you.
///
/// > Note: The tracker holds every object weakly and never keeps one alive. Tracking the same
/// > object twice records it once (at the first call). All methods may be called from any thread.
/// > When survivors are found, the report walks their stored properties with `Mirror` to say what
/// > holds them; that walk reads the survivors without synchronisation, so check only once the code
/// > under test has stopped using them.
public final class LeakTracker: Sendable {
  /// How long ``checkForLeaks(timeout:)`` waits for stragglers unless told otherwise: one second.
  public static let defaultTimeout: Duration = .seconds(1)

  private struct Entry: Sendable {
    let reference: WeakReference
    let typeName: String
    let site: CallSite
  }

  private let entries = LockedState<[Entry]>([])

  /// Creates a tracker with nothing tracked.
  public init() {}

  /// The tracker of the Swift Testing test (or test case) running the caller, when that test has
  /// the ``Testing/Trait/detectsLeaks`` trait; `nil` elsewhere.
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
    line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let entry = Entry(
      reference: WeakReference(object), typeName: TypeName.of(type(of: object)), site: site)
    entries.withLock { entries in
      // Drop entries whose object died: their identifier may be reused by a new object.
      entries.removeAll { $0.reference.object == nil }
      guard !entries.contains(where: { $0.reference.identifier == entry.reference.identifier }) else { return }
      entries.append(entry)
    }
  }

  /// How many tracked objects are still alive.
  public var liveCount: Int {
    entries.withLock { entries in entries.count(where: { $0.reference.object != nil }) }
  }

  /// Waits until every tracked object has deallocated or `timeout` has passed, then reports the
  /// survivors.
  ///
  /// Checks once immediately (so a passing check does not wait), then again after a `Task.yield()`
  /// and after short sleeps, growing from 1 ms to 20 ms, until the deadline.
  ///
  /// - Parameter timeout: How long stragglers may take. `.zero` checks exactly once.
  /// - Returns: The survivors, each with its type, the `track` call and what holds it.
  public func checkForLeaks(timeout: Duration = LeakTracker.defaultTimeout) async -> LeakReport {
    let clock = ContinuousClock()
    let start = clock.now
    await Deadline.poll(timeout: timeout) { liveCount == 0 }
    return report(waited: start.duration(to: clock.now))
  }

  /// The blocking form of ``checkForLeaks(timeout:)``, for synchronous code such as an XCTest
  /// `tearDown()`. On the main thread it runs the current run loop between checks, so releases
  /// enqueued on the main queue can happen while it waits.
  public func checkForLeaksBlocking(timeout: Duration = LeakTracker.defaultTimeout) -> LeakReport {
    let clock = ContinuousClock()
    let start = clock.now
    Deadline.pollBlocking(timeout: timeout) { liveCount == 0 }
    return report(waited: start.duration(to: clock.now))
  }

  private func report(waited: Duration) -> LeakReport {
    let (trackedCount, survivors) = entries.withLock { entries in
      let count = entries.count
      entries.removeAll { $0.reference.object == nil }
      return (count, entries)
    }
    // Strong references for the walk only; they are released when this function returns.
    let alive = survivors.compactMap { entry in entry.reference.object.map { (entry, $0) } }
    let roots = alive.map(\.1)
    let observers = RetainingObserverFinder.observers(holding: roots)
    let reported = alive.map { entry, object in
      LeakReport.Survivor(
        typeName: entry.typeName, site: entry.site,
        retainingPaths: RetainingPathFinder.paths(to: object, from: roots),
        retainingObservers: observers[ObjectIdentifier(object)] ?? [])
    }
    return LeakReport(trackedCount: trackedCount, survivors: reported, waited: waited)
  }
}
