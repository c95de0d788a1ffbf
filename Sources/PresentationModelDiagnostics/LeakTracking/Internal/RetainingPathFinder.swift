/// Finds the stored-property paths by which some objects reach another, with a breadth-first
/// `Mirror` walk: `Canvas.widgets[2]`, `Parent.child.delegate`.
///
/// What it can see: stored properties of classes (including superclasses), structs, enums, tuples,
/// optionals, arrays, sets and dictionaries. What it cannot: closure captures (a closure reflects
/// as an opaque value), and the difference between a strong, `weak` or `unowned` property — a path
/// through a weak property is reported too, because `Mirror` shows it as an ordinary optional.
enum RetainingPathFinder {
  /// The most paths reported for one target, shortest first.
  static let maximumPaths = 3
  /// How many properties deep the walk goes from each root.
  static let maximumDepth = 10
  /// How many values the walk visits in total, so a huge graph cannot stall a failing test.
  static let maximumVisits = 20_000

  private struct Step {
    let value: Any
    let path: String
    let depth: Int
  }

  /// Paths from any of `roots` to `target`; a root that is `target` itself counts only through at
  /// least one property (a cycle such as `Node.next.next`).
  static func paths(to target: AnyObject, from roots: [AnyObject]) -> [String] {
    let targetID = ObjectIdentifier(target)
    var found: [(path: String, depth: Int)] = []
    var visits = 0
    func shortestFirst() -> [String] {
      found.enumerated().sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }.map(\.element.path)
    }
    for root in roots {
      var queue: [Step] = [Step(value: root, path: typeName(of: root), depth: 0)]
      var expanded: Set<ObjectIdentifier> = []
      var next = 0
      rootLoop: while next < queue.count {
        let step = queue[next]
        next += 1
        if step.depth >= maximumDepth { continue }
        if let object = asObject(step.value) {
          guard expanded.insert(ObjectIdentifier(object)).inserted else { continue }
        }
        for (component, child) in children(of: step.value) {
          visits += 1
          if visits > maximumVisits { return shortestFirst() }
          let path = step.path + component
          if let object = asObject(child), ObjectIdentifier(object) == targetID {
            found.append((path, step.depth + 1))
            if found.count == maximumPaths { return shortestFirst() }
            break rootLoop  // One (the shortest) path per root is enough.
          }
          queue.append(Step(value: child, path: path, depth: step.depth + 1))
        }
      }
    }
    return shortestFirst()
  }

  /// The object inside `value`, when `value` is a class instance (looking through optionals).
  private static func asObject(_ value: Any) -> AnyObject? {
    let unwrapped = unwrapOptional(value)
    guard let unwrapped, type(of: unwrapped) is AnyClass else { return nil }
    return unwrapped as AnyObject
  }

  private static func unwrapOptional(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    guard let wrapped = mirror.children.first?.value else { return nil }
    return unwrapOptional(wrapped)
  }

  /// Each child of `value` with the path component that reaches it (`.name`, `[2]`, `["key"]`).
  private static func children(of value: Any) -> [(component: String, value: Any)] {
    guard let value = unwrapOptional(value) else { return [] }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .collection?, .set?:
      return mirror.children.enumerated().map { index, child in ("[\(index)]", child.value) }
    case .dictionary?:
      return mirror.children.compactMap { child in
        let pair = Mirror(reflecting: child.value).children.map(\.value)
        guard pair.count == 2 else { return nil }
        return ("[\(String(reflecting: pair[0]))]", pair[1])
      }
    case .tuple?:
      return mirror.children.enumerated().map { index, child in
        let label = child.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "\(index)"
        return (".\(label)", child.value)
      }
    case .enum?:
      return mirror.children.map { child in (".\(child.label ?? "payload")", child.value) }
    default:
      var result: [(component: String, value: Any)] = []
      var current: Mirror? = mirror
      while let level = current {
        for (index, child) in level.children.enumerated() {
          result.append((".\(child.label ?? "\(index)")", child.value))
        }
        current = level.superclassMirror
      }
      return result
    }
  }

  static func typeName(of object: AnyObject) -> String {
    String(describing: type(of: object))
  }
}
