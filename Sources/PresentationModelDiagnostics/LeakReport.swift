/// What a leak check found: every tracked object still alive when the deadline passed.
///
/// ```swift
/// import PresentationModelDiagnostics
///
/// func example() async {
///   let tracker = LeakTracker()
///   tracker.track(Box())
///   let report = await tracker.checkForLeaks()
///   if report.hasLeaks { print(report) }
/// }
/// final class Box {}
/// ```
///
/// The description reads like this:
///
/// ```text
/// 1 of 2 tracked objects still alive after 1.0 s:
/// - Canvas.Widget (tracked at CanvasTests/CanvasTests.swift:18). Still held by Canvas.widgets[2].
/// ```
public struct LeakReport: Sendable, CustomStringConvertible {
  /// One tracked object that had not deallocated.
  public struct Survivor: Sendable, CustomStringConvertible {
    /// The object's full type name, such as `MyApp.Widget`.
    public let typeName: String
    /// The `#fileID` of the `track` call, such as `MyAppTests/CanvasTests.swift`.
    public let fileID: String
    /// The `#filePath` of the `track` call.
    public var filePath: String { String(describing: site.filePath) }
    /// The line of the `track` call.
    public var line: Int { site.line }
    /// The column of the `track` call.
    public var column: Int { site.column }
    /// Stored-property paths from a tracked object that is still alive (possibly this one) to this
    /// one, shortest first, such as `Canvas.widgets[2]` or `Widget.canvas.widgets[0]`.
    ///
    /// Empty when no tracked survivor reaches it through stored properties: then look for a closure
    /// capturing it, or an owner you did not track. A path may run through a `weak` property, since
    /// `Mirror` cannot tell those apart.
    public let retainingPaths: [String]
    /// Every live observer registration, in any `TypedNotificationCenter` of the process, whose
    /// handler keeps it alive: the `observe` calls to fix. Empty where closure captures cannot be
    /// read (platforms with Objective-C interoperability).
    public let retainingObservers: [RetainingObserver]

    package let site: CallSite

    init(typeName: String, site: CallSite, retainingPaths: [String], retainingObservers: [RetainingObserver] = []) {
      self.typeName = typeName
      self.fileID = String(describing: site.fileID)
      self.site = site
      self.retainingPaths = retainingPaths
      self.retainingObservers = retainingObservers
    }

    /// `MyApp.Widget (tracked at MyAppTests/CanvasTests.swift:18). Still held by Canvas.widgets[2].`:
    /// its type, its `track` call, and the stored-property paths and observers that hold it (or a
    /// hint where to look when none was found). Test failures word a survivor the same way.
    public var description: String { SurvivorWording.object(self) }
  }

  /// How many objects were tracked when the check finished (alive or not).
  public let trackedCount: Int
  /// The objects still alive, in the order they were tracked.
  public let survivors: [Survivor]
  /// How long the check waited for stragglers.
  public let waited: Duration
  /// Whether survivors were found by ``LeakTracker/checkForLeaksBlocking(timeout:)`` called on the
  /// main queue, which it blocked while it waited: anything enqueued there (such as a release one
  /// turn late) could not run, so a survivor may be one. The description then says to call
  /// `await` ``LeakTracker/checkForLeaks(timeout:)`` instead.
  public let mainQueueWasBlocked: Bool

  static let blockedMainQueueNote = """
    checkForLeaksBlocking() ran on the main queue (in @MainActor code or a DispatchQueue.main block) and \
    blocked it while waiting, so nothing enqueued there could run, such as a release one turn late; \
    these may be such releases. Call `await checkForLeaks()` instead: it suspends and lets the main \
    queue run.
    """

  /// Whether any tracked object was still alive.
  public var hasLeaks: Bool { !survivors.isEmpty }

  /// One line per survivor after a summary; `No leaks among N tracked objects` when there are none.
  public var description: String {
    guard hasLeaks else { return "No leaks among \(trackedCount) tracked objects" }
    let list = SurvivorWording.objects(survivors, trackedCount: trackedCount, waited: waited)
    return mainQueueWasBlocked ? list + "\n" + Self.blockedMainQueueNote : list
  }
}
