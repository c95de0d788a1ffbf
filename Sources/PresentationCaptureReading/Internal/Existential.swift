#if !canImport(ObjectiveC)
  /// The value an existential container holds, read from its layout (stable ABI) rather than by a
  /// dynamic cast:
  /// - existential metadata: kind (0x303), flags (`UInt32`: witness table count in the low 24 bits,
  ///   special protocol in bits 24-29, bit 31 set when the existential is not class-bound), protocol
  ///   count;
  /// - a class-bound container: the object reference, then witness tables;
  /// - an opaque container: a three-word buffer, the held value's metadata, then witness tables.
  ///   The value sits in the buffer when its value witnesses say it fits inline; otherwise the
  ///   buffer's first word points to a heap box holding it after the box's two-word header;
  /// - an `Error` existential: a pointer to a runtime error box, not read here.
  enum Existential {
    static func contents(of container: UnsafeRawPointer, metadata: UnsafeRawPointer) -> Any? {
      let word = MemoryLayout<UInt>.size
      let flags = metadata.load(fromByteOffset: word, as: UInt32.self)
      let isClassBound = flags & 0x8000_0000 == 0
      let specialProtocol = (flags >> 24) & 0x3F
      guard specialProtocol == 0 else { return nil }  // `any Error`: a runtime box
      if isClassBound {
        // `Optional<AnyObject>` has the same layout as the reference, and a null one holds nothing.
        return container.load(as: AnyObject?.self).map { $0 as Any }
      }
      guard let type = container.load(fromByteOffset: 3 * word, as: UnsafeRawPointer?.self) else { return nil }
      let heldType = unsafeBitCast(type, to: Any.Type.self)
      // The value witness table sits just before the metadata; its flags follow 8 function pointers,
      // the size and the stride: the alignment mask in the low byte, "not inline" at 0x20000.
      let witnesses = type.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
      let witnessFlags = witnesses.load(fromByteOffset: 10 * word, as: UInt32.self)
      guard witnessFlags & 0x2_0000 != 0 else { return load(heldType, at: container) }
      guard let box = container.load(as: UnsafeRawPointer?.self) else { return nil }
      let alignmentMask = Int(witnessFlags & 0xFF)
      return load(heldType, at: box + ((2 * word + alignmentMask) & ~alignmentMask))
    }
  }
#endif
