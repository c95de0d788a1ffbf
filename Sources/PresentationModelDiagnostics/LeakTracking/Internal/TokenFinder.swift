import PresentationModel

/// The `ObserverToken`s an object holds in its stored properties (a few levels deep, through
/// collections and optionals), with their paths.
enum TokenFinder {
  static let maximumDepth = 4

  static func tokens(in object: AnyObject) -> [(token: ObserverToken, path: String)] {
    var found: [(token: ObserverToken, path: String)] = []
    var visits = 0
    func visit(_ value: Any, path: String, depth: Int) {
      visits += 1
      guard depth <= maximumDepth, visits < 2_000 else { return }
      if let token = value as? ObserverToken {
        found.append((token, path))
        return
      }
      let mirror = Mirror(reflecting: value)
      if depth > 0, mirror.displayStyle == .class { return }  // only the object's own values
      for (index, child) in mirror.children.enumerated() {
        let component =
          mirror.displayStyle == .optional ? "" : child.label.map { "." + $0 } ?? "[\(index)]"
        visit(child.value, path: path + component, depth: depth + 1)
      }
    }
    visit(object, path: RetainingPathFinder.typeName(of: object), depth: 0)
    return found
  }
}
