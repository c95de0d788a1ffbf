/// Finds which of some objects a value keeps alive through strong references, looking inside closure
/// captures: the one thing a `Mirror` walk cannot see.
///
/// A Swift closure is two words, a function pointer and a context (a heap object, or nil). The
/// compiler describes every context's captures in the binary's reflection metadata: the context's
/// metadata (kind `HeapLocalVariable`) holds the offset of the first capture and a pointer to a
/// capture descriptor, which lists each capture's mangled type. The scanner resolves those names
/// with the runtime (`swift_getTypeByMangledNameInContext`), lays the captures out as the compiler
/// did (in order, each at its type's alignment, after any generic bindings), loads each one as its
/// type and walks it: class references are compared with the targets (and, when asked, walked
/// through their stored properties), structs and objects through their field records
/// (`StoredFields`: no `customMirror` runs, and `weak` and `unowned` stored properties are skipped
/// unread), enums, tuples, optionals and the standard library's collections with `Mirror` (an enum
/// with a `customMirror` of its own is not read), nested closures through their own contexts, and
/// captured `var`s through their boxes. `weak` and `unowned` captures are skipped: they do not keep
/// anything alive; blocks are not read (their captures are not described), C function pointers hold
/// nothing.
///
/// Safety: the scanner only dereferences a word it has proved to be a pointer to a live object: a
/// closure context it holds a strong reference to (through the closure it was given), a capture
/// laid out from the descriptor, or a box or class reference loaded as its declared type. A capture
/// whose type cannot be resolved (one that depends on generic parameters, or a compiler-internal
/// type it does not recognise), or whose mangled name holds an operator the runtime's resolver may
/// abort on (``MangledName/mayTrapTheRuntime``: packs, opaque types), ends the walk of that
/// context: captures after it are not read, which can only miss a reference (a false negative),
/// never invent one.
///
/// The walk reads captured objects' stored properties without synchronisation (when
/// `followObjects` is set): use that only once the code under test has stopped, as the leak check
/// does. Registration-time checks leave it off and compare captured objects by identity only.
///
/// On platforms with Objective-C interoperability the scanner is unavailable (``isAvailable`` is
/// `false`, and every scan finds nothing), so callers fall back to their previous messages.
package enum CaptureScanner {

  /// Whether scans can see closure captures on this platform.
  package static var isAvailable: Bool {
    #if canImport(ObjectiveC)
      false
    #else
      true
    #endif
  }

  /// What a scan found and how complete it was.
  package struct Result {
    /// For each target reached, the first path that reaches it, as steps after the capture: empty
    /// for a direct capture, `["var"]` for a captured `var`, `["Helper.owner"]` through a captured
    /// object's property. ``CaptureScanner/describe(_:)`` words it.
    package var paths: [ObjectIdentifier: [String]] = [:]
    /// Values the walk could not read into: a capture whose type it does not resolve or refuses to
    /// hand to the runtime (which ends the walk of that context), a stored property likewise, a
    /// struct whose metadata does not describe its fields.
    package var unreadValues = 0
    /// Whether the walk stopped at `maximumVisits`.
    package var truncated = false
    /// How many values the walk visited.
    package var visits = 0
  }

  /// A path from ``Result/paths`` in words: `captures it`, `captures it in a var`,
  /// `captures it through Helper.owner`.
  package static func describe(_ path: [String]) -> String {
    route(path).map { "captures it " + $0 } ?? "captures it"
  }

  /// How a path reaches its target after the capture: `nil` (directly), `in a var`,
  /// `through Helper.owner`.
  package static func route(_ path: [String]) -> String? {
    guard !path.isEmpty else { return nil }
    if path == ["var"] { return "in a var" }
    return "through " + path.map { $0 == "var" ? "a var" : $0 }.joined(separator: " → ")
  }

  /// The paths by which `roots` (usually tracked objects) strongly reach `target`, through stored
  /// properties, collection elements, enum payloads, optionals, existentials and closures met
  /// anywhere on the way: `Canvas.widgets[2]`, `Parent.onTap (a closure that captures it)`. At most
  /// one path (a shortest) per root, and `maximumPaths` in all, shortest first; a root that is
  /// `target` itself counts only through a path back to it (a cycle, `Node.next.next`).
  ///
  /// Reads objects' stored properties without synchronisation: call it only once the code that
  /// changes them has stopped.
  ///
  /// - Parameters:
  ///   - maximumVisits: A bound on the values visited for all roots together.
  package static func holdingPaths(
    to target: AnyObject, from roots: [AnyObject], maximumPaths: Int = 3, maximumVisits: Int = 20_000
  ) -> [String] {
    #if canImport(ObjectiveC)
      return []
    #else
      let targetID = ObjectIdentifier(target)
      var found: [(path: String, length: Int, order: Int)] = []
      var remaining = maximumVisits
      for root in roots {
        guard remaining > 0, found.count < maximumPaths else { break }
        var walker = Walker(targets: [targetID], followObjects: true, maximumVisits: remaining)
        walker.walk(root, namesFields: true, rootIsCandidate: false)
        remaining -= walker.result.visits
        if let steps = walker.path(to: targetID) {
          found.append((holdingPath(from: root, steps), steps.count, found.count))
        }
      }
      return found.sorted { ($0.length, $0.order) < ($1.length, $1.order) }.map(\.path)
    #endif
  }

  #if !canImport(ObjectiveC)
    /// `Canvas.widgets[2]`; past the first closure on the way, the capture scanner's wording of the
    /// rest: `Parent.onTap (a closure that captures it through Helper.model)`.
    private static func holdingPath(from root: AnyObject, _ steps: [PathStep]) -> String {
      var components: [String] = []
      var closure = ""
      for (index, step) in steps.enumerated() {
        if case .closure = step.kind {
          closure = " (a closure that " + describe(steps[(index + 1)...].compactMap(\.description)) + ")"
          break
        }
        components.append(step.component ?? "")
      }
      // A path through a long chain (a linked list) keeps its two ends.
      if components.count > 12 {
        components = components.prefix(6) + [" … (\(components.count - 10) more steps) … "] + components.suffix(4)
      }
      return shortName(of: type(of: root)) + components.joined() + closure
    }
  #endif

  /// Which of `targets` the object `root` holds strongly, directly or through values, closures and
  /// objects that are not targets themselves (a target met on the way is not walked into: what it
  /// holds is its own edge). `root` counts only when reached again (a cycle).
  ///
  /// Reads objects' stored properties without synchronisation: call it only once the code that
  /// changes them has stopped.
  package static func targetsHeld(
    by root: AnyObject, among targets: Set<ObjectIdentifier>, maximumVisits: Int = 2_000
  ) -> Set<ObjectIdentifier> {
    #if canImport(ObjectiveC)
      return []
    #else
      var walker = Walker(targets: targets, followObjects: true, maximumVisits: maximumVisits)
      walker.walk(root, namesFields: false, rootIsCandidate: false)
      return Set(walker.result.paths.keys)
    #endif
  }

  /// Whether ``scanHeap(forHoldersOf:maximumHolders:)`` can run in this process.
  package static var heapScanIsAvailable: Bool {
    #if os(Linux) && canImport(Glibc)
      HeapScan.allocatorIsGlibc
    #else
      false
    #endif
  }

  /// What a heap scan for untracked holders found, and what it cost.
  package struct HeapScanReport: Sendable {
    /// `Cache.entry`, `Cache.items[2]`: objects nobody tracked whose strong stored property holds
    /// the object.
    package var holders: [String]
    package var scannedBytes: Int
    /// Words equal to the object's address, and how many of them were not a validated property.
    package var hits: Int
    package var rejectedHits: Int
  }

  /// Scans the process's writable anonymous memory for strong stored properties that hold
  /// `target`, for a holder nobody tracked (see `HeapScan` for how each hit is validated). `nil`
  /// where the platform does not allow it (only Linux with glibc's allocator does: not under a
  /// sanitizer, whose allocator replaces it; ``heapScanIsAvailable``). Costs a read of the whole
  /// heap: call it only when a cheaper walk found nothing.
  package static func scanHeap(forHoldersOf target: AnyObject, maximumHolders: Int = 3) -> HeapScanReport? {
    #if os(Linux) && canImport(Glibc)
      guard heapScanIsAvailable else { return nil }
      let address = UnsafeRawPointer(Unmanaged.passUnretained(target).toOpaque())
      let result = HeapScan.holders(of: address, maximumHolders: maximumHolders)
      return HeapScanReport(
        holders: result.holders.map(\.path), scannedBytes: result.scannedBytes, hits: result.hits,
        rejectedHits: result.rejectedHits)
    #else
      return nil
    #endif
  }

  /// ``scan(_:for:followObjects:maximumVisits:)`` over many roots, one after another, with the
  /// same targets: the walk's queues and sets are made once and emptied between roots (a report
  /// over 10,000 handlers otherwise makes and frees five collections per handler).
  package struct Session {
    #if !canImport(ObjectiveC)
      private var walker: Walker
    #endif

    package init(targets: Set<ObjectIdentifier>, followObjects: Bool) {
      #if !canImport(ObjectiveC)
        walker = Walker(targets: targets, followObjects: followObjects, maximumVisits: 0)
      #endif
    }

    /// What `root` reaches, as ``CaptureScanner/scan(_:for:followObjects:maximumVisits:)`` says.
    package mutating func scan(_ root: Any, maximumVisits: Int) -> Result {
      #if canImport(ObjectiveC)
        return Result()
      #else
        walker.reset(maximumVisits: maximumVisits)
        walker.walk(root, namesFields: false)
        return walker.result
      #endif
    }
  }

  /// Walks everything `root` strongly references (through closure contexts, boxes, value types and,
  /// when `followObjects` is set, class instances' stored properties) and reports which of
  /// `targets` it reaches.
  ///
  /// - Parameters:
  ///   - root: Usually a closure, or a value holding closures (such as an enum of handlers).
  ///   - targets: The identities of the objects to look for.
  ///   - followObjects: Whether to walk into captured class instances (multi-hop references). Off,
  ///     a captured object is only compared with the targets.
  ///   - maximumVisits: A bound on the values visited, so a huge graph cannot stall the caller.
  package static func scan(
    _ root: Any, for targets: Set<ObjectIdentifier>, followObjects: Bool, maximumVisits: Int = 2_000
  ) -> Result {
    #if canImport(ObjectiveC)
      return Result()
    #else
      var walker = Walker(targets: targets, followObjects: followObjects, maximumVisits: maximumVisits)
      // The root's own fields (such as the case of a handler enum) are not part of the path.
      walker.walk(root, namesFields: false)
      return walker.result
    #endif
  }
}
