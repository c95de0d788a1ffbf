/// What a leak check found: every tracked object still alive when the deadline passed.
///
/// ```swift
/// import PresentationModelDiagnostics
///
/// final class Box {}
///
/// func example() async {
///   let tracker = LeakTracker()
///   let kept = Box()
///   tracker.track(kept)
///   tracker.track(Box())  // released at once
///   let report = await tracker.checkForLeaks(timeout: .milliseconds(100))
///   if report.hasLeaks { print(report) }
///   withExtendedLifetime(kept) {}
/// }
/// ```
///
/// `kept` is still alive at the check, so it prints a description of this form:
///
/// ```text
/// 1 of 2 tracked objects still alive after 0.1 s:
/// - MyApp.Box (tracked at MyApp/Example.swift:8). No tracked object holds it in a stored property …
/// ```
public struct LeakReport: Sendable, CustomStringConvertible {
  /// How many objects were tracked when the check finished (alive or not).
  public let trackedCount: Int
  /// The objects still alive, in the order they were tracked.
  public let survivors: [Survivor]
  /// How long the check waited for stragglers.
  public let waited: Duration
  /// Whether survivors were found by the synchronous form of `LeakTracker.checkForLeaks(timeout:)`
  /// called on the main queue, which it blocked while it waited: anything enqueued there (such as a
  /// release one turn late) could not run, so a survivor may be one. The description then says to
  /// call `await checkForLeaks()`, the async form, instead.
  public let mainQueueWasBlocked: Bool

  static let blockedMainQueueNote = """
    The synchronous checkForLeaks() ran on the main queue (in @MainActor code or a DispatchQueue.main block) \
    and blocked it while waiting, so nothing enqueued there could run, such as a release one turn late; \
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
