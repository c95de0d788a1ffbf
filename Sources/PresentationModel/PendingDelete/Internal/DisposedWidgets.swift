/// The widgets a ``PendingDelete`` has disposed and that are still alive, held weakly, so that
/// deleting one again reports `.disposed` instead of disposing it a second time.
@MainActor
struct DisposedWidgets {
  private struct WeakWidget {
    weak var widget: (any Fadable)?
  }

  private var entries: [ObjectIdentifier: WeakWidget] = [:]
  private var pruneThreshold = 16

  func contains(_ widget: any Fadable) -> Bool {
    // A dead entry whose address was reused by a new widget holds nil and does not match.
    entries[ObjectIdentifier(widget)]?.widget === widget
  }

  mutating func insert(_ widget: any Fadable) {
    entries[ObjectIdentifier(widget)] = WeakWidget(widget: widget)
    // Entries of deinitialised widgets are dropped once the table has doubled: amortised O(1).
    guard entries.count >= pruneThreshold else { return }
    entries = entries.filter { $0.value.widget != nil }
    pruneThreshold = max(16, entries.count * 2)
  }
}
