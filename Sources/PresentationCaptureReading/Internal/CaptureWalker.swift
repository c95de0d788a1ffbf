#if !canImport(ObjectiveC)
  #if canImport(Glibc)
    internal import Glibc
  #endif

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
      /// A dictionary's value, by its key as a subscript spells it: `1`, `"name"`.
      case value(forKey: String)
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
      case .member, .value:
        return (container.map(shortName) ?? "") + (component ?? "")
      }
    }

    /// The step as a holder path spells it after its root's type: `.field`, `[2]`, `.0` (a tuple's
    /// unlabelled element, which `Mirror` labels `.0`).
    var component: String? {
      if case .value(let key) = kind { return "[\(key)]" }
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
    private(set) var maximumVisits: Int
    var result = CaptureScanner.Result()
    /// For each target found, the path's last link in `links`.
    private(set) var found: [ObjectIdentifier: Int] = [:]
    // Structs, not tuples: in a debug build each generic array operation on a tuple element asks the
    // runtime for the tuple's metadata (a cache look-up under a lock), a third of a report's cost.
    private struct Link {
      let parent: Int
      let step: PathStep
    }
    private struct Queued {
      var value: Any
      let link: Int
      let namesFields: Bool
    }
    private var links: [Link] = []
    private var queue: [Queued] = []
    private var visitedObjects: Set<UnsafeRawPointer> = []

    init(targets: Set<ObjectIdentifier>, followObjects: Bool, maximumVisits: Int) {
      self.targets = targets
      self.targetCount = targets.count
      self.followObjects = followObjects
      self.maximumVisits = maximumVisits
    }

    /// `targets.count` and `found.count`, kept as integers: in a debug build each `count` of a
    /// set or dictionary is a generic call, and `isDone` is asked at every step.
    private let targetCount: Int
    private var foundCount = 0
    /// The plans of the last closure contexts (a few: an owner-bound handler is a context that
    /// holds the user's closure, another context) and the last value type met: a report's handlers
    /// are mostly closures of a few kinds, so most look-ups of the shared caches (a lock each) are
    /// saved.
    private struct LastCapturePlan {
      let metadata: UnsafeRawPointer
      let plan: CapturePlan
    }
    private struct LastWalkPlan {
      let metadata: UnsafeRawPointer
      let plan: WalkPlan
    }
    private var lastCapturePlans: [LastCapturePlan] = []
    private var nextCapturePlan = 0
    private static let capturePlansKept = 4
    private var lastWalkPlan: LastWalkPlan?

    var isDone: Bool { result.truncated || foundCount == targetCount }

    /// Forgets the last walk, keeping the storage of its collections, for a walk of another root.
    mutating func reset(maximumVisits: Int) {
      self.maximumVisits = maximumVisits
      result = CaptureScanner.Result()
      // Replaced, not emptied in place: `removeAll(keepingCapacity:)` is a generic call that costs
      // a debug build more than allocating the next walk's storage anew.
      if foundCount > 0 { found = [:] }
      foundCount = 0
      links = []
      queue = []
      visitedObjects = []
    }

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
        let queued = queue[next]
        queue[next].value = 0  // Releases the copy once it is expanded.
        next += 1
        expand(queued.value, link: queued.link, namesFields: queued.namesFields)
      }
      result.visits = min(queue.count, maximumVisits)
      queue = []  // Releases the copies not expanded.
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
      links.append(Link(parent: parent, step: step))
      return links.count - 1
    }

    /// Queues `value` for expansion, counting one visit; marks the walk truncated past its bound.
    private mutating func enqueue(_ value: Any, link: Int, namesFields: Bool = true) {
      guard !result.truncated else { return }
      guard queue.count < maximumVisits else {
        result.truncated = true
        return
      }
      queue.append(Queued(value: value, link: link, namesFields: namesFields))
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
      let plan: WalkPlan
      if let last = lastWalkPlan, last.metadata == metadata {
        plan = last.plan
      } else {
        plan = WalkPlan.of(Value.self)
        lastWalkPlan = LastWalkPlan(metadata: metadata, plan: plan)
      }
      switch plan {
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
          if WalkPlan.holdsNothing(type) { continue }
          guard let child = load(type, at: base + field.offset) else {
            result.unreadValues += 1
            continue
          }
          let step = PathStep(container: container, kind: .member(field.name), index: index)
          enqueue(child, link: namesFields ? self.link(link, step) : link)
        case .skipped:
          continue
        case .unreadable, .block:
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
      if mirror.displayStyle == .dictionary {
        expandEntries(of: mirror, container: container, link: link, namesFields: namesFields)
        return
      }
      for (index, child) in mirror.children.enumerated() {
        if result.truncated { break }
        let step = PathStep(container: container, kind: .member(child.label), index: index)
        enqueue(child.value, link: isWrapper ? link : self.link(link, step))
      }
    }

    /// Queues a dictionary's values, each named by its key (`rowModels[1]`, not the position of its
    /// entry in the storage), and its keys (`rowModels[1].key`).
    private mutating func expandEntries(of mirror: Mirror, container: Any.Type, link: Int, namesFields: Bool) {
      for (index, entry) in mirror.children.enumerated() {
        if result.truncated { break }
        let pair = Array(Mirror(reflecting: entry.value).children)
        guard pair.count == 2 else { continue }
        let key = DictionaryKey.subscriptText(pair[0].value)
        let valueStep = PathStep(container: container, kind: .value(forKey: key), index: index)
        let valueLink = namesFields ? self.link(link, valueStep) : link
        enqueue(pair[1].value, link: valueLink)
        let keyStep = PathStep(container: nil, kind: .member("key"), index: 0)
        enqueue(pair[0].value, link: namesFields ? self.link(valueLink, keyStep) : link)
      }
    }

    /// Visits a native heap object: a closure context, a box, or a class instance, which the caller
    /// keeps alive for the call.
    private mutating func visitHeapObject(_ object: UnsafeRawPointer, link: Int) {
      // An object's identity is its address; no reference is formed to a context or a box.
      let identity = unsafeBitCast(object, to: ObjectIdentifier.self)
      if targets.contains(identity), found[identity] == nil {
        found[identity] = link
        foundCount += 1
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
        if StoredFields.isLockedStateStorage(metadata) {
          expandLockedState(object, metadata: metadata, link: link)
          return
        }
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

    /// Queues a copy of the state a `LockedState` guards (its storage's `header`), made while
    /// holding its lock (the storage's one element, after the header at the element's alignment,
    /// as `ManagedBuffer` lays them out): another thread may be changing it (a center that tests
    /// running in parallel share). The lock is only tried, never waited for (the walking thread may
    /// hold it already), and nothing is released under it (the copy goes once walked). Held by
    /// another thread, or off glibc: the state is counted unread.
    private mutating func expandLockedState(_ object: UnsafeRawPointer, metadata: UnsafeRawPointer, link: Int) {
      #if canImport(Glibc)
        guard case .fields(let fields) = StoredFields.ofClass(metadata), fields.count == 1,
          fields[0].name == "header", case .value(let type) = fields[0].reading
        else {
          result.unreadValues += 1
          return
        }
        let alignment = MemoryLayout<pthread_mutex_t>.alignment
        let mutexOffset = (fields[0].offset + sizeOf(type) + alignment - 1) & ~(alignment - 1)
        let mutex = UnsafeMutableRawPointer(mutating: object + mutexOffset)
          .assumingMemoryBound(to: pthread_mutex_t.self)
        guard pthread_mutex_trylock(mutex) == 0 else {
          result.unreadValues += 1
          return
        }
        let state = load(type, at: object + fields[0].offset)
        pthread_mutex_unlock(mutex)
        guard let state else {
          result.unreadValues += 1
          return
        }
        let container = unsafeBitCast(metadata, to: Any.Type.self)
        enqueue(state, link: self.link(link, PathStep(container: container, kind: .member("header"), index: 0)))
      #else
        result.unreadValues += 1
      #endif
    }

    /// Queues the captures of a closure context, as its capture plan lays them out.
    private mutating func expandCaptures(of context: UnsafeRawPointer, metadata: UnsafeRawPointer, link: Int) {
      var plan: CapturePlan?
      var kept = 0
      while kept < lastCapturePlans.count {
        if lastCapturePlans[kept].metadata == metadata {
          plan = lastCapturePlans[kept].plan
          break
        }
        kept += 1
      }
      if plan == nil {
        let made = CapturePlan.of(contextMetadata: metadata)
        let last = LastCapturePlan(metadata: metadata, plan: made)
        if lastCapturePlans.count < Self.capturePlansKept {
          lastCapturePlans.append(last)
        } else {
          lastCapturePlans[nextCapturePlan] = last
          nextCapturePlan = (nextCapturePlan + 1) % Self.capturePlansKept
        }
        plan = made
      }
      guard let plan else { return }
      result.unreadValues += plan.unreadCaptures
      var index = 0
      while index < plan.slots.count, !result.truncated {
        let slot = plan.slots[index]
        index += 1
        switch slot.kind {
        case .value(let type):
          if let value = load(type, at: context + slot.offset) {
            enqueue(value, link: link)
          } else {
            result.unreadValues += 1
          }
        case .box:
          // The context (kept alive by the closure being expanded) holds the box, whose layout is
          // either a generic box's or, like a context's, described by a capture descriptor.
          if let box = UnsafeRawPointer(bitPattern: (context + slot.offset).load(as: UInt.self)) {
            visitHeapObject(box, link: self.link(link, .box))
          }
        case .thickFunction:
          let word = MemoryLayout<UInt>.size
          if let nested = UnsafeRawPointer(bitPattern: (context + slot.offset + word).load(as: UInt.self)) {
            visitHeapObject(nested, link: self.link(link, .closure))
          }
        }
      }
    }
  }

  /// Where the captures of one kind of closure context lie and how each is read, worked out once
  /// per context metadata (one per closure literal) from its capture descriptor: a handler's walk
  /// then reads its captures without looking up their names, sizes and plans again. Captures that
  /// hold no reference (integers, strings, thin and C functions, `weak` ones) are left out.
  struct CapturePlan {
    struct Slot {
      enum Kind {
        /// A value the runtime resolves: load and walk it.
        case value(Any.Type)
        /// A captured `var`: a pointer to its box.
        case box
        /// A thick closure: function pointer, then context.
        case thickFunction
      }
      let offset: Int
      let kind: Kind
    }
    let slots: [Slot]
    /// Captures the walk cannot read (blocks, unresolvable types, a layout computed at run time):
    /// counted unread on every walk of such a context.
    let unreadCaptures: Int

    private static let cache = LayoutCache<CapturePlan>()

    static func of(contextMetadata metadata: UnsafeRawPointer) -> CapturePlan {
      cache.value(for: metadata) { metadata in make(metadata) }
    }

    private static func make(_ metadata: UnsafeRawPointer) -> CapturePlan {
      let word = MemoryLayout<UInt>.size
      // HeapLocalVariableMetadata: kind, OffsetToFirstCapture (UInt32), CaptureDescription.
      let firstCapture = Int(metadata.load(fromByteOffset: word, as: UInt32.self))
      // An offset inside the object's header means the layout is computed at run time (a capture
      // of a type whose size this module does not know, such as `AsyncStream.Continuation`): the
      // walk does not guess it.
      guard firstCapture >= 2 * word,
        let descriptor = metadata.load(fromByteOffset: 2 * word, as: UnsafeRawPointer?.self)
      else { return CapturePlan(slots: [], unreadCaptures: 1) }
      // CaptureDescriptor: NumCaptureTypes, NumMetadataSources, NumBindings (UInt32 each), then one
      // relative pointer to a mangled type name per capture.
      let captureCount = Int(descriptor.load(as: UInt32.self))
      let bindingCount = Int(descriptor.load(fromByteOffset: 8, as: UInt32.self))
      var offset = firstCapture + bindingCount * word
      var slots: [Slot] = []
      var unread = 0
      for index in 0..<captureCount {
        let record = descriptor + 12 + 4 * index
        let name = (record + Int(record.load(as: Int32.self))).assumingMemoryBound(to: UInt8.self)
        switch CaptureLayouts.layout(ofCaptureNamed: name) {
        case .value(let type):
          let alignment = alignmentOf(type)
          offset = (offset + alignment - 1) & ~(alignment - 1)
          switch FunctionConvention.of(type) {
          case nil where WalkPlan.holdsNothing(type):
            break  // An integer, a string: nothing to walk.
          case .swift, nil:
            slots.append(Slot(offset: offset, kind: .value(type)))
          case .block:
            unread += 1  // A block's captures are not described to the walk.
          case .thinOrC:
            break  // A C function pointer or a thin function holds nothing.
          }
          offset += sizeOf(type)
        case .skipped(let size, let alignment):
          offset = (offset + alignment - 1) & ~(alignment - 1) + size
        case .unreadWord:
          unread += 1
          offset = (offset + word - 1) & ~(word - 1) + word
        case .box:
          offset = (offset + word - 1) & ~(word - 1)
          slots.append(Slot(offset: offset, kind: .box))
          offset += word
        case .thickFunction:
          offset = (offset + word - 1) & ~(word - 1)
          slots.append(Slot(offset: offset, kind: .thickFunction))
          offset += 2 * word
        case .unknown:
          // The rest of the layout is unknown: stop rather than guess.
          return CapturePlan(slots: slots, unreadCaptures: unread + 1)
        }
      }
      return CapturePlan(slots: slots, unreadCaptures: unread)
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
