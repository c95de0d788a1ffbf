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
/// through their stored properties with `Mirror`), structs, enums, tuples and optionals are walked
/// with `Mirror`, nested closures through their own contexts, and captured `var`s through their
/// boxes. `weak` and `unowned` captures are skipped: they do not keep anything alive.
///
/// Safety: the scanner only dereferences a word it has proved to be a pointer to a live object: a
/// closure context it holds a strong reference to (through the closure it was given), a capture
/// laid out from the descriptor, or a box or class reference loaded as its declared type. A capture
/// whose type cannot be resolved (one that depends on generic parameters, or a compiler-internal
/// type it does not recognise) ends the walk of that context: captures after it are not read, which
/// can only miss a reference (a false negative), never invent one.
///
/// The walk reads captured objects' stored properties without synchronisation (when
/// `followObjects` is set): use that only once the code under test has stopped, as the leak check
/// does. Registration-time checks leave it off and compare captured objects by identity only.
///
/// On platforms with Objective-C interoperability the scanner is unavailable (``isAvailable`` is
/// `false`, and every scan finds nothing), so callers fall back to their previous messages.
package enum CaptureScanner {
  /// How many values deep a walk goes: nested captures, fields and elements each count one.
  package static let maximumDepth = 24

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
    /// Closure contexts whose captures could not all be read (a capture of an unresolvable type).
    package var incompleteContexts = 0
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
      walker.walk(root, path: [], namesFields: false)
      walker.result.visits = walker.visits
      return walker.result
    #endif
  }
}

