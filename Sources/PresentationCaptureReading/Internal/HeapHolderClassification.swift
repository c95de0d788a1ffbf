#if os(Linux) && canImport(Glibc)
  internal import Glibc

  extension HolderSearch {
    /// What a node must be held by, as a stored value: a strong reference (an object, a closure's
    /// context), a collection's storage (by the collection), or a block (by a block property).
    private enum Shape {
      case object
      case collection([String])
      case block
      case none
    }

    private func shape(of node: HeapNode) -> Shape {
      switch node.kind {
      case .survivor, .object, .context: return .object
      case .arrayStorage: return .collection(["Array", "ContiguousArray", "ArraySlice"])
      case .dictionaryStorage: return .collection(["Dictionary"])
      case .swiftBlock, .dispatchBlock: return .block
      default: return .none
      }
    }

    /// The holder of `child` whose word at `address` equals the child's address, and how it holds
    /// it; `nil` unless every proof holds.
    func classify(_ address: UInt, child: HeapNode) -> (HeapNode, HeapStep)? {
      if images.contains(where: { image in image.writableSegments.contains { $0.contains(address) } }) {
        return global(at: address, child: child)
      }
      guard let region = regions.first(where: { $0.contains(address) }) else { return nil }
      let near = allocator.allocations(holding: address, in: region)
      for allocation in near {
        if let found = recognize(allocation, at: address, child: child) { return found }
      }
      // Far into a large allocation (an array of thousands of elements): look further back.
      guard case .glibc = allocator, region.kind != .mappedChunks else { return nil }
      for allocation in allocator.allocations(holding: address, in: region, reach: 128 << 10)
      where !near.contains(allocation) {
        if let found = recognize(allocation, at: address, child: child) { return found }
      }
      return nil
    }

    private func recognize(_ allocation: Allocation, at address: UInt, child: HeapNode) -> (HeapNode, HeapStep)? {
      guard let first = ProcessMemory.word(at: allocation.start) else { return nil }
      let offset = address - allocation.start
      if facts.taskMetadata != 0, first == facts.taskMetadata {
        return task(at: allocation, offset: offset, address: address)
          ?? taskAllocatorHolder(at: allocation, offset: offset, address: address, child: child)
      }
      if facts.taskSlabMetadata != 0, first == facts.taskSlabMetadata {
        return taskSlab(at: allocation, offset: offset, address: address, child: child)
      }
      if facts.mallocBlockIsa != 0, first == facts.mallocBlockIsa {
        return block(at: allocation, offset: offset, child: child)
      }
      if case .swiftBlock = child.kind, offset == 40, let function = ProcessMemory.word(at: address &- 8),
        function == ProcessMemory.word(at: child.address &+ 16)
      {
        // A continuation: flags, priority, next, voucher, function (the block's invoke), context.
        return (HeapNode(address: allocation.start, kind: .continuation), HeapStep(kind: .pending))
      }
      if case .continuation = child.kind, facts.dispatchAfterSourceType != 0, first == facts.dispatchAfterSourceType,
        offset == 40
      {
        // A timer source's refs: type, owner, state, ident and flags, then `ds_handler[0]`.
        return (HeapNode(address: allocation.start, kind: .afterTimer), HeapStep(kind: .pending))
      }
      if let found = dispatchHolder(allocation, first: first, offset: offset, child: child) { return found }
      guard HeapProofs.isAlive(objectAt: allocation.start) else { return nil }
      if HeapProofs.isContextMetadata(first, map: map) {
        return context(at: allocation, metadata: first, offset: offset, address: address, child: child)
      }
      switch HeapProofs.validatedClass(first, map: map, facts: facts) {
      case .plain:
        return object(at: allocation, metadata: first, offset: offset, address: address, child: child)
      case .arrayStorage:
        return arrayElement(at: allocation, metadata: first, address: address, child: child)
      case .dictionaryStorage:
        return dictionaryValue(at: allocation, metadata: first, address: address, child: child)
      case nil:
        return nil
      }
    }

    // MARK: Stored values

    /// Whether a value of `type`, whose word at `offset` holds `child`, holds it strongly there;
    /// the closure's function when it is a closure's context.
    private func holds(_ type: Any.Type?, offset: Int, address: UInt, child: HeapNode, depth: Int = 0) -> HeapStep? {
      if let type, depth < 8, let inner = HeapProofs.inside(type, at: offset, valueAt: address &- UInt(offset)) {
        return holds(inner.type, offset: inner.offset, address: address, child: child, depth: depth + 1)
      }
      switch shape(of: child) {
      case .object:
        guard let type else { return nil }
        if offset == 0, HeapProofs.isStrongReference(type) {
          // A property of a class type refers only to instances of that class or of a subclass: the
          // address of another class's object there is a stale word (an old object's, in memory its
          // new owner has not yet written over), not a holder.
          if let declared = HeapProofs.declaredClass(type), !HeapProofs.isInstance(at: child.address, of: declared) {
            return nil
          }
          return HeapStep(kind: .member)
        }
        if offset == 0, existentialHoldsInline(type, at: address, child: child) { return HeapStep(kind: .member) }
        if offset == MemoryLayout<UInt>.size, HeapProofs.functionConvention(type) == .swift {
          return HeapStep(kind: .member, closure: closure(before: address))
        }
        return nil
      case .collection(let names):
        guard let type, offset == 0, let name = HeapProofs.standardLibraryName(type), names.contains(name) else {
          return nil
        }
        return HeapStep(kind: .member)
      case .block:
        guard offset == 0 else { return nil }
        guard let type else { return HeapStep(kind: .block) }
        return HeapProofs.functionConvention(type) == .block ? HeapStep(kind: .block) : nil
      case .none:
        return nil
      }
    }

    /// The closure whose context (or single captured object) is at `address`: its function, in
    /// the word before.
    private func closure(before address: UInt) -> FunctionName? {
      guard let function = ProcessMemory.word(at: address &- 8), map.isInImage(function) else { return nil }
      return functionName(at: function)
    }

    private func object(
      at allocation: Allocation, metadata: UInt, offset: UInt, address: UInt, child: HeapNode
    ) -> (HeapNode, HeapStep)? {
      let metadataPointer = UnsafeRawPointer(bitPattern: metadata)!
      let type = unsafeBitCast(metadataPointer, to: Any.Type.self)
      let qualified = String(reflecting: type)
      guard !Self.isHarness(qualified), case .fields(let fields) = StoredFields.ofClassReadingBuffers(metadataPointer),
        let member = HeapProofs.member(of: fields, at: Int(offset)),
        var step = holds(member.type, offset: member.offset, address: address, child: child)
      else { return nil }
      step.component = "." + member.names.joined(separator: ".")
      if qualified == "Dispatch.DispatchWorkItem", case .block = step.kind {
        return (HeapNode(address: allocation.start, kind: .workItem), step)
      }
      return (HeapNode(address: allocation.start, kind: .object(typeName: String(describing: type))), step)
    }

    private func context(
      at allocation: Allocation, metadata: UInt, offset: UInt, address: UInt, child: HeapNode
    ) -> (HeapNode, HeapStep)? {
      let plan = CapturePlan.of(contextMetadata: UnsafeRawPointer(bitPattern: metadata)!)
      let offset = Int(offset)
      let node = HeapNode(address: allocation.start, kind: .context)
      for slot in plan.slots {
        switch slot.kind {
        case .value(let type):
          guard slot.offset <= offset, offset < slot.offset + max(sizeOf(type), 1) else { continue }
          let inner = offset - slot.offset
          var member = HeapProofs.Member(names: [], type: type, offset: inner)
          let typeMetadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
          if inner > 0 || HeapProofs.isReadableLibraryStruct(type),
            MetadataKind.of(typeMetadata) == StoredFields.structKind,
            case .fields(let fields) = StoredFields.ofStruct(typeMetadata),
            let found = HeapProofs.member(of: fields, at: inner)
          {
            member = found
          }
          guard var step = holds(member.type, offset: member.offset, address: address, child: child) else {
            return nil
          }
          step.kind = .capture
          return (node, step)
        case .box:
          guard slot.offset == offset, case .context = child.kind else { continue }
          return (node, HeapStep(kind: .capturedVar))
        case .thickFunction:
          guard slot.offset + MemoryLayout<UInt>.size == offset, case .object = shape(of: child) else { continue }
          return (node, HeapStep(kind: .capture, closure: closure(before: address)))
        }
      }
      return nil
    }

    // MARK: Collections

    /// The parts of a generic argument's metadata the scan needs, read through `/proc/self/mem`
    /// (the runtime makes such metadata, for `Optional<Model>` or a function type, in memory
    /// nothing proves to be metadata: it is read, never handed to the runtime).
    struct ElementType {
      let metadata: UInt
      let stride: UInt
      let alignment: UInt
      let isPOD: Bool

      init?(_ metadata: UInt) {
        guard
          let witnesses = ProcessMemory.word(at: metadata &- 8),
          let stride = ProcessMemory.word(at: witnesses &+ 72), stride > 0, stride <= 4096,
          let flags = ProcessMemory.uint32(at: witnesses &+ 80)
        else { return nil }
        self.metadata = metadata
        self.stride = stride
        self.alignment = UInt(flags & 0xFF) + 1
        self.isPOD = flags & 0x1_0000 == 0
      }
    }

    /// Whether an element of `element` holds `child` at `offset` into it: an object (a class,
    /// an optional one, a class-bound existential) at 0, a closure's context at 8, a nested
    /// collection's storage at 0 (in a struct of the standard library's).
    func elementHolds(_ element: ElementType, offset: UInt, address: UInt, child: HeapNode) -> HeapStep? {
      guard !element.isPOD, let kind = ProcessMemory.word(at: element.metadata) else { return nil }
      func isClass(_ metadata: UInt) -> Bool {
        guard let kind = ProcessMemory.word(at: metadata) else { return false }
        return kind == 0 || kind > MetadataKind.lastEnumerated
      }
      func isSwiftFunction(_ metadata: UInt) -> Bool {
        guard let kind = ProcessMemory.word(at: metadata), kind == MetadataKind.function,
          let flags = ProcessMemory.word(at: metadata &+ 8)
        else { return false }
        return (flags >> 16) & 0xFF == 0
      }
      switch shape(of: child) {
      case .object:
        switch kind {
        case _ where isClass(element.metadata):
          return offset == 0 ? HeapStep(kind: .member) : nil
        case 0x202:  // Optional: its wrapped type follows its descriptor.
          guard let wrapped = ProcessMemory.word(at: element.metadata &+ 16) else { return nil }
          if offset == 0, isClass(wrapped) { return HeapStep(kind: .member) }
          if offset == 8, isSwiftFunction(wrapped) { return HeapStep(kind: .member, closure: closure(before: address)) }
          return typedElementHolds(element, offset: offset, address: address, child: child)
        case MetadataKind.existential:
          guard offset == 0, let flags = ProcessMemory.uint32(at: element.metadata &+ 8), flags & 0x8000_0000 == 0
          else { return nil }
          return HeapStep(kind: .member)
        case MetadataKind.function:
          return offset == 8 && isSwiftFunction(element.metadata)
            ? HeapStep(kind: .member, closure: closure(before: address)) : nil
        default:
          return typedElementHolds(element, offset: offset, address: address, child: child)
        }
      case .collection:
        // A collection of collections (the inner one's storage reference is its only word), or a
        // struct whose first stored property is a collection (at offset 0, as a struct's first
        // property always is).
        guard offset == 0, kind == StoredFields.structKind,
          let descriptor = ProcessMemory.word(at: element.metadata &+ 8),
          facts.collectionDescriptors.contains(descriptor) || firstPropertyIsCollection(descriptor)
        else { return nil }
        return HeapStep(kind: .member)
      case .block, .none:
        return nil
      }
    }

    /// Whether an element that is a struct, an enum or an optional of one holds `child` at `offset`,
    /// read as a stored value of its type (its properties, its case's payload) once its metadata,
    /// which the element's collection only carries, is proved genuine (`GenericMetadataProof`).
    private func typedElementHolds(_ element: ElementType, offset: UInt, address: UInt, child: HeapNode) -> HeapStep? {
      guard let kind = ProcessMemory.word(at: element.metadata),
        [StoredFields.structKind, StoredFields.enumKind, StoredFields.enumKind + 1].contains(kind),
        GenericMetadataProof.isGenuine(element.metadata, map: map),
        let metadata = UnsafeRawPointer(bitPattern: element.metadata)
      else { return nil }
      return holds(unsafeBitCast(metadata, to: Any.Type.self), offset: Int(offset), address: address, child: child)
    }

    /// Whether the struct of this descriptor (in a binary image) has a first stored property whose
    /// type is an `Array` or a `Dictionary`, by its field record's mangled type name (`Say…G`,
    /// `SDy…G`), read without resolving it: the struct may be generic, its metadata made at run
    /// time and not handed to the runtime.
    private func firstPropertyIsCollection(_ descriptor: UInt) -> Bool {
      guard
        map.isInImage(descriptor), let flags = ProcessMemory.uint32(at: descriptor), flags & 0x1F == 17,
        let fields = ProcessMemory.relative(at: descriptor &+ 16), map.isInImage(fields),
        let count = ProcessMemory.uint32(at: fields &+ 12), count > 0,
        let typeName = ProcessMemory.relative(at: fields &+ 16 &+ 4),
        let bytes = ProcessMemory.bytes(at: typeName, count: 3)
      else { return false }
      return bytes == Array("Say".utf8) || bytes == Array("SDy".utf8)
    }

    /// The generic arguments of a collection storage's metadata: they follow its members, at the
    /// position its (known, real) descriptor gives.
    private func genericArguments(of metadata: UInt, descriptor: UInt, count: Int) -> [UInt]? {
      guard
        let positive = ProcessMemory.uint32(at: descriptor &+ 28),
        let immediate = ProcessMemory.uint32(at: descriptor &+ 32), positive >= immediate
      else { return nil }
      let start = metadata &+ UInt(positive - immediate) &* 8
      let arguments = (0..<count).compactMap { ProcessMemory.word(at: start &+ UInt($0) &* 8) }
      return arguments.count == count ? arguments : nil
    }

    /// `_ContiguousArrayStorage`: metadata, counts, the count, the capacity, then the elements.
    private func arrayElement(
      at allocation: Allocation, metadata: UInt, address: UInt, child: HeapNode
    ) -> (HeapNode, HeapStep)? {
      guard
        let arguments = genericArguments(of: metadata, descriptor: facts.arrayStorageDescriptor, count: 1),
        let element = ElementType(arguments[0]),
        let count = ProcessMemory.word(at: allocation.start &+ 16)
      else { return nil }
      let elements = (allocation.start + 32 + element.alignment - 1) & ~(element.alignment - 1)
      guard address >= elements, elements <= allocation.start + allocation.size else { return nil }
      let index = (address - elements) / element.stride
      guard index < count, (index + 1) * element.stride <= allocation.start + allocation.size - elements,
        var step = elementHolds(element, offset: (address - elements) % element.stride, address: address, child: child)
      else { return nil }
      step.component = "[\(index)]"
      return (HeapNode(address: allocation.start, kind: .arrayStorage), step)
    }

    /// `__RawDictionaryStorage`: metadata, counts, count, capacity, scale (`Int8`), reserved scale,
    /// extra, age, seed, the keys' and the values' addresses, then a bitmap of occupied buckets.
    private func dictionaryValue(
      at allocation: Allocation, metadata: UInt, address: UInt, child: HeapNode
    ) -> (HeapNode, HeapStep)? {
      let start = allocation.start
      guard
        let arguments = genericArguments(of: metadata, descriptor: facts.dictionaryStorageDescriptor, count: 2),
        let key = ElementType(arguments[0]), let value = ElementType(arguments[1]),
        let scaleWord = ProcessMemory.uint32(at: start &+ 32), scaleWord & 0xFF < 48,
        let keys = ProcessMemory.word(at: start &+ 48), let values = ProcessMemory.word(at: start &+ 56)
      else { return nil }
      let buckets = UInt(1) << UInt(scaleWord & 0xFF)
      let end = start + allocation.size
      guard keys >= start + 64, values >= start + 64, keys < end, values < end,
        buckets * key.stride <= end - keys, buckets * value.stride <= end - values, address >= values,
        address - values < buckets * value.stride
      else { return nil }
      let bucket = (address - values) / value.stride
      guard
        let bitmap = ProcessMemory.word(at: start &+ 64 &+ (bucket / 64) &* 8), (bitmap >> (bucket % 64)) & 1 == 1,
        var step = elementHolds(value, offset: (address - values) % value.stride, address: address, child: child)
      else { return nil }
      step.component = "[" + (keyText(key, at: keys + bucket * key.stride) ?? "…") + "]"
      return (HeapNode(address: start, kind: .dictionaryStorage), step)
    }

    /// A dictionary key as a subscript shows it: `"main"`, `3`; `nil` for other key types.
    private func keyText(_ key: ElementType, at address: UInt) -> String? {
      switch key.metadata {
      case facts.stringMetadata, facts.optionalStringMetadata:
        return StoredString.read(at: address).map { "\"\($0)\"" }
      case facts.intMetadata:
        return ProcessMemory.word(at: address).map { String(Int(bitPattern: $0)) }
      default:
        return nil
      }
    }

    // MARK: Blocks, Dispatch, tasks, globals

    /// A heap block: flags (`BLOCK_NEEDS_FREE`, a reference count), invoke function, descriptor,
    /// then its captures. Dispatch's own blocks capture their private data first (magic
    /// `0xD159B10C`), whose block field (at byte 72 of the block) holds the block they wrap; a
    /// block made from a Swift closure captures the closure (function, context) at byte 32.
    private func block(at allocation: Allocation, offset: UInt, child: HeapNode) -> (HeapNode, HeapStep)? {
      let start = allocation.start
      guard
        let flags = ProcessMemory.uint32(at: start &+ 8), flags & (1 << 24) != 0, flags & 0xFFFE != 0,
        let invoke = ProcessMemory.word(at: start &+ 16), map.isInImageCode(invoke),
        let descriptor = ProcessMemory.word(at: start &+ 24), map.isInImage(descriptor),
        let firstCapture = ProcessMemory.word(at: start &+ 32)
      else { return nil }
      if firstCapture == 0xD159_B10C {
        guard offset == 72, case .swiftBlock = child.kind else { return nil }
        return (HeapNode(address: start, kind: .dispatchBlock), HeapStep(kind: .block))
      }
      guard offset == 40, case .object = shape(of: child), map.isInImage(firstCapture),
        functionName(at: invoke)?.isThunk ?? false
      else { return nil }
      return (
        HeapNode(address: start, kind: .swiftBlock),
        HeapStep(kind: .block, closure: functionName(at: firstCapture))
      )
    }

    /// A task, at its operation's closure context: the word 16 bytes before its first (root)
    /// context, in the prefix the runtime puts there (entry point, closure context, error), found
    /// by following its resume context's parents (word 0 of each) to the one without a parent. Only
    /// an unstructured task (`Task {}`, `Task.detached {}`: a future, not a child or a group's
    /// child, by its job flags at byte 32) that has not completed (its future fragment, right after
    /// the task, says "executing") holds its operation: a completed task's prefix keeps the bits of
    /// a context it released. Read only at the runtime layout version these offsets were measured on.
    private func task(at allocation: Allocation, offset: UInt, address: UInt) -> (HeapNode, HeapStep)? {
      let task = allocation.start
      guard task != currentTask, facts.concurrencyLayoutVersion == RuntimeFacts.knownConcurrencyLayoutVersion,
        facts.taskSize > 0, HeapProofs.isAlive(objectAt: task),
        let flags = ProcessMemory.uint32(at: task &+ 32),
        flags & (1 << 25) != 0, flags & (1 << 24) == 0, flags & (1 << 26) == 0,  // future, not a child
        let waitQueue = ProcessMemory.word(at: task &+ facts.taskSize), waitQueue & 3 == 0,  // executing
        let context = ProcessMemory.word(at: task &+ 64)
      else { return nil }
      let (state, root) = taskState(task, context: context)
      guard let root, allocation.contains(root), address == root &- 16,
        let function = ProcessMemory.word(at: address &- 8), map.isInImage(function)
      else { return nil }
      return (HeapNode(address: task, kind: .task(state)), HeapStep(kind: .task, closure: functionName(at: function)))
    }

    /// Where a task waits: its resume function (`Job.ResumeTask`, byte 56) and resume context
    /// (`AsyncTask.ResumeContext`, byte 64), seen through the runtime's adapters, then each
    /// context's parent (word 0) and the function that resumes it (word 1: `ResumeParent`), up to
    /// 64 frames, to the root context (no parent); whether it runs, from its status flags
    /// (`IsRunning`, byte 96).
    func taskState(_ task: UInt, context first: UInt) -> (TaskState, root: UInt?) {
      var state = TaskState()
      if let flags = ProcessMemory.uint32(at: task &+ 96) {
        state.statusIsKnown = true
        state.isRunning = flags & 0x800 != 0
      }
      var functions: [UInt] = []
      if let resume = ProcessMemory.word(at: task &+ 56), !facts.resumeAdapters.contains(resume) {
        functions.append(resume)
      }
      var context = first
      var root: UInt?
      for _ in 0..<64 {
        guard context != 0, let parent = ProcessMemory.word(at: context),
          let parentResume = ProcessMemory.word(at: context &+ 8)
        else { break }
        if parent == 0 {
          root = context
          break
        }
        functions.append(parentResume)
        context = parent
      }
      for function in functions {
        guard let name = functionName(at: function), !name.isThunk else { continue }
        let path = map.region(containing: function)?.path ?? ""
        let isRuntime = path.hasSuffix("/libswift_Concurrency.so") || path.hasSuffix("/libswiftCore.so")
        if state.frames.last?.name != name.name { state.frames.append((name.name, isRuntime)) }
      }
      return (state, root)
    }

    /// A Swift global or static variable whose storage starts at `address` (or whose closure's
    /// context is its second word), named by its symbol; its type, from the full demangling, must
    /// hold a strong reference.
    private func global(at address: UInt, child: HeapNode) -> (HeapNode, HeapStep)? {
      var start = address
      var step = HeapStep(kind: .global)
      guard let symbol = symbol(at: address) else { return nil }
      if symbol.address != address {
        guard symbol.address + 8 == address, case .object = shape(of: child),
          let named = closure(before: address)
        else { return nil }
        start = symbol.address
        step.closure = named
      }
      guard symbol.address == start, symbol.name.hasPrefix("$s"), let full = Demangler.full(symbol.name),
        !Self.isHarness(full), let typeStart = full.firstRange(of: " : ")
      else { return nil }
      let type = full[typeStart.upperBound...]
      let nonOwning = [
        "weak ", "unowned", "Swift.Unsafe", "Swift.ObjectIdentifier", "Swift.Unmanaged", "Swift.OpaquePointer",
        "Swift.Int", "Swift.UInt", "Swift.AutoreleasingUnsafe",
      ]
      guard !nonOwning.contains(where: { type.hasPrefix($0) }) else { return nil }
      let name = Self.cleanedFunctionName(Demangler.simplified(symbol.name) ?? full).name
      return (HeapNode(address: start, kind: .global(name: name)), step)
    }
  }
#endif
