import PresentationModel

/// An append-only list that any thread may add to; read once the writers are done.
final class LockedList<Element: Sendable>: Sendable {
  private let elements = LockedState<[Element]>([])

  func append(_ element: Element) {
    elements.withLock { $0.append(element) }
  }

  var values: [Element] { elements.withLock { $0 } }

  func removeAll() {
    elements.withLock { $0.removeAll() }
  }
}
