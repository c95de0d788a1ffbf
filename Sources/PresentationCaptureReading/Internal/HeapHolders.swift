#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// A node of the graph the heap scan climbs: an object (or another block of memory) that holds
  /// the one below it, up to something that names the whole chain.
  struct HeapNode {
    enum Kind {
      /// The object whose holders are looked for.
      case survivor
      /// An instance of a class: its metadata is in a binary image, or the runtime vouches for it.
      case object(typeName: String)
      /// A closure's context, or a captured `var`'s box.
      case context
      /// An `Array`'s storage.
      case arrayStorage
      /// A `Dictionary`'s storage.
      case dictionaryStorage
      /// A block (`@convention(block)`) made from a Swift closure, which it holds.
      case swiftBlock
      /// The block `dispatch_block_create` made around another (a `DispatchWorkItem`'s).
      case dispatchBlock
      /// A part of Dispatch: a list item, a source's refs, or a queue, source or group that keeps
      /// a block (`HeapHolders+Dispatch.swift`).
      case dispatch(DispatchPart)
      /// A Dispatch continuation: a block submitted to a queue, waiting to run.
      case continuation
      /// A slab of a task's allocator, where its async frames and task-local values live, and
      /// where in it the word that holds the node below the first slab lies.
      case taskSlab(TaskSlabHit)
      // What names a chain (the scan climbs no further):
      /// A global or static variable.
      case global(name: String)
      /// A `DispatchWorkItem`.
      case workItem
      /// A timer that `DispatchQueue.asyncAfter` (`dispatch_after`) set up.
      case afterTimer
      /// A Swift concurrency task.
      case task(TaskState)
    }

    let address: UInt
    let kind: Kind

    var isRoot: Bool {
      switch kind {
      case .global, .workItem, .afterTimer, .task: return true
      default: return false
      }
    }
  }

  /// What the runtime says about a task: whether it runs, and where it waits.
  struct TaskState {
    /// The functions of its async frames, innermost first, from its resume function and its
    /// contexts' resume functions (thunks left out), each with whether it is the Swift runtime's
    /// (`Task.sleep(nanoseconds:)`, `AsyncStream.Iterator.next(isolation:)`).
    var frames: [(name: String, isRuntime: Bool)] = []
    var isRunning = false
    /// Whether the scan read the task's status (the runtime's layout is the one it knows).
    var statusIsKnown = false

    /// What the task waits for, as its operation `operation` sees it: the innermost frame of code
    /// that is not the runtime's, unless that is the operation itself; then the runtime function
    /// the operation awaits.
    func awaiting(operation: String?) -> String? {
      guard let user = frames.firstIndex(where: { !$0.isRuntime }) else { return frames.last?.name }
      if frames[user].name != operation { return frames[user].name }
      return user > 0 ? frames[user - 1].name : nil
    }
  }

  /// How a holder holds the node below it.
  struct HeapStep {
    enum Kind {
      /// A stored property (`.listeners`, `.state.items`), an element (`[2]`) or a value
      /// (`["main"]`): `component`.
      case member
      /// One of a closure context's captures.
      case capture
      /// A closure context's captured `var` (its box).
      case capturedVar
      /// A block's Swift closure, a work item's block, a dispatch block's inner block.
      case block
      /// A queued Dispatch continuation's block, a timer's continuation, or a link of Dispatch's
      /// above it (a queue's, a source's or a group's).
      case pending
      /// A task's operation (its closure) or one of its async frames.
      case task
      /// A task's allocator slab.
      case slab
      /// The global's own storage.
      case global
    }
    var kind: Kind
    var component: String?
    /// The function of the closure held at this place (a closure's context or the one object it
    /// captures sits after its function), simplified: `closure #1 in Poller.start()`.
    var closure: FunctionName?
    /// Whether the step is conservative evidence: a word in a task's async frame, which the
    /// runtime does not say is live. The report names such a chain only when nothing names the
    /// object precisely.
    var isConservative = false
  }

  /// A function's demangled name, and whether it is a compiler-made thunk (not the user's code).
  struct FunctionName {
    /// `closure #1 in Poller.start()`, `Task.sleep(nanoseconds:)`.
    let name: String
    /// A reabstraction or partial-application thunk: the closure it wraps is named elsewhere.
    let isThunk: Bool
  }

  /// Addresses the scan compares words with: the runtime's task and slab metadata, the blocks
  /// runtime's isa of a heap block, Dispatch's `dispatch_after` source type, the descriptors of the
  /// standard library's collection storage, and a few key types' metadata.
  struct RuntimeFacts: Sendable {
    /// The task layout these offsets were read from (Swift 6.3's runtime says 1).
    static let knownConcurrencyLayoutVersion: UInt = 1

    /// What every task's first word is (`_swift_concurrency_debug_asyncTaskMetadata`).
    let taskMetadata: UInt
    /// What every task allocator slab's first word is.
    let taskSlabMetadata: UInt
    /// `sizeof(AsyncTask)`: a task's initial context (its operation) follows.
    let taskSize: UInt
    /// `_swift_concurrency_debug_internal_layout_version`: the task status and allocator are read
    /// only at the version these offsets were measured on.
    let concurrencyLayoutVersion: UInt
    /// The resume adapters the runtime installs, behind which the real resume function waits.
    let resumeAdapters: [UInt]
    let mallocBlockIsa: UInt
    let dispatchAfterSourceType: UInt
    let arrayStorageDescriptor: UInt
    let dictionaryStorageDescriptor: UInt
    /// The descriptors of `Array`, `ContiguousArray` and `Dictionary`: a collection's storage is
    /// held by one of these (a collection of collections holds its elements' storage so).
    let collectionDescriptors: [UInt]
    let stringMetadata: UInt
    let optionalStringMetadata: UInt
    let intMetadata: UInt

    static let current: RuntimeFacts = {
      let process = dlopen(nil, RTLD_NOW)
      defer { if let process { dlclose(process) } }
      func value(_ name: String) -> UInt {
        guard let address = dlsym(process, name) else { return 0 }
        return ProcessMemory.word(at: UInt(bitPattern: address)) ?? 0
      }
      func address(_ name: String) -> UInt { UInt(bitPattern: dlsym(process, name)) }
      let map = MemoryMap.current()
      let dispatch = LoadedImage.all(in: map).first { $0.path.hasSuffix("/libdispatch.so") }
      return RuntimeFacts(
        taskMetadata: value("_swift_concurrency_debug_asyncTaskMetadata"),
        taskSlabMetadata: value("_swift_concurrency_debug_asyncTaskSlabMetadata"),
        taskSize: value("_swift_concurrency_debug_asyncTaskSize"),
        concurrencyLayoutVersion: value("_swift_concurrency_debug_internal_layout_version") & 0xFFFF_FFFF,
        resumeAdapters: [
          "_swift_concurrency_debug_non_future_adapter", "_swift_concurrency_debug_future_adapter",
          "_swift_concurrency_debug_task_wait_throwing_resume_adapter",
          "_swift_concurrency_debug_task_future_wait_resume_adapter",
        ]
        .map(value).filter { $0 != 0 },
        mallocBlockIsa: address("_NSConcreteMallocBlock"),
        dispatchAfterSourceType: dispatch.flatMap { ImageSymbols.address(of: "_dispatch_source_type_after", in: $0) }
          ?? 0,
        arrayStorageDescriptor: storageDescriptor(of: [Probe()]),
        dictionaryStorageDescriptor: storageDescriptor(of: [0: Probe()]),
        collectionDescriptors: collections.map { type in
          unsafeBitCast(type, to: UnsafeRawPointer.self).load(fromByteOffset: 8, as: UInt.self)
        },
        stringMetadata: unsafeBitCast(String.self as Any.Type, to: UInt.self),
        optionalStringMetadata: unsafeBitCast(String?.self as Any.Type, to: UInt.self),
        intMetadata: unsafeBitCast(Int.self as Any.Type, to: UInt.self))
    }()

    private final class Probe {}
    private static let collections: [any Any.Type] = [[Int].self, ContiguousArray<Int>.self, [Int: Int].self]

    /// The context descriptor of a non-empty collection's storage class, the same whatever its
    /// element types: a collection is one reference to its storage, whose first word is its
    /// metadata, whose word at byte 40 is the descriptor.
    private static func storageDescriptor<Collection>(of collection: Collection) -> UInt {
      withExtendedLifetime(collection) {
        let storage = unsafeBitCast(collection, to: UnsafeRawPointer.self)
        return storage.load(as: UnsafeRawPointer.self).load(fromByteOffset: 40, as: UInt.self)
      }
    }
  }

  /// A string stored in memory nobody vouches for, read word by word through `/proc/self/mem`:
  /// a small string (inline) or a natively stored one (its UTF-8 after its storage object's
  /// header). Bridged, shared and foreign strings are not read.
  enum StoredString {
    static func read(at address: UInt, maximumLength: Int = 80) -> String? {
      guard let countAndFlags = ProcessMemory.word(at: address), let object = ProcessMemory.word(at: address &+ 8)
      else { return nil }
      let discriminator = object >> 60
      if discriminator & 0x2 != 0 {  // small: the count in bits 56-59 of the object word
        let count = Int((object >> 56) & 0xF)
        guard count <= 15 else { return nil }
        var words = (countAndFlags, object & 0x00FF_FFFF_FFFF_FFFF)
        let bytes = withUnsafeBytes(of: &words) { Array($0.prefix(count)) }
        return String(validating: bytes, as: UTF8.self)
      }
      // Native (0b0000) or immortal (0b1000) large strings are tail-allocated: their bytes start 32
      // bytes past the address in the object word's low 60 bits.
      guard discriminator == 0 || discriminator == 0x8, countAndFlags & (1 << 60) != 0 else { return nil }
      let count = Int(countAndFlags & 0xFFFF_FFFF_FFFF)
      let start = (object & 0x0FFF_FFFF_FFFF_FFFF) + 32
      guard count > 0, let bytes = ProcessMemory.bytes(at: start, count: min(count, maximumLength)) else {
        return nil
      }
      guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
      return count > maximumLength ? text + "…" : text
    }
  }

  /// Proofs about words nobody vouches for, each read through `/proc/self/mem`: which metadata is
  /// a class's or a closure context's, whether an object is alive, what a stored property or a
  /// capture at an offset is. No runtime function is handed a metadata pointer before it passed.
  enum HeapProofs {
    /// What validated class metadata is.
    enum ValidatedClass {
      /// A class that is not generic, whose metadata the binary holds, or a generic class whose
      /// metadata the runtime made and vouches for (`GenericMetadataProof`): its field records may
      /// be read.
      case plain
      /// An array's storage (`_ContiguousArrayStorage<Element>`).
      case arrayStorage
      /// A dictionary's storage (`_DictionaryStorage<Key, Value>`).
      case dictionaryStorage
    }

    /// The class metadata at `metadata`, if: a zero kind word, a superclass word that is zero or
    /// points at another zero kind word, at byte 40 a descriptor in a binary image that says
    /// "class"; and either the descriptor is a collection storage's (whose metadata the runtime
    /// makes), or its name is a readable identifier in an image, its metadata access function is
    /// executable code, its image's symbol table names it as a type descriptor (an image without
    /// one names no class), and either the class is not generic and its metadata lies in a binary image,
    /// or it is generic and the runtime, asked for the class with the arguments the metadata holds,
    /// answers with this very metadata (`GenericMetadataProof`).
    static func validatedClass(_ metadata: UInt, map: MemoryMap, facts: RuntimeFacts) -> ValidatedClass? {
      guard
        let kind = ProcessMemory.word(at: metadata), kind == 0,
        let superclass = ProcessMemory.word(at: metadata &+ 8),
        superclass == 0 || ProcessMemory.word(at: superclass) == 0,
        let descriptor = ProcessMemory.word(at: metadata &+ 40), map.isInImage(descriptor),
        let flags = ProcessMemory.uint32(at: descriptor), flags & 0x1F == 16
      else { return nil }
      if descriptor == facts.arrayStorageDescriptor { return .arrayStorage }
      if descriptor == facts.dictionaryStorageDescriptor { return .dictionaryStorage }
      guard
        let name = ProcessMemory.relative(at: descriptor &+ 8), hasIdentifier(at: name, map: map),
        let accessor = ProcessMemory.relative(at: descriptor &+ 12), map.isInImageCode(accessor),
        // The runtime reads the descriptor's field records and generic requirements: only one its
        // image's symbol table names as a descriptor, not stale bytes that pass the checks above.
        GenericMetadataProof.isNamedTypeDescriptor(descriptor, map: map)
      else { return nil }
      guard flags & 0x80 != 0 else {
        return GenericMetadataProof.isNamedTypeMetadata(metadata, map: map) ? .plain : nil
      }
      return GenericMetadataProof.isGenuine(metadata, map: map) ? .plain : nil
    }

    /// Whether the metadata at `metadata` is a closure context's (or a box's) that the binary
    /// holds: kind `HeapLocalVariable`, in an image, its first capture's offset past the object
    /// header and its capture descriptor in an image.
    static func isContextMetadata(_ metadata: UInt, map: MemoryMap) -> Bool {
      guard
        map.isInImage(metadata), let kind = ProcessMemory.word(at: metadata), kind == MetadataKind.heapLocalVariable,
        let firstCapture = ProcessMemory.uint32(at: metadata &+ 8), firstCapture >= 16, firstCapture < 4096,
        let descriptor = ProcessMemory.word(at: metadata &+ 16), map.isInImage(descriptor)
      else { return false }
      return true
    }

    /// Whether a type's name lies at `address` in a binary image: 1 to 255 bytes of an identifier
    /// (letters, digits, `_`, `$`, or bytes of a UTF-8 sequence), then a zero byte.
    static func hasIdentifier(at address: UInt, map: MemoryMap) -> Bool {
      guard map.isInImage(address) else { return false }
      var bytes = [UInt8](repeating: 0, count: 256)
      let read = bytes.withUnsafeMutableBytes { ProcessMemory.read(address, into: $0.baseAddress!, count: $0.count) }
      guard read > 0, let end = bytes[..<read].firstIndex(of: 0), end > 0 else { return false }
      return bytes[..<end].allSatisfy { byte in
        byte >= 0x80 || byte == 0x5F || byte == 0x24 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte)
      }
    }

    /// Whether the Swift object at `start` has not begun to deinitialise. An object that has (its
    /// properties already released) keeps its memory, stale words included, while unowned
    /// references to it remain. Its reference counts, in the word after its metadata (stable ABI,
    /// 64-bit): bit 32 is "deiniting"; when bit 63 is set (the object has had a weak reference),
    /// the counts moved to a side table whose address, shifted right by 3, fills the low 62 bits,
    /// and the same bits sit in its third word: the entry is the object's address, then its counts
    /// aligned to 16 bytes (the runtime's `alignas(2 * sizeof(void *))`), then the weak count.
    /// Measured on Swift 6.3.1, Linux x86-64: 3 strong references more move the third word from 3
    /// to 0x6_0000_0003 (the strong count is bits 33-62); the second word is padding, left as the
    /// allocator had it (read as the counts, its bit 32 made a live object with weak references
    /// count as deinitialising in 5 of 26 runs of a corpus case, and what it held went unnamed).
    static func isAlive(objectAt start: UInt) -> Bool {
      guard MemoryLayout<UInt>.size == 8, var counts = ProcessMemory.word(at: start &+ 8) else { return false }
      if counts >> 63 == 1 {
        let sideTable = (counts & ((1 << 62) - 1)) << 3
        guard let sideCounts = ProcessMemory.word(at: sideTable &+ 16) else { return false }
        counts = sideCounts
      }
      return (counts >> 32) & 1 == 0
    }

    /// The type an optional wraps, through every level of optional (`Model??` is `Model`); any
    /// other type itself. An optional's wrapped type is its first generic argument.
    static func unwrappingOptionals(_ type: Any.Type) -> Any.Type {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      guard MetadataKind.of(metadata) == 0x202,
        let wrapped = StoredFields.genericTypeArguments(ofValueType: metadata)?.first
      else { return type }
      return unwrappingOptionals(unsafeBitCast(wrapped, to: Any.Type.self))
    }

    /// Whether a value of this type holds a strong reference in its first word: a class type, an
    /// optional one, or a class-bound existential. (An `ObjectIdentifier` or an unsafe pointer
    /// holds the same bits and keeps nothing alive.)
    static func isStrongReference(_ type: Any.Type) -> Bool {
      let metadata = unsafeBitCast(unwrappingOptionals(type), to: UnsafeRawPointer.self)
      switch MetadataKind.of(metadata) {
      case MetadataKind.class:
        return true
      case MetadataKind.existential:
        return metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self) & 0x8000_0000 == 0
      default:
        return false
      }
    }

    /// The class whose instances (or its subclasses') a value of this type refers to, as its
    /// metadata: a class type's, or an optional one's; `nil` for a class-bound existential
    /// (`AnyObject`, a protocol), which may refer to any class.
    static func declaredClass(_ type: Any.Type) -> UInt? {
      let metadata = unsafeBitCast(unwrappingOptionals(type), to: UnsafeRawPointer.self)
      return MetadataKind.of(metadata) == MetadataKind.class ? UInt(bitPattern: metadata) : nil
    }

    /// Whether the object at `address` is an instance of the class whose metadata is `metadata`, or
    /// of a subclass: its metadata word, or one of its superclasses (class metadata keeps its
    /// superclass at byte 8, 0 at the root), is that metadata. Metadata is unique per class (per
    /// generic arguments, for a generic one), so equality is identity.
    static func isInstance(at address: UInt, of metadata: UInt) -> Bool {
      guard var current = ProcessMemory.word(at: address) else { return false }
      for _ in 0..<64 {
        if current == metadata { return true }
        guard current != 0, let superclass = ProcessMemory.word(at: current &+ 8) else { return false }
        current = superclass
      }
      return false
    }

    /// The convention of a function type, or of the function an optional wraps.
    static func functionConvention(_ type: Any.Type) -> FunctionConvention? {
      FunctionConvention.of(unwrappingOptionals(type))
    }

    /// The standard library's name of this type (`Array`, `Dictionary`), or `nil` for another
    /// module's type; an optional's wrapped type is looked through.
    static func standardLibraryName(_ type: Any.Type) -> String? {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      guard StoredFields.isStandardLibraryType(metadata) else { return nil }
      let name = StoredFields.typeName(ofValueType: metadata)
      if name == "Optional", let wrapped = StoredFields.genericTypeArguments(ofValueType: metadata)?.first {
        return standardLibraryName(unsafeBitCast(wrapped, to: Any.Type.self))
      }
      return name
    }

    /// What lies at a byte offset of a value: the stored properties on the way (`["state",
    /// "items"]`), then the innermost value's type and the offset inside it, or a block.
    struct Member {
      let names: [String]
      /// `nil` for a block (`@convention(block)`), whose type the walk does not resolve.
      let type: Any.Type?
      let offset: Int
    }

    /// What lies at byte `offset` of a value of `type` that starts at `start`, one level in: for a
    /// struct of another module (or one of the few of the standard library's that
    /// `isReadableLibraryStruct` names), the stored property there (`member(of:at:)`); for an enum,
    /// or an optional of a struct or an enum, the payload of the case the value holds now, when
    /// the offset falls inside it. `nil` for any other type, or when nothing can be said.
    static func inside(_ type: Any.Type, at offset: Int, valueAt start: UInt) -> Member? {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      switch MetadataKind.of(metadata) {
      case StoredFields.structKind:
        guard !StoredFields.isStandardLibraryType(metadata) || isReadableLibraryStruct(type),
          case .fields(let fields) = StoredFields.ofStruct(metadata)
        else { return nil }
        return member(of: fields, at: offset)
      case StoredFields.enumKind, StoredFields.enumKind + 1:
        let wrapped = MetadataKind.of(unsafeBitCast(unwrappingOptionals(type), to: UnsafeRawPointer.self))
        guard
          MetadataKind.of(metadata) == StoredFields.enumKind
            || [StoredFields.structKind, StoredFields.enumKind].contains(wrapped),
          let payload = activePayload(of: metadata, valueAt: start), offset < sizeOf(payload)
        else { return nil }
        return Member(names: [], type: payload, offset: offset)
      default:
        return nil
      }
    }

    /// The runtime's `getEnumTag` value witness (Swift calling convention): the case a value of
    /// the enum holds, payload cases first.
    private typealias GetEnumTag = @convention(thin) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32

    /// The payload type of the case that the enum value at `start` holds, or `nil` (an empty case,
    /// an indirect one, memory that cannot be read). The value is copied through `/proc/self/mem`
    /// into a buffer of the scan's own, and the enum's own `getEnumTag` value witness reads the
    /// copy: it looks at the payload's spare bits and extra tag bytes only (never through a
    /// pointer), so it neither faults nor runs user code, and no reference in the copy is
    /// retained or released. The witness table sits before the metadata: `size` at byte 64,
    /// `flags` at 80 (bit 21: the table has the enum witnesses), `getEnumTag` at 88.
    static func activePayload(of metadata: UnsafeRawPointer, valueAt start: UInt) -> Any.Type? {
      guard let payloads = StoredFields.payloadTypes(ofEnum: metadata), !payloads.isEmpty else { return nil }
      let witnesses = metadata.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
      let size = witnesses.load(fromByteOffset: 64, as: Int.self)
      guard witnesses.load(fromByteOffset: 80, as: UInt32.self) & 0x20_0000 != 0, size > 0, size <= 4096 else {
        return nil
      }
      let getEnumTag = unsafeBitCast(witnesses.load(fromByteOffset: 88, as: UnsafeRawPointer.self), to: GetEnumTag.self)
      let tag = withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer -> Int? in
        guard let base = buffer.baseAddress, ProcessMemory.read(start, into: base, count: size) == size else {
          return nil
        }
        return Int(getEnumTag(UnsafeRawPointer(base), metadata))
      }
      guard let tag, tag < payloads.count else { return nil }
      return payloads[tag]
    }

    /// What lies at byte `offset` of a value laid out as `fields`. Structs of other modules are
    /// looked into through their field records, and the few of the standard library's that
    /// `isReadableLibraryStruct` names; its other types, classes, functions,
    /// existentials, enums and tuples are where it stops. `nil` when `offset` falls in a `weak` or
    /// `unowned` property, or in one that cannot be read.
    static func member(of fields: [StoredFields.Field], at offset: Int, depth: Int = 0) -> Member? {
      for field in fields {
        switch field.reading {
        case .value(let type):
          let size = sizeOf(type)
          guard field.offset <= offset, offset < field.offset + max(size, 1) else { continue }
          let inner = offset - field.offset
          let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
          if MetadataKind.of(metadata) == StoredFields.structKind,
            !StoredFields.isStandardLibraryType(metadata) || isReadableLibraryStruct(type),
            depth < 8, case .fields(let innerFields) = StoredFields.ofStruct(metadata),
            let found = member(of: innerFields, at: inner, depth: depth + 1)
          {
            return Member(names: [field.name] + found.names, type: found.type, offset: found.offset)
          }
          return Member(names: [field.name], type: type, offset: inner)
        case .block:
          guard field.offset == offset else { continue }
          return Member(names: [field.name], type: nil, offset: 0)
        case .skipped, .unreadable:
          if field.offset == offset { return nil }
        }
      }
      return nil
    }
  }

  /// Proves that words nobody vouches for are the metadata of a generic type (`Box<Model?>`), which
  /// the runtime makes at run time in memory nothing else proves to be metadata: its descriptor lies
  /// in a binary image and says what kind of type it is; each of its generic arguments, read from
  /// where that kind keeps them, is proved the same way (or is metadata of a type that is not
  /// generic, in a binary image); and then the runtime, asked for that type with those arguments,
  /// answers with this very address. Its metadata caches are unique per type and never freed, so
  /// a copy of genuine metadata (or stale memory that looks like one) gets another answer. The
  /// runtime is handed only a descriptor in an image and arguments already proved, as a generic
  /// call naming that type would hand it. Types with more than 4 parameters, parameter packs,
  /// value parameters, or arguments nested more than 3 deep, and other kinds of argument (tuples,
  /// functions, existentials, metatypes) are not proved: such an instance stays unnamed.
  enum GenericMetadataProof {
    static let maximumDepth = 3
    static let maximumParameters = 4

    /// Whether `metadata` is genuine metadata of a class, struct or enum (an optional included),
    /// generic or not.
    static func isGenuine(_ metadata: UInt, map: MemoryMap, depth: Int = 0) -> Bool {
      guard depth <= maximumDepth, let kind = ProcessMemory.word(at: metadata) else { return false }
      // Where each kind keeps its descriptor, what the descriptor's kind must be, where its generic
      // header's parameter count lies (after the kind's fields and two 32-bit instantiation
      // fields), and where the metadata keeps its generic arguments.
      let descriptorOffset: UInt
      let descriptorKind: UInt32
      let parameterCountOffset: UInt
      switch kind {
      case 0:  // a class: flags to field offset vector offset, 44 bytes
        (descriptorOffset, descriptorKind, parameterCountOffset) = (40, 16, 52)
      case 0x200:  // a struct: 28 bytes
        (descriptorOffset, descriptorKind, parameterCountOffset) = (8, 17, 36)
      case 0x201, 0x202:  // an enum, an optional: 28 bytes
        (descriptorOffset, descriptorKind, parameterCountOffset) = (8, 18, 36)
      default:
        return false
      }
      guard
        let descriptor = ProcessMemory.word(at: metadata &+ descriptorOffset), map.isInImage(descriptor),
        let flags = ProcessMemory.uint32(at: descriptor), flags & 0x1F == descriptorKind
      else { return false }
      // Not generic: the binary holds the metadata, under a symbol that names it as such (a word
      // that merely points into an image, at a 0x200, passes the checks above).
      guard flags & 0x80 != 0 else { return isNamedTypeMetadata(metadata, map: map) }
      // The runtime parses a descriptor it is handed (its generic requirements among the rest),
      // and aborts on some it cannot make sense of ("Expected a metadata pack but got metadata"):
      // only a descriptor its image's symbol table names as one is handed to it.
      guard isNamedTypeDescriptor(descriptor, map: map) else { return false }
      guard
        let counts = ProcessMemory.uint32(at: descriptor &+ parameterCountOffset),
        case let parameters = Int(counts & 0xFFFF), (1...maximumParameters).contains(parameters),
        let kinds = ProcessMemory.uint32(at: descriptor &+ parameterCountOffset &+ 8),
        // Each parameter's descriptor byte: 0x80, a type parameter with a key argument.
        (0..<parameters).allSatisfy({ (kinds >> (8 * UInt32($0))) & 0xFF == 0x80 }),
        let start = argumentsStart(of: metadata, kind: kind, descriptor: descriptor)
      else { return false }
      var arguments: [UInt] = []
      for index in 0..<parameters {
        guard let argument = ProcessMemory.word(at: start &+ UInt(index) &* 8),
          isGenuine(argument, map: map, depth: depth + 1)
        else { return false }
        arguments.append(argument)
      }
      let answer = arguments.withUnsafeBufferPointer { buffer in
        instantiateCheckedGenericMetadata(
          UnsafeRawPointer(bitPattern: descriptor)!, UnsafeRawPointer(buffer.baseAddress!), UInt(parameters))
      }
      return answer.map { UInt(bitPattern: $0) } == metadata
    }

    /// Whether the image that holds `descriptor` has a symbol that starts there and names a nominal
    /// type descriptor (a mangled name ending in `Mn`). A word read from stale memory can point into
    /// an image at bytes that pass the other checks without being a descriptor. An image without a
    /// symbol table (stripped) proves nothing: the instance stays unnamed.
    static func isNamedTypeDescriptor(_ descriptor: UInt, map: MemoryMap) -> Bool {
      guard let symbol = imageSymbol(at: descriptor, map: map) else { return false }
      return symbol.address == descriptor && symbol.name.hasSuffix("Mn")
    }

    /// Whether `metadata` lies in an image under a symbol that names it as type metadata: the type
    /// metadata symbol itself (`…N`, at the address point), or the full metadata (`…Mf`) around it.
    static func isNamedTypeMetadata(_ metadata: UInt, map: MemoryMap) -> Bool {
      guard let symbol = imageSymbol(at: metadata, map: map) else { return false }
      if symbol.name.hasSuffix("N") { return symbol.address == metadata }
      return symbol.name.hasSuffix("Mf") && metadata > symbol.address && metadata < symbol.address &+ symbol.size
    }

    /// The symbol of a loaded image that covers `address`.
    private static func imageSymbol(at address: UInt, map: MemoryMap) -> ImageSymbols.Symbol? {
      ImageSymbols.symbol(at: address, in: LoadedImage.all(in: map), map: map)
    }

    /// Where the metadata keeps its generic arguments: a struct's and an enum's after their kind and
    /// descriptor; a class's at the start of its own members (its metadata's positive size less its
    /// immediate members, in words), or, when its superclass is resilient (kind-specific flag 13,
    /// such as a subclass of the standard library's `ManagedBuffer`), where the runtime found
    /// them: the descriptor's word at byte 24 is then a relative pointer to the class's stored
    /// metadata bounds, whose first word the runtime sets, when it first makes the class's
    /// metadata, to the immediate members' offset in bytes. (A wrong start only makes the proof
    /// fail: the runtime's answer is compared with the metadata.)
    private static func argumentsStart(of metadata: UInt, kind: UInt, descriptor: UInt) -> UInt? {
      guard kind == 0 else { return metadata &+ 16 }
      guard let flags = ProcessMemory.uint32(at: descriptor) else { return nil }
      if (flags >> 16) & (1 << 13) != 0 {
        guard let bounds = ProcessMemory.relative(at: descriptor &+ 24),
          let offset = ProcessMemory.word(at: bounds), offset > 0, offset < 4096
        else { return nil }
        return metadata &+ offset
      }
      guard
        let positive = ProcessMemory.uint32(at: descriptor &+ 28),
        let immediate = ProcessMemory.uint32(at: descriptor &+ 32), positive >= immediate
      else { return nil }
      return metadata &+ UInt(positive - immediate) &* 8
    }
  }

  /// The runtime's entry point for metadata of a generic type from its descriptor and its generic
  /// parameters' metadata (no witness tables: it checks the requirements and finds the conformances
  /// itself); `nil` when the arguments do not satisfy them. Declared as the Swift project's own
  /// runtime tests declare it (test/Runtime/CheckedCreateType.swift).
  @_silgen_name("_swift_instantiateCheckedGenericMetadata")
  private func instantiateCheckedGenericMetadata(
    _ descriptor: UnsafeRawPointer, _ genericArguments: UnsafeRawPointer, _ count: UInt
  ) -> UnsafeRawPointer?
#endif
