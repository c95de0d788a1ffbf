import PresentationModelDiagnostics

/// Remembers the objects a scenario made, weakly: how many of each type are still alive, and,
/// through a `LeakTracker`, the survivors in the leak harness's own words, each with what holds it.
@MainActor
final class LifecycleLedger {
  private struct Entry {
    weak var object: AnyObject?
    let typeName: String
  }

  private var entries: [Entry] = []
  private let tracker = LeakTracker()

  /// Starts following `object`; returns it, so it can wrap a creation. The survivor's line names
  /// this call.
  @discardableResult
  func track<T: AnyObject>(
    _ object: T, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: Int = #line,
    column: Int = #column
  ) -> T {
    entries.append(Entry(object: object, typeName: String(describing: type(of: object))))
    tracker.track(object, fileID: fileID, filePath: filePath, line: line, column: column)
    return object
  }

  /// Waits briefly for stragglers, then reports the tracked objects still alive, each with its
  /// `track` call and what holds it (a stored property of another survivor, or an observer's
  /// handler).
  func check() async -> LeakReport {
    await tracker.checkForLeaks(timeout: .milliseconds(300))
  }

  /// How many tracked instances of each type are alive, by type name.
  var liveCountsByType: [(typeName: String, live: Int, tracked: Int)] {
    Dictionary(grouping: entries, by: \.typeName).map { name, group in
      (name, group.filter { $0.object != nil }.count, group.count)
    }.sorted { $0.typeName < $1.typeName }
  }
}
