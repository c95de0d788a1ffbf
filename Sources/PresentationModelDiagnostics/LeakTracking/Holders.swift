/// What holds an object that should have gone: stored-property paths to it from tracked objects (or
/// from itself, a cycle), the observers whose handlers capture it, and the holders nobody tracked
/// that the heap scan found where it runs.
package struct Holders: Sendable {
  /// `Canvas.widgets[2]`, `Widget.canvas.widgets[0]`, shortest first; the heap scan's findings
  /// after them.
  package var paths: [String] = []
  /// The observers of the test (or, outside a test, of every live center) whose handlers keep it.
  package var observers: [RetainingObserver] = []

  package var isEmpty: Bool { paths.isEmpty && observers.isEmpty }

  package init(paths: [String] = [], observers: [RetainingObserver] = []) {
    self.paths = paths
    self.observers = observers
  }

  /// The holders of each of `objects`, by identity: paths from `roots` and from the objects
  /// themselves, the observers recorded in `log` (every live center's when `nil`), and, for those
  /// still unexplained, the heap scan (at most ``UntrackedHolderFinder/maximumSurvivors`` of them).
  ///
  /// Reads the objects' stored properties without synchronisation: call it once the code that
  /// changes them has stopped.
  package static func of(
    _ objects: [AnyObject], roots: [AnyObject], log: LeakScopeLog?
  ) -> [ObjectIdentifier: Holders] {
    guard !objects.isEmpty else { return [:] }
    var allRoots = roots
    var seen = Set(roots.map(ObjectIdentifier.init))
    for object in objects where seen.insert(ObjectIdentifier(object)).inserted { allRoots.append(object) }
    let observers = RetainingObserverFinder.observers(holding: objects, recordedIn: log)
    var found: [ObjectIdentifier: Holders] = [:]
    var unexplained: [AnyObject] = []
    for object in objects {
      let identity = ObjectIdentifier(object)
      guard found[identity] == nil else { continue }
      let holders = Holders(
        paths: RetainingPathFinder.paths(to: object, from: allRoots), observers: observers[identity] ?? [])
      if holders.isEmpty { unexplained.append(object) }
      found[identity] = holders
    }
    // What holds the objects nothing above explains: from one scan of the heap, for a few of them.
    let scanned =
      UntrackedHolderFinder.isEnabled ? Array(unexplained.prefix(UntrackedHolderFinder.maximumSurvivors)) : []
    for (object, paths) in zip(scanned, UntrackedHolderFinder.paths(to: scanned)) {
      found[ObjectIdentifier(object)]?.paths = paths
    }
    return found
  }
}
