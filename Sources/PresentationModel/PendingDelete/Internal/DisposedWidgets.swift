/// The widgets a ``PendingDelete`` has disposed and that are still alive, held weakly, so that
/// deleting one again reports `.disposed` instead of disposing it a second time. A widget is known
/// by its ``identity(of:)``: a view wrapped anew is the same widget.
@MainActor
struct DisposedWidgets {
  private struct WeakWidget {
    weak var object: AnyObject?
  }

  private var entries: [ObjectIdentifier: WeakWidget] = [:]
  private var pruneThreshold = 16

  func contains(_ widget: any Fadable) -> Bool {
    // A dead entry whose address was reused by a new widget holds nil and does not match.
    let object = identity(of: widget)
    return entries[ObjectIdentifier(object)]?.object === object
  }

  mutating func insert(_ widget: any Fadable) {
    let object = identity(of: widget)
    entries[ObjectIdentifier(object)] = WeakWidget(object: object)
    // Entries of deinitialised widgets are dropped once the table has doubled: amortised O(1).
    guard entries.count >= pruneThreshold else { return }
    entries = entries.filter { $0.value.object != nil }
    pruneThreshold = max(16, entries.count * 2)
  }
}
