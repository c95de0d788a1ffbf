/// Remembers the objects a scenario made, weakly, so the report can say which are still alive and
/// where they were made.
@MainActor
final class LifecycleLedger {
  private struct Entry {
    weak var object: AnyObject?
    let typeName: String
    let label: String
    let fileID: String
    let line: Int
  }

  private var entries: [Entry] = []

  /// Starts following `object`; returns it, so it can wrap a creation.
  @discardableResult
  func track<T: AnyObject>(_ object: T, _ label: String, fileID: StaticString = #fileID, line: Int = #line) -> T {
    entries.append(
      Entry(
        object: object, typeName: String(describing: type(of: object)), label: label,
        fileID: String(describing: fileID), line: line))
    return object
  }

  var trackedCount: Int { entries.count }

  /// How many tracked instances of each type are alive, by type name.
  var liveCountsByType: [(typeName: String, live: Int, tracked: Int)] {
    Dictionary(grouping: entries, by: \.typeName).map { name, group in
      (name, group.filter { $0.object != nil }.count, group.count)
    }.sorted { $0.typeName < $1.typeName }
  }

  /// Tracked objects still alive: each with its type, label and the line that tracked it.
  var survivors: [String] {
    entries.filter { $0.object != nil }.map { "\($0.typeName) '\($0.label)' tracked at \($0.fileID):\($0.line)" }
  }
}
