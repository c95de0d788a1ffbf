internal import PresentationCaptureReading

/// Finds the paths by which some objects reach another: `Canvas.widgets[2]`,
/// `Parent.child.delegate`, `Parent.onTap (a closure that captures it)`.
///
/// The walk is the capture reader's (`CaptureScanner.holdingPaths`), breadth first over the
/// runtime's metadata: stored properties of classes (superclasses included) and structs from their
/// field records, so `weak` and `unowned` properties are told apart and skipped and no
/// `customMirror` runs; enums, tuples, optionals and the standard library's collections; and the
/// captures of every closure met on the way.
enum RetainingPathFinder {
  /// The most paths reported for one target, shortest first.
  static let maximumPaths = 3
  /// How many values the walk visits in total, so a huge graph cannot stall a failing test.
  static let maximumVisits = 20_000

  /// Paths from any of `roots` to `target`; a root that is `target` itself counts only through at
  /// least one property (a cycle such as `Node.next.next`).
  static func paths(to target: AnyObject, from roots: [AnyObject]) -> [String] {
    CaptureScanner.holdingPaths(to: target, from: roots, maximumPaths: maximumPaths, maximumVisits: maximumVisits)
  }

  static func typeName(of object: AnyObject) -> String {
    String(describing: type(of: object))
  }
}
