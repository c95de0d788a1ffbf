#if !canImport(ObjectiveC)
  // Metadata kinds, from the runtime's MetadataKind.def (stable ABI).
  enum MetadataKind {
    static let `class`: UInt = 0
    static let function: UInt = 0x302
    static let existential: UInt = 0x303
    static let heapLocalVariable: UInt = 0x400
    static let heapGenericLocalVariable: UInt = 0x500
    /// Kinds above this are class metadata whose first word is an isa pointer.
    static let lastEnumerated: UInt = 0x7FF

    static func of(_ metadata: UnsafeRawPointer) -> UInt {
      let kind = metadata.load(as: UInt.self)
      return kind > lastEnumerated ? `class` : kind
    }
  }

  /// One step of a path, rendered only when the path reaches a target.
  struct PathStep {
    enum Kind {
      /// A stored property, an enum payload or a tuple element (`label`), or a collection's
      /// element (`nil`: by its index).
      case member(String?)
      /// A captured variable's box.
      case box
      /// Into a closure's context: what follows is what the closure captures.
      case closure
    }

    static let box = PathStep(container: nil, kind: .box, index: 0)
    static let closure = PathStep(container: nil, kind: .closure, index: 0)

    let container: Any.Type?
    let kind: Kind
    let index: Int

    /// The step as the capture scanner words it: `Wrap.field`, `Array<Model>[2]`, `var`; `nil`
    /// for a closure, which the scanner's wording does not name.
    var description: String? {
      switch kind {
      case .box: return "var"
      case .closure: return nil
      case .member:
        return (container.map(shortName) ?? "") + (component ?? "")
      }
    }

    /// The step as a holder path spells it after its root's type: `.field`, `[2]`, `.0` (a tuple's
    /// unlabelled element, which `Mirror` labels `.0`).
    var component: String? {
      guard case .member(let label) = kind else { return nil }
      guard let label else { return "[\(index)]" }
      return label.hasPrefix(".") ? label : "." + label
    }
  }

  /// A breadth-first walk of everything a value strongly references: closure contexts, boxes,
  /// value types, and (when `followObjects` is set) objects' stored properties. Breadth first, so
  /// the path found to each target is a shortest one, and with no recursion, so a long chain (a
  /// linked list) cannot overflow the stack: the walk is bounded by its visits only.
  ///
  /// Every value waiting in the queue is a copy that the walk retains; a context or a box is read
  /// only while the closure or context that holds it is retained, so nothing it dereferences can be
  /// freed under it (as long as the graph is not being changed meanwhile, as documented).
  struct Walker {
    let targets: Set<ObjectIdentifier>
    let followObjects: Bool
    let maximumVisits: Int
    var result = CaptureScanner.Result()
    /// For each target found, the path's last link in `links`.
    private(set) var found: [ObjectIdentifier: Int] = [:]
    private var links: [(parent: Int, step: PathStep)] = []
    private var queue: [(value: Any, link: Int, namesFields: Bool)] = []
    private var visitedObjects: Set<UnsafeRawPointer> = []

    init(targets: Set<ObjectIdentifier>, followObjects: Bool, maximumVisits: Int) {
      self.targets = targets
      self.followObjects = followObjects
      self.maximumVisits = maximumVisits
    }

    var isDone: Bool { result.truncated || found.count == targets.count }

    /// Walks `root` and what it reaches. `namesFields: false` leaves the root's own fields (such as
    /// the case of a handler enum) out of the paths; `rootIsCandidate: false` makes an object root
    /// that is a target count only when it is reached again through a path (a cycle).
    mutating func walk(_ root: Any, namesFields: Bool, rootIsCandidate: Bool = true) {
      if !rootIsCandidate, let object = heapObject(in: root) {
        visitedObjects.insert(object)
        expandObject(object, link: -1, evenIfTarget: true)
      } else {
        enqueue(root, link: -1, namesFields: namesFields)
      }
      var next = 0
      while next < queue.count, !isDone {
        let (value, link, namesFields) = queue[next]
        queue[next] = (0, -1, false)  // Releases the copy once it is expanded.
        next += 1
        expand(value, link: link, namesFields: namesFields)
      }
      result.visits = min(queue.count, maximumVisits)
      queue = []
    }

    /// The steps from the root to `target`, if it was found.
    func path(to target: ObjectIdentifier) -> [PathStep]? {
      guard var link = found[target] else { return nil }
      var steps: [PathStep] = []
      while link >= 0 {
        steps.append(links[link].step)
        link = links[link].parent
      }
      return steps.reversed()
    }

    private mutating func link(_ parent: Int, _ step: PathStep) -> Int {
      links.append((parent, step))
      return links.count - 1
    }

    /// Queues `value` for expansion, counting one visit; marks the walk truncated past its bound.
    private mutating func enqueue(_ value: Any, link: Int, namesFields: Bool = true) {
      guard !result.truncated else { return }
      guard queue.count < maximumVisits else {
        result.truncated = true
        return
      }
      queue.append((value, link, namesFields))
    }

    /// The object inside `value` when `value` is a class instance.
    private func heapObject(in value: Any) -> UnsafeRawPointer? {
      func open<Value>(_ value: Value) -> UnsafeRawPointer? {
        let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
        guard MetadataKind.of(metadata) == MetadataKind.class else { return nil }
        return UnsafeRawPointer(Unmanaged.passUnretained(value as AnyObject).toOpaque())
      }
      return _openExistential(value, do: open)
    }

    private mutating func expand(_ value: Any, link: Int, namesFields: Bool) {
      func open<Value>(_ value: Value) { expandOpened(value, link: link, namesFields: namesFields) }
      _openExistential(value, do: open)
    }

    private mutating func expandOpened<Value>(_ value: Value, link: Int, namesFields: Bool) {
      let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
      switch WalkPlan.of(Value.self) {
      case .nothing:
        return
      case .object:
        visitHeapObject(UnsafeRawPointer(Unmanaged.passUnretained(value as AnyObject).toOpaque()), link: link)
      case .storedFields:
        // The runtime's own field records, not `Mirror`: no user `customMirror` runs, and `weak`
        // and `unowned` properties are not read.
        withUnsafeBytes(of: value) { bytes in
          guard let base = bytes.baseAddress else { return }
          expandStoredFields(
            StoredFields.ofStruct(metadata), at: base, container: Value.self, link: link, namesFields: namesFields)
        }
      case .existential:
        // An existential that was itself put in an `Any` (a capture or property of type `Any` or
        // `any P`, loaded generically): read the value it holds.
        let inner = withUnsafeBytes(of: value) { bytes in
          bytes.baseAddress.flatMap { Existential.contents(of: $0, metadata: metadata) }
        }
        if let inner {
          expand(inner, link: link, namesFields: namesFields)
        } else {
          result.unreadValues += 1
        }
      case .function:
        // Function type flags: the convention sits in bits 16-23; 0 is a thick Swift closure. The
        // closure (retained by `value`) keeps its context alive while it is read.
        let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
        guard (flags >> 16) & 0xFF == 0, MemoryLayout<Value>.size == 2 * MemoryLayout<UInt>.size else { return }
        let context = withUnsafeBytes(of: value) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
        if let context = UnsafeRawPointer(bitPattern: context) {
          visitHeapObject(context, link: self.link(link, .closure))
        }
      case .mirrorChildren:
        expandChildren(of: value, link: link, namesFields: namesFields)
      case .unreadable:
        result.unreadValues += 1
      }
    }

    /// Queues the strong stored properties of a struct or an object at `base`, as its field records
    /// lay them out.
    private mutating func expandStoredFields(
      _ layout: StoredFields.Layout, at base: UnsafeRawPointer, container: Any.Type, link: Int, namesFields: Bool
    ) {
      guard case .fields(let fields) = layout else {
        result.unreadValues += 1
        return
      }
      for (index, field) in fields.enumerated() {
        if result.truncated { break }
        switch field.reading {
        case .value(let type):
          guard let child = load(type, at: base + field.offset) else {
            result.unreadValues += 1
            continue
          }
          let step = PathStep(container: container, kind: .member(field.name), index: index)
          enqueue(child, link: namesFields ? self.link(link, step) : link)
        case .skipped:
          continue
        case .unreadable:
          result.unreadValues += 1
        }
      }
    }

    /// Queues the children `Mirror` shows of an enum, tuple, optional or standard-library
    /// collection. Children are made one at a time and the walk stops at its visit bound, so a huge
    /// collection costs no more than the bound.
    private mutating func expandChildren(of value: Any, link: Int, namesFields: Bool) {
      let mirror = Mirror(reflecting: value)
      let isWrapper = !namesFields || mirror.displayStyle == .optional
      let container = type(of: value)
      for (index, child) in mirror.children.enumerated() {
        if result.truncated { break }
        let step = PathStep(container: container, kind: .member(child.label), index: index)
        enqueue(child.value, link: isWrapper ? link : self.link(link, step))
      }
    }

    /// Visits a native heap object: a closure context, a box, or a class instance, which the caller
    /// keeps alive for the call.
    private mutating func visitHeapObject(_ object: UnsafeRawPointer, link: Int) {
      // An object's identity is its address; no reference is formed to a context or a box.
      let identity = unsafeBitCast(object, to: ObjectIdentifier.self)
      if targets.contains(identity), found[identity] == nil {
        found[identity] = link
        result.paths[identity] = path(to: identity).map { $0.compactMap(\.description) }
      }
      guard visitedObjects.insert(object).inserted, !isDone else { return }
      expandObject(object, link: link)
    }

    /// Queues what a heap object holds; a target object is not walked into unless `evenIfTarget`.
    private mutating func expandObject(_ object: UnsafeRawPointer, link: Int, evenIfTarget: Bool = false) {
      let identity = unsafeBitCast(object, to: ObjectIdentifier.self)
      let metadata = object.load(as: UnsafeRawPointer.self)
      switch MetadataKind.of(metadata) {
      case MetadataKind.heapLocalVariable:
        expandCaptures(of: object, metadata: metadata, link: link)
      case MetadataKind.heapGenericLocalVariable:
        // A box made by swift_allocBox: the value's offset, then its type.
        let offset = Int(metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self))
        let boxed = metadata.load(fromByteOffset: 2 * MemoryLayout<UInt>.size, as: Any.Type.self)
        if let value = load(boxed, at: object + offset) {
          enqueue(value, link: link)
        } else {
          result.unreadValues += 1
        }
      case MetadataKind.class where followObjects && (evenIfTarget || !targets.contains(identity)):
        // The object's stored properties (its superclasses' included), read in place from its field
        // records: no `customMirror` runs.
        expandStoredFields(
          StoredFields.ofClass(metadata), at: object, container: unsafeBitCast(metadata, to: Any.Type.self),
          link: link, namesFields: true)
      case MetadataKind.class:
        break  // A captured object is only compared (registration-time checks).
      default:
        // Another kind of heap object (a task, a runtime error box): its contents are not described
        // to the walk.
        result.unreadValues += 1
      }
    }

    /// Queues the captures of a closure context, as its capture descriptor lays them out.
    private mutating func expandCaptures(of context: UnsafeRawPointer, metadata: UnsafeRawPointer, link: Int) {
      let word = MemoryLayout<UInt>.size
      // HeapLocalVariableMetadata: kind, OffsetToFirstCapture (UInt32), CaptureDescription.
      let firstCapture = Int(metadata.load(fromByteOffset: word, as: UInt32.self))
      // An offset inside the object's header means the layout is computed at run time (a capture
      // of a type whose size this module does not know, such as `AsyncStream.Continuation`): the
      // walk does not guess it.
      guard firstCapture >= 2 * word,
        let descriptor = metadata.load(fromByteOffset: 2 * word, as: UnsafeRawPointer?.self)
      else {
        result.unreadValues += 1
        return
      }
      // CaptureDescriptor: NumCaptureTypes, NumMetadataSources, NumBindings (UInt32 each), then one
      // relative pointer to a mangled type name per capture.
      let captureCount = Int(descriptor.load(as: UInt32.self))
      let bindingCount = Int(descriptor.load(fromByteOffset: 8, as: UInt32.self))
      var offset = firstCapture + bindingCount * word
      for index in 0..<captureCount {
        if result.truncated { break }
        let record = descriptor + 12 + 4 * index
        let name = (record + Int(record.load(as: Int32.self))).assumingMemoryBound(to: UInt8.self)
        switch CaptureLayouts.layout(ofCaptureNamed: name) {
        case .value(let type):
          let alignment = alignmentOf(type)
          offset = (offset + alignment - 1) & ~(alignment - 1)
          switch FunctionConvention.of(type) {
          case .swift, nil:
            if let value = load(type, at: context + offset) {
              enqueue(value, link: link)
            } else {
              result.unreadValues += 1
            }
          case .block:
            result.unreadValues += 1  // A block's captures are not described to the walk.
          case .thinOrC:
            break  // A C function pointer or a thin function holds nothing.
          }
          offset += sizeOf(type)
        case .skipped(let size, let alignment):
          offset = (offset + alignment - 1) & ~(alignment - 1) + size
        case .unreadWord:
          result.unreadValues += 1
          offset = (offset + word - 1) & ~(word - 1) + word
        case .box:
          offset = (offset + word - 1) & ~(word - 1)
          // The context (kept alive by the closure being expanded) holds the box, whose layout is
          // either a generic box's or, like a context's, described by a capture descriptor.
          if let box = UnsafeRawPointer(bitPattern: (context + offset).load(as: UInt.self)) {
            visitHeapObject(box, link: self.link(link, .box))
          }
          offset += word
        case .thickFunction:
          offset = (offset + word - 1) & ~(word - 1)
          if let nested = UnsafeRawPointer(bitPattern: (context + offset + word).load(as: UInt.self)) {
            visitHeapObject(nested, link: self.link(link, .closure))
          }
          offset += 2 * word
        case .unknown:
          result.unreadValues += 1
          return  // The rest of the layout is unknown: stop rather than guess.
        }
      }
    }
  }

  /// A copy of the value of type `type` stored at `address`, as `Any`; `nil` for a noncopyable
  /// type (`Mutex`, a `~Copyable` struct), which is never copied: its value witnesses say so (flag
  /// 0x80_0000 of the flags after the table's 8 functions, size and stride).
  func load(_ type: Any.Type, at address: UnsafeRawPointer) -> Any? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let witnesses = metadata.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
    guard witnesses.load(fromByteOffset: 10 * MemoryLayout<UInt>.size, as: UInt32.self) & 0x80_0000 == 0 else {
      return nil
    }
    func load<Value>(_: Value.Type) -> Any { address.load(as: Value.self) }
    return _openExistential(type, do: load)
  }

  func sizeOf(_ type: Any.Type) -> Int {
    func size<Value>(_: Value.Type) -> Int { MemoryLayout<Value>.size }
    return _openExistential(type, do: size)
  }

  func alignmentOf(_ type: Any.Type) -> Int {
    func alignment<Value>(_: Value.Type) -> Int { MemoryLayout<Value>.alignment }
    return _openExistential(type, do: alignment)
  }

  func shortName(of type: Any.Type) -> String {
    String(describing: type)
  }
#endif
