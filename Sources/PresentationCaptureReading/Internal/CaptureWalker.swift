#if !canImport(ObjectiveC)
  // Metadata kinds, from the runtime's MetadataKind.def (stable ABI).
  enum MetadataKind {
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
  struct PathStep {
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
  struct Walker {
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
      switch MetadataKind.of(metadata) {
      case MetadataKind.class:
        let object = value as AnyObject
        visitHeapObject(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), path: path)
      case StructFields.structKind where !(value is any CustomReflectable):
        // The runtime's own field records, not `Mirror`: `weak` and `unowned` properties unread.
        walkStoredFields(of: value, metadata: metadata, path: path, namesFields: namesFields)
      case MetadataKind.function:
        // Function type flags: the convention sits in bits 16-23; 0 is a thick Swift closure.
        let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
        guard (flags >> 16) & 0xFF == 0, MemoryLayout<Value>.size == 2 * MemoryLayout<UInt>.size else { return }
        let context = withUnsafeBytes(of: value) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
        if let context = UnsafeRawPointer(bitPattern: context) { visitHeapObject(context, path: path) }
      default:
        walkChildren(of: value, path: path, namesFields: namesFields)
      }
    }

    /// Walks the strong stored properties of a struct, as its field records lay them out.
    private mutating func walkStoredFields<Value>(
      of value: Value, metadata: UnsafeRawPointer, path: [PathStep], namesFields: Bool
    ) {
      guard let fields = StructFields.fields(ofStruct: metadata) else {
        result.unreadValues += 1
        return
      }
      withUnsafeBytes(of: value) { bytes in
        guard let base = bytes.baseAddress else { return }
        for (index, field) in fields.enumerated() where !isDone {
          switch field.reading {
          case .value(let type):
            guard let child = load(type, at: base + field.offset) else { continue }
            let step = PathStep(container: Value.self, label: field.name, index: index)
            walk(child, path: namesFields ? path + [step] : path)
          case .skipped:
            continue
          case .unreadable:
            result.unreadValues += 1
          }
        }
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
      switch MetadataKind.of(metadata) {
      case MetadataKind.heapLocalVariable:
        walkCaptures(of: object, metadata: metadata, path: path)
      case MetadataKind.heapGenericLocalVariable:
        // A box made by swift_allocBox: the value's offset, then its type.
        let offset = Int(metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self))
        let boxed = metadata.load(fromByteOffset: 2 * MemoryLayout<UInt>.size, as: Any.Type.self)
        if let value = load(boxed, at: object + offset) { walk(value, path: path + [.box]) }
      case MetadataKind.class where followObjects && !targets.contains(identity):
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
        result.unreadValues += 1
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
          result.unreadValues += 1
          return  // The rest of the layout is unknown: stop rather than guess.
        }
      }
    }
  }

  /// A copy of the value of type `type` stored at `address`, as `Any`.
  func load(_ type: Any.Type, at address: UnsafeRawPointer) -> Any? {
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
