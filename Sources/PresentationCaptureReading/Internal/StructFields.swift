#if !canImport(ObjectiveC)
  /// The stored properties of a struct, read from the runtime's type metadata instead of `Mirror`:
  /// `Mirror` loads a `weak` property as a strong optional and an `unowned` one as a strong
  /// reference, which traps when its object is gone (legal, as long as nobody reads it). The field
  /// records say which properties are `weak`, `unowned` or `unowned(unsafe)`: those hold nothing
  /// alive, so the walk skips them without reading them.
  ///
  /// Layouts (all relative pointers are 32-bit offsets from their own address; stable ABI):
  /// - struct metadata: kind (0x200), then a pointer to its descriptor, then its generic arguments;
  /// - struct descriptor: flags, parent, name, access function, fields (→ field descriptor), field
  ///   count, field offset vector offset (in words from the metadata, each offset a `UInt32`);
  /// - field descriptor: mangled type name, superclass, kind (UInt16), record size (UInt16), record
  ///   count, then one record per stored property: flags, mangled type name, name.
  enum StructFields {
    /// One stored property of a struct, by how the walk treats it.
    struct Field {
      enum Reading {
        /// A strong value of this type at the field's offset.
        case value(Any.Type)
        /// A `weak`, `unowned` or `unowned(unsafe)` reference: holds nothing alive; not read.
        case skipped
        /// A type the walk cannot resolve: not read, counted unread.
        case unreadable
      }

      let name: String
      let offset: Int
      let reading: Reading
    }

    static let structKind: UInt = 0x200
    private static let descriptorKindStruct: UInt32 = 17
    private static let descriptorIsGeneric: UInt32 = 0x80

    private static let cache = LayoutCache<[Field]?>()

    /// The stored properties of the struct whose metadata is `metadata`, or `nil` when its metadata
    /// does not describe them (no field records, a foreign C struct, an unexpected descriptor).
    static func fields(ofStruct metadata: UnsafeRawPointer) -> [Field]? {
      cache.value(for: metadata, compute: read)
    }

    private static func read(_ metadata: UnsafeRawPointer) -> [Field]? {
      let word = MemoryLayout<UInt>.size
      guard
        metadata.load(as: UInt.self) == structKind,
        let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
      else { return nil }
      let flags = descriptor.load(as: UInt32.self)
      // Kind in the low five bits; metadata initialisation in the two lowest kind-specific bits
      // (16-17): 2 is a foreign (imported C) struct, whose layout the records need not give.
      guard flags & 0x1F == descriptorKindStruct, (flags >> 16) & 0x3 != 2 else { return nil }
      guard let fieldDescriptor = relative(descriptor + 16) else { return nil }
      let count = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self))
      let offsetVector = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
      let recordSize = Int(fieldDescriptor.load(fromByteOffset: 10, as: UInt16.self))
      guard
        count == Int(fieldDescriptor.load(fromByteOffset: 12, as: UInt32.self)), recordSize >= 12,
        count == 0 || offsetVector > 0
      else { return nil }
      let genericArguments = flags & descriptorIsGeneric != 0 ? metadata + 2 * word : nil
      return (0..<count).map { index in
        let record = fieldDescriptor + 16 + index * recordSize
        let offset = Int(metadata.load(fromByteOffset: offsetVector * word + 4 * index, as: UInt32.self))
        let name = relative(record + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "\(index)"
        guard let typeName = relative(record + 4) else {
          return Field(name: name, offset: offset, reading: .unreadable)
        }
        return Field(
          name: name, offset: offset,
          reading: reading(
            MangledName(typeName.assumingMemoryBound(to: UInt8.self)), descriptor: descriptor,
            genericArguments: genericArguments))
      }
    }

    private static func reading(
      _ name: MangledName, descriptor: UnsafeRawPointer, genericArguments: UnsafeRawPointer?
    ) -> Field.Reading {
      if name.isReferenceStorage { return .skipped }
      guard !name.mayTrapTheRuntime, name.length > 0 else { return .unreadable }
      let type = _getTypeByMangledNameInContext(
        name.start, UInt(name.length), genericContext: descriptor, genericArguments: genericArguments)
      return type.map(Field.Reading.value) ?? .unreadable
    }

    /// The target of the 32-bit relative pointer at `address`, or `nil` for a null one.
    private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
      let offset = Int(address.load(as: Int32.self))
      return offset == 0 ? nil : address + offset
    }
  }
#endif