#if !canImport(ObjectiveC)
  // Metadata kinds, from the runtime's MetadataKind.def (stable ABI).
  private enum Kind {
    static let `class`: UInt = 0
    static let function: UInt = 0x302
    static let heapLocalVariable: UInt = 0x400
    static let heapGenericLocalVariable: UInt = 0x500
    /// Kinds above this are class metadata whose first word is an isa pointer.
    static let lastEnumerated: UInt = 0x7FF

    static func of(_ metadata: UnsafeRawPointer) -> UInt {
      let kind = metadata.load(as: UInt.self)
      return kind > lastEnumerated ? `class` : kind
    }
  }

  /// One step of a path, rendered only when the path reaches a target: `Wrap.field`,
  /// `Array<Model>[2]`, or `var` (a captured variable's box).
  private struct PathStep {
    static let box = PathStep(container: nil, label: nil, index: 0)

    let container: Any.Type?
    let label: String?
    let index: Int

    var description: String {
      guard let container else { return "var" }
      return shortName(of: container) + (label.map { "." + $0 } ?? "[\(index)]")
    }
  }

  /// The walk's state: what it has seen and found.
  private struct Walker {
    let targets: Set<ObjectIdentifier>
    let followObjects: Bool
    let maximumVisits: Int
    var result = CaptureScanner.Result()
    var visitedObjects: Set<UnsafeRawPointer> = []
    var visits = 0
    /// How many values deep the walk is now (bounded, so a long chain cannot overflow the stack).
    var depth = 0

    init(targets: Set<ObjectIdentifier>, followObjects: Bool, maximumVisits: Int) {
      self.targets = targets
      self.followObjects = followObjects
      self.maximumVisits = maximumVisits
    }

    var isDone: Bool { result.truncated || result.paths.count == targets.count }

    /// Counts one visit; `false` once the budget is spent.
    mutating func spend() -> Bool {
      visits += 1
      if visits > maximumVisits { result.truncated = true }
      return !result.truncated
    }

    /// Walks any value: dispatches on its dynamic type's metadata kind.
    mutating func walk(_ value: Any, path: [PathStep], namesFields: Bool = true) {
      guard !isDone, depth < CaptureScanner.maximumDepth, spend() else { return }
      depth += 1
      defer { depth -= 1 }
      walkOpened(value, path: path, namesFields: namesFields)
    }

    private mutating func walkOpened<Value>(_ value: Value, path: [PathStep], namesFields: Bool) {
      // Values without references (numbers, POD structs) and strings cannot hold an object alive.
      if _isPOD(Value.self) || Value.self == String.self { return }
      let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
      switch Kind.of(metadata) {
      case Kind.class:
        let object = value as AnyObject
        visitHeapObject(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), path: path)
      case Kind.function:
        // Function type flags: the convention sits in bits 16-23; 0 is a thick Swift closure.
        let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
        guard (flags >> 16) & 0xFF == 0, MemoryLayout<Value>.size == 2 * MemoryLayout<UInt>.size else { return }
        let context = withUnsafeBytes(of: value) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
        if let context = UnsafeRawPointer(bitPattern: context) { visitHeapObject(context, path: path) }
      default:
        walkChildren(of: value, path: path, namesFields: namesFields)
      }
    }

    /// Walks the children `Mirror` shows of a struct, enum, tuple, optional or collection.
    private mutating func walkChildren(of value: Any, path: [PathStep], namesFields: Bool) {
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle != nil else { return }  // a leaf (number, string, metatype)
      let isWrapper = !namesFields || mirror.displayStyle == .optional
      let container = type(of: value)
      for (index, child) in mirror.children.enumerated() where !isDone {
        let step = PathStep(container: container, label: child.label, index: index)
        walk(child.value, path: isWrapper ? path : path + [step])
      }
    }

    /// Visits a native heap object: a closure context, a box, or a class instance.
    mutating func visitHeapObject(_ object: UnsafeRawPointer, path: [PathStep]) {
      // An object's identity is its address; no reference is formed to a context or a box.
      let identity = unsafeBitCast(object, to: ObjectIdentifier.self)
      if targets.contains(identity), result.paths[identity] == nil {
        result.paths[identity] = path.map(\.description)
      }
      guard visitedObjects.insert(object).inserted, !isDone, depth < CaptureScanner.maximumDepth, spend() else {
        return
      }
      depth += 1
      defer { depth -= 1 }
      let metadata = object.load(as: UnsafeRawPointer.self)
      switch Kind.of(metadata) {
      case Kind.heapLocalVariable:
        walkCaptures(of: object, metadata: metadata, path: path)
      case Kind.heapGenericLocalVariable:
        // A box made by swift_allocBox: the value's offset, then its type.
        let offset = Int(metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self))
        let boxed = metadata.load(fromByteOffset: 2 * MemoryLayout<UInt>.size, as: Any.Type.self)
        if let value = load(boxed, at: object + offset) { walk(value, path: path + [.box]) }
      case Kind.class where followObjects && !targets.contains(identity):
        let instance = Unmanaged<AnyObject>.fromOpaque(object).takeUnretainedValue()
        walkFields(of: instance, path: path)
      default:
        break  // A captured object is only compared (registration-time checks), or an unknown kind.
      }
    }

    /// Walks an object's stored properties, its superclasses' included.
    private mutating func walkFields(of object: AnyObject, path: [PathStep]) {
      let container: Any.Type = type(of: object)
      var mirror: Mirror? = Mirror(reflecting: object)
      while let level = mirror, !isDone {
        for (index, child) in level.children.enumerated() where !isDone {
          walk(child.value, path: path + [PathStep(container: container, label: child.label, index: index)])
        }
        mirror = level.superclassMirror
      }
    }

    /// Walks the captures of a closure context, as its capture descriptor lays them out.
    private mutating func walkCaptures(of context: UnsafeRawPointer, metadata: UnsafeRawPointer, path: [PathStep]) {
      let word = MemoryLayout<UInt>.size
      // HeapLocalVariableMetadata: kind, OffsetToFirstCapture (UInt32), CaptureDescription.
      let firstCapture = Int(metadata.load(fromByteOffset: word, as: UInt32.self))
      guard let descriptor = metadata.load(fromByteOffset: 2 * word, as: UnsafeRawPointer?.self) else {
        result.incompleteContexts += 1
        return
      }
      // CaptureDescriptor: NumCaptureTypes, NumMetadataSources, NumBindings (UInt32 each), then one
      // relative pointer to a mangled type name per capture.
      let captureCount = Int(descriptor.load(as: UInt32.self))
      let bindingCount = Int(descriptor.load(fromByteOffset: 8, as: UInt32.self))
      var offset = firstCapture + bindingCount * word
      for index in 0..<captureCount where !isDone {
        let record = descriptor + 12 + 4 * index
        let name = (record + Int(record.load(as: Int32.self))).assumingMemoryBound(to: UInt8.self)
        switch CaptureLayouts.layout(ofCaptureNamed: name) {
        case .value(let type):
          let alignment = alignmentOf(type)
          offset = (offset + alignment - 1) & ~(alignment - 1)
          if let value = load(type, at: context + offset) { walk(value, path: path) }
          offset += sizeOf(type)
        case .skipped(let size, let alignment):
          offset = (offset + alignment - 1) & ~(alignment - 1) + size
        case .box:
          offset = (offset + word - 1) & ~(word - 1)
          if let box = UnsafeRawPointer(bitPattern: (context + offset).load(as: UInt.self)) {
            visitHeapObject(box, path: path + [.box])
          }
          offset += word
        case .thickFunction:
          offset = (offset + word - 1) & ~(word - 1)
          if let nested = UnsafeRawPointer(bitPattern: (context + offset + word).load(as: UInt.self)) {
            visitHeapObject(nested, path: path)
          }
          offset += 2 * word
        case .unknown:
          result.incompleteContexts += 1
          return  // The rest of the layout is unknown: stop rather than guess.
        }
      }
    }
  }

  /// A copy of the value of type `type` stored at `address`, as `Any`.
  private func load(_ type: Any.Type, at address: UnsafeRawPointer) -> Any? {
    func load<Value>(_: Value.Type) -> Any { address.load(as: Value.self) }
    return _openExistential(type, do: load)
  }

  private func sizeOf(_ type: Any.Type) -> Int {
    func size<Value>(_: Value.Type) -> Int { MemoryLayout<Value>.size }
    return _openExistential(type, do: size)
  }

  private func alignmentOf(_ type: Any.Type) -> Int {
    func alignment<Value>(_: Value.Type) -> Int { MemoryLayout<Value>.alignment }
    return _openExistential(type, do: alignment)
  }

  private func shortName(of type: Any.Type) -> String {
    String(describing: type)
  }

  /// The layout of each capture type met so far, by the address of its mangled name (reflection
  /// metadata lives as long as the binary image that holds it), so that each name is resolved once
  /// per process.
  private enum CaptureLayouts {
    // @unchecked Sendable: `Layout` holds metatypes and integers only, which are immutable.
    private struct Cache: @unchecked Sendable {
      var layouts: [UnsafeRawPointer: MangledName.Layout] = [:]
    }

    private static let cache = LockedState(Cache())

    static func layout(ofCaptureNamed name: UnsafePointer<UInt8>) -> MangledName.Layout {
      let key = UnsafeRawPointer(name)
      if let known = cache.withLock({ $0.layouts[key] }) { return known }
      // Resolved outside the lock: resolving may instantiate metadata, which takes runtime locks.
      let layout = MangledName(name).layout()
      cache.withLock { $0.layouts[key] = layout }
      return layout
    }
  }

  /// A mangled type name from reflection metadata, which may embed symbolic references (a control
  /// byte followed by a 4-byte relative offset or a pointer).
  private struct MangledName {
    let start: UnsafePointer<UInt8>
    let length: Int
    /// The characters after the last symbolic reference: the outermost type's mangling operators.
    let tail: [UInt8]

    init(_ start: UnsafePointer<UInt8>) {
      self.start = start
      var index = 0
      var tailStart = 0
      while start[index] != 0 {
        switch start[index] {
        case 0x01...0x17:
          index += 1 + 4
          tailStart = index
        case 0x18...0x1F:
          index += 1 + MemoryLayout<UInt>.size
          tailStart = index
        default:
          index += 1
        }
      }
      self.length = index
      self.tail = Array(UnsafeBufferPointer(start: start + tailStart, count: index - tailStart))
    }

    enum Layout {
      /// A type the runtime resolves: load and walk it.
      case value(Any.Type)
      /// A `weak` or `unowned` reference: holds nothing alive; skip its bytes.
      case skipped(size: Int, alignment: Int)
      /// A captured `var`: a pointer to its box.
      case box
      /// A closure whose type the runtime cannot resolve: function pointer and context.
      case thickFunction
      /// Anything else: the layout from here on is unknown.
      case unknown
    }

    func resolve(length: Int) -> Any.Type? {
      _getTypeByMangledNameInContext(start, UInt(length), genericContext: nil, genericArguments: nil)
    }

    func layout() -> Layout {
      // Reference storage and boxes first: the runtime resolves `weak T?` as plain `T?`, and
      // loading a weak reference as a strong one would read the wrong bits. SIL function types
      // next: the runtime cannot resolve them, and failing is slow (it formats an error).
      let kind = tail.count >= 2 ? String(decoding: tail.suffix(2), as: UTF8.self) : ""
      switch kind {
      case "Xw", "Xo", "Xu":  // weak, unowned, unowned(unsafe): the same layout as the referent
        guard let referent = resolve(length: length - 2) else { return .unknown }
        return .skipped(size: sizeOf(referent), alignment: alignmentOf(referent))
      case "Xb", "Xx", "XX":  // SIL box types
        return .box
      default:
        if isThickFunction { return .thickFunction }
        return resolve(length: length).map(Layout.value) ?? .unknown
      }
    }

    /// Whether the name ends in a SIL function type (`… I <attributes> _`) with a thick callee
    /// convention: owned, guaranteed or unowned, and a Swift (not C or block) representation.
    private var isThickFunction: Bool {
      guard tail.last == UInt8(ascii: "_"), let marker = tail.lastIndex(of: UInt8(ascii: "I")) else { return false }
      let attributes = tail[(marker + 1)..<(tail.count - 1)]
      guard attributes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return false }
      // Optional leading attributes: pseudo-generic, escaping, isolated(any), differentiability.
      guard
        let callee = attributes.first(where: { !"PeAdlf".utf8.contains($0) }),
        "gxy".utf8.contains(callee)
      else { return false }
      let afterCallee = attributes.drop(while: { $0 != callee }).dropFirst()
      return afterCallee.first.map { !"BC".utf8.contains($0) } ?? true
    }
  }
#endif
