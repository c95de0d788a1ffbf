#if !canImport(ObjectiveC)
  /// The stored properties of a struct or a class, read from the runtime's type metadata instead
  /// of `Mirror`. `Mirror` runs a type's `customMirror` (user code, on whatever thread walks), loads
  /// a `weak` property as a strong optional, and loads an `unowned` one as a strong reference,
  /// which traps when its object is gone (legal, as long as nobody reads it). The field records say
  /// which properties are `weak`, `unowned` or `unowned(unsafe)`: those hold nothing alive, so the
  /// walk skips them without reading them.
  ///
  /// Layouts (relative pointers are 32-bit offsets from their own address; stable ABI, without
  /// Objective-C interoperability):
  /// - struct metadata: kind (0x200), a pointer to its descriptor, then its generic arguments;
  /// - class metadata: kind, superclass, flags and sizes (24 bytes), then at byte 40 a pointer to
  ///   its descriptor; field offsets and generic arguments among its members, word-sized;
  /// - type descriptor: flags, parent, name, access function, fields (→ field descriptor); a struct's
  ///   then field count and field offset vector offset (in words, each offset a `UInt32`); a class's
  ///   then superclass type, metadata bounds (2 × UInt32), immediate member count, field count and
  ///   field offset vector offset;
  /// - field descriptor: mangled type name, superclass, kind (UInt16), record size (UInt16), record
  ///   count, then one record per stored property: flags, mangled type name, name.
  enum StoredFields {
    /// One stored property, by how the walk treats it.
    struct Field {
      enum Reading {
        /// A strong value of this type at the field's offset.
        case value(Any.Type)
        /// A `weak`, `unowned` or `unowned(unsafe)` reference, or a value that cannot hold a
        /// Swift object alive (a C function pointer): not read.
        case skipped
        /// A type the walk cannot resolve or will not load: not read, counted unread.
        case unreadable
        /// A block (`@convention(block)`, one word): the walk does not read into it (its captures
        /// are not described), counted unread; the heap scan recognises the block it refers to.
        case block
      }

      let name: String
      let offset: Int
      let reading: Reading
    }

    /// A type's stored properties, or why they cannot be read.
    enum Layout {
      case fields([Field])
      /// Its metadata does not describe its fields (no records, a resilient superclass, a foreign or
      /// imported type, an unexpected descriptor).
      case unreadable
    }

    static let structKind: UInt = 0x200
    private static let word = MemoryLayout<UInt>.size
    private static let descriptorKindClass: UInt32 = 16
    private static let descriptorKindStruct: UInt32 = 17
    private static let descriptorIsGeneric: UInt32 = 0x80

    static let enumKind: UInt = 0x201
    private static let descriptorKindEnum: UInt32 = 18

    private static let structs = LayoutCache<Layout>()
    private static let classes = LayoutCache<Layout>()
    private static let bufferClasses = LayoutCache<Layout>()
    private static let enums = LayoutCache<[Any.Type?]?>()

    /// The stored properties of the struct whose metadata is `metadata`.
    static func ofStruct(_ metadata: UnsafeRawPointer) -> Layout {
      structs.value(for: metadata, compute: readStruct)
    }

    /// The stored properties of the class whose metadata is `metadata`, its superclasses' included
    /// (the root class's first).
    static func ofClass(_ metadata: UnsafeRawPointer) -> Layout {
      classes.value(for: metadata) { readClass($0, readsAnyBuffer: false) }
    }

    /// The stored properties of a class as `ofClass` gives them, and also of a `ManagedBuffer`
    /// subclass that adds none (a lock-guarded buffer such as Observation's registrar): its
    /// `header`. Only for the heap scan, whose every read goes through `/proc/self/mem` and whose
    /// every word is proved again before it is believed: a state changing under its lock on
    /// another thread can neither fault the scan nor pass a proof with a word it no longer holds.
    static func ofClassReadingBuffers(_ metadata: UnsafeRawPointer) -> Layout {
      bufferClasses.value(for: metadata) { readClass($0, readsAnyBuffer: true) }
    }

    /// The payload type of each of an enum's cases that has one, in the order the runtime numbers
    /// them (`getEnumTag`): the enum's field records list payload cases first, then the empty ones
    /// (measured on Swift 6.3.1: `case d; case a(…); case e; case b(…)` lists `a, b, d, e`, and
    /// `.a` is tag 0). An indirect case's payload (a box) is `nil`, as is a type the walk cannot
    /// resolve. `nil` for metadata that is not an enum's or an optional's.
    static func payloadTypes(ofEnum metadata: UnsafeRawPointer) -> [Any.Type?]? {
      enums.value(for: metadata, compute: readEnum)
    }

    /// Whether the nominal type of `metadata` is declared in the standard library (whose
    /// `customMirror`s, such as a collection's, are the library's code, not a user's).
    static func isStandardLibraryType(_ metadata: UnsafeRawPointer) -> Bool {
      // Only value-type metadata (struct 0x200, enum 0x201, optional 0x202) has its descriptor in
      // its second word; other kinds (tuples, existentials, functions) have none.
      guard
        (0x200...0x202).contains(metadata.load(as: UInt.self)),
        let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
      else { return false }
      return moduleName(of: descriptor) == "Swift"
    }

    /// The name of the nominal type of value-type metadata (`Array`, not `Array<Int>`), or `nil`.
    static func typeName(ofValueType metadata: UnsafeRawPointer) -> String? {
      guard
        (0x200...0x202).contains(metadata.load(as: UInt.self)),
        let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
      else { return nil }
      return relative(descriptor + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
    }

    /// The type arguments of a generic struct or enum (such as `Array<Model>`'s `Model`): the
    /// metadata's generic arguments, after its descriptor, count from the descriptor's generic
    /// header (a struct's at byte 28, an enum's at byte 28 too: both have two 32-bit fields after
    /// the fields pointer), past two 32-bit instantiation fields: parameter count (`UInt16`).
    /// `nil` when the type is not generic or not a struct or an enum.
    static func genericTypeArguments(ofValueType metadata: UnsafeRawPointer) -> [UnsafeRawPointer]? {
      guard
        (0x200...0x202).contains(metadata.load(as: UInt.self)),
        let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
      else { return nil }
      let flags = descriptor.load(as: UInt32.self)
      guard flags & descriptorIsGeneric != 0, [descriptorKindStruct, 18].contains(flags & 0x1F) else { return nil }
      let parameters = Int(descriptor.load(fromByteOffset: 28 + 8, as: UInt16.self))
      guard parameters <= 8 else { return nil }
      return (0..<parameters).compactMap { index in
        metadata.load(fromByteOffset: (2 + index) * word, as: UnsafeRawPointer?.self)
      }
    }

    private static func readStruct(_ metadata: UnsafeRawPointer) -> Layout {
      guard
        metadata.load(as: UInt.self) == structKind,
        let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self),
        readable(descriptor, kind: descriptorKindStruct)
      else { return .unreadable }
      let count = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self))
      let offsetVector = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
      guard count == 0 || offsetVector > 0 else { return .unreadable }
      let flags = descriptor.load(as: UInt32.self)
      let genericArguments = flags & descriptorIsGeneric != 0 ? metadata + 2 * word : nil
      let fields = records(of: descriptor, count: count, genericArguments: genericArguments) { index in
        Int(metadata.load(fromByteOffset: offsetVector * word + 4 * index, as: UInt32.self))
      }
      // A struct with no stored property but a size of its own is laid out raw (`@_rawLayout`,
      // such as the cell inside `Mutex`): what it holds is not described. Its size is in its value
      // witness table (just before the metadata), after the table's 8 functions.
      let size = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self).load(
        fromByteOffset: 8 * word, as: UInt.self)
      if count == 0, size > 0 { return .unreadable }
      return fields.map(Layout.fields) ?? .unreadable
    }

    private static func readEnum(_ metadata: UnsafeRawPointer) -> [Any.Type?]? {
      guard
        [enumKind, enumKind + 1].contains(metadata.load(as: UInt.self)),
        let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self),
        readable(descriptor, kind: descriptorKindEnum),
        let fieldDescriptor = relative(descriptor + 16)
      else { return nil }
      let payloadCases = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF)
      let emptyCases = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
      let recordSize = Int(fieldDescriptor.load(fromByteOffset: 10, as: UInt16.self))
      guard payloadCases + emptyCases == Int(fieldDescriptor.load(fromByteOffset: 12, as: UInt32.self)),
        recordSize >= 12
      else { return nil }
      let flags = descriptor.load(as: UInt32.self)
      let genericArguments = flags & descriptorIsGeneric != 0 ? metadata + 2 * word : nil
      return (0..<payloadCases).map { index in
        let record = fieldDescriptor + 16 + index * recordSize
        // Record flag 1: an indirect case, whose payload is a box.
        guard record.load(as: UInt32.self) & 1 == 0, let typeName = relative(record + 4) else { return nil }
        let mangled = MangledName(typeName.assumingMemoryBound(to: UInt8.self))
        guard case .value(let type) = reading(mangled, descriptor: descriptor, genericArguments: genericArguments)
        else { return nil }
        return type
      }
    }

    private static func readClass(_ metadata: UnsafeRawPointer, readsAnyBuffer: Bool) -> Layout {
      var levels: [[Field]] = []
      var level: UnsafeRawPointer? = metadata
      while let current = level {
        guard
          let descriptor = current.load(fromByteOffset: 40, as: UnsafeRawPointer?.self),
          readable(descriptor, kind: descriptorKindClass)
        else { return .unreadable }
        let flags = descriptor.load(as: UInt32.self)
        let count = Int(descriptor.load(fromByteOffset: 36, as: UInt32.self))
        // Kind-specific flag 13: a resilient superclass (such as the standard library's
        // `ManagedBuffer`), whose members' position is only known at run time from that
        // superclass's bounds. A level with stored properties of its own is not read; one without
        // (a subclass that only adds methods) has nothing to read here, and its superclass's own
        // metadata says where that superclass's fields lie. The walk reads one only for
        // `LockedState`'s storage, whose state it reads under its lock (`isLockedStateStorage`):
        // another such buffer (Observation's registrar, a user's lock-guarded storage) may be
        // changing under a lock the walk does not know, on another thread, while a report loads
        // it. The heap scan reads any (`ofClassReadingBuffers`): its reads cannot fault.
        if (flags >> 16) & (1 << 13) != 0 {
          guard count == 0, readsAnyBuffer || isLockedStateStorage(metadata) else { return .unreadable }
          level = current.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
          continue
        }
        let positiveSize = Int(descriptor.load(fromByteOffset: 28, as: UInt32.self))
        let immediateMembers = Int(descriptor.load(fromByteOffset: 32, as: UInt32.self))
        let offsetVector = Int(descriptor.load(fromByteOffset: 40, as: UInt32.self))
        guard count == 0 || offsetVector > 0 else { return .unreadable }
        let genericArguments =
          flags & descriptorIsGeneric != 0 ? current + (positiveSize - immediateMembers) * word : nil
        let fields = records(of: descriptor, count: count, genericArguments: genericArguments) { index in
          Int(current.load(fromByteOffset: (offsetVector + index) * word, as: UInt.self))
        }
        guard let fields else { return .unreadable }
        levels.append(fields)
        level = current.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
      }
      return .fields(levels.reversed().flatMap { $0 })
    }

    /// Whether `descriptor` is a type descriptor of `kind` whose field records the walk can trust:
    /// not foreign (an imported C type, metadata initialisation kind 2 in kind-specific bits 16-17)
    /// and not declared in an imported module (`__C`, `__C_Synthesized`: C and C++ types, whose copy
    /// may run a C++ copy constructor).
    private static func readable(_ descriptor: UnsafeRawPointer, kind: UInt32) -> Bool {
      let flags = descriptor.load(as: UInt32.self)
      guard flags & 0x1F == kind, (flags >> 16) & 0x3 != 2 else { return false }
      guard let module = moduleName(of: descriptor) else { return false }
      return !module.hasPrefix("__C")
    }

    /// The field records of `descriptor`, with each field's offset from `offset(index)`.
    private static func records(
      of descriptor: UnsafeRawPointer, count: Int, genericArguments: UnsafeRawPointer?, offset: (Int) -> Int
    ) -> [Field]? {
      guard let fieldDescriptor = relative(descriptor + 16) else { return count == 0 ? [] : nil }
      let recordSize = Int(fieldDescriptor.load(fromByteOffset: 10, as: UInt16.self))
      guard count == Int(fieldDescriptor.load(fromByteOffset: 12, as: UInt32.self)), recordSize >= 12 else {
        return nil
      }
      return (0..<count).map { index in
        let record = fieldDescriptor + 16 + index * recordSize
        let name = relative(record + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "\(index)"
        guard let typeName = relative(record + 4) else {
          return Field(name: name, offset: offset(index), reading: .unreadable)
        }
        let mangled = MangledName(typeName.assumingMemoryBound(to: UInt8.self))
        return Field(
          name: name, offset: offset(index),
          reading: reading(mangled, descriptor: descriptor, genericArguments: genericArguments))
      }
    }

    private static func reading(
      _ name: MangledName, descriptor: UnsafeRawPointer, genericArguments: UnsafeRawPointer?
    ) -> Field.Reading {
      if name.isReferenceStorage { return .skipped }
      guard !name.mayTrapTheRuntime, name.length > 0 else { return .unreadable }
      guard
        let type = _getTypeByMangledNameInContext(
          name.start, UInt(name.length), genericContext: descriptor, genericArguments: genericArguments)
      else { return .unreadable }
      switch FunctionConvention.of(type) {
      case .swift, nil: return .value(type)
      case .block: return .block
      case .thinOrC: return .skipped
      }
    }

    /// Whether the class of `metadata` is `PresentationModel`'s `LockedState<State>.Storage`: a
    /// `ManagedBuffer` whose header is the state and whose one element is the `pthread_mutex_t`
    /// that guards it. Other threads change that state under the lock while a report runs (a
    /// center shared by tests in parallel), so the walk reads it only under the same lock.
    static func isLockedStateStorage(_ metadata: UnsafeRawPointer) -> Bool {
      guard
        let descriptor = metadata.load(fromByteOffset: 40, as: UnsafeRawPointer?.self),
        descriptor.load(as: UInt32.self) & 0x1F == descriptorKindClass, name(of: descriptor) == "Storage",
        let parent = indirectable(descriptor + 4), parent.load(as: UInt32.self) & 0x1F == descriptorKindStruct,
        name(of: parent) == "LockedState"
      else { return false }
      return moduleName(of: parent) == "PresentationModel"
    }

    private static func name(of descriptor: UnsafeRawPointer) -> String? {
      relative(descriptor + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
    }

    /// The name of the module that declares the type of `descriptor`: its parent chain's root.
    private static func moduleName(of descriptor: UnsafeRawPointer) -> String? {
      var context = descriptor
      for _ in 0..<64 {
        if context.load(as: UInt32.self) & 0x1F == 0 {  // a module descriptor: flags, parent, name
          return relative(context + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        }
        guard let parent = indirectable(context + 4) else { return nil }
        context = parent
      }
      return nil
    }

    /// The target of the 32-bit relative pointer at `address`, or `nil` for a null one.
    private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
      let offset = Int(address.load(as: Int32.self))
      return offset == 0 ? nil : address + offset
    }

    /// The target of a relative indirectable pointer: its low bit says the offset reaches a pointer
    /// to the target rather than the target.
    private static func indirectable(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
      let offset = Int(address.load(as: Int32.self))
      guard offset != 0 else { return nil }
      let target = address + (offset & ~1)
      return offset & 1 == 0 ? target : target.load(as: UnsafeRawPointer?.self)
    }
  }

  /// The calling convention of a function type, from its metadata's flags (bits 16-23).
  enum FunctionConvention {
    case swift
    case block
    case thinOrC

    /// `nil` when `type` is not a function type.
    static func of(_ type: Any.Type) -> FunctionConvention? {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      guard metadata.load(as: UInt.self) == MetadataKind.function else { return nil }
      switch (metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) >> 16) & 0xFF {
      case 0: return .swift
      case 1: return .block
      default: return .thinOrC
      }
    }
  }
#endif
