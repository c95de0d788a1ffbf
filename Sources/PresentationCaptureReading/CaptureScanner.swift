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

  /// Whether ``scanHeap(forHoldersOf:maximumHolders:)`` can run in this process: Linux with
  /// glibc's allocator, or under AddressSanitizer or ThreadSanitizer (through their allocator's
  /// interface), and a readable `/proc/self/mem`.
  package static var heapScanIsAvailable: Bool {
    #if os(Linux) && canImport(Glibc)
      HeapScan.isAvailable
    #else
      false
    #endif
  }

  /// Whose allocator the heap scan reads: `glibc`, `AddressSanitizer` or `ThreadSanitizer`;
  /// `nil` where it cannot run.
  package static var heapScanAllocator: String? {
    #if os(Linux) && canImport(Glibc)
      HeapScan.allocatorName
    #else
      nil
    #endif
  }

  /// What a heap scan for untracked holders found, and what it cost.
  package struct HeapScanReport: Sendable {
    /// One line per holder, from what names the chain down to the object:
    /// `the global Registry.shared, through Registry.listeners[0]`,
    /// `a Dispatch work item's block: closure #1 in Poller.start()`, `an untracked Cache.entry`.
    package var holders: [String]
    /// The global or static variable whose own storage holds the object, when one does:
    /// `Registry.shared` (a lazily made singleton), not a collection or an object a global holds.
    package var directGlobal: String?
    /// Bytes of memory read, in all passes.
    package var scannedBytes: Int
    /// Words equal to the address of the object or of one of its holders, and how many of them
    /// were not a proved holder.
    package var hits: Int
    package var rejectedHits: Int
    /// How many searches of the memory read (one per step up the chains).
    package var passes: Int
    /// How long the scan took.
    package var duration: Duration
  }

  /// Scans the process's heap and globals for what holds `target`, climbing from each proved
  /// holder to its own holders until something names the chain: a global or static variable, a
  /// `DispatchWorkItem`, a pending `asyncAfter` block, a block a Dispatch queue, source or group
  /// keeps, a task, Foundation's block observer, a recursive closure (see `HeapScan` for what is
  /// proved and what stays unnamed). `nil` where the platform does not allow it
  /// (``heapScanIsAvailable``). Reads the allocator's memory once, then searches the copy up to
  /// seven times: call it only when a cheaper walk found nothing.
  package static func scanHeap(forHoldersOf target: AnyObject, maximumHolders: Int = 3) -> HeapScanReport? {
    scanHeap(forHoldersOf: [target], maximumHolders: maximumHolders)?.first
  }

  /// ``scanHeap(forHoldersOf:maximumHolders:)`` for several objects, from one read of the memory:
  /// one report per object, in order.
  package static func scanHeap(forHoldersOf targets: [AnyObject], maximumHolders: Int = 3) -> [HeapScanReport]? {
    #if os(Linux) && canImport(Glibc)
      guard heapScanIsAvailable else { return nil }
      let addresses = targets.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
      let results = withExtendedLifetime(targets) { HeapScan.holders(of: addresses, maximumHolders: maximumHolders) }
      return results.map { result in
        HeapScanReport(
          holders: result.holders, directGlobal: result.directGlobal, scannedBytes: result.scannedBytes,
          hits: result.hits,
          rejectedHits: result.rejectedHits, passes: result.passes, duration: result.duration)
      }
    #else
      return nil
    #endif
  }

  /// For each of `objects`, in order, the Swift global or static variable whose own storage holds
  /// it (`Registry.shared`: a lazily made singleton), or `nil`; not one holding it through a
  /// collection or another object. Reads only the loaded images' writable segments, so it is cheap
  /// and runs under the sanitizers too; `nil` for all where memory cannot be read (Apple platforms).
  package static func globalsHoldingDirectly(_ objects: [AnyObject]) -> [String?] {
    #if os(Linux) && canImport(Glibc)
      let addresses = objects.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
      return withExtendedLifetime(objects) { HeapScan.directGlobals(of: addresses) }
    #else
      return objects.map { _ in nil }
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
