#if os(Linux) && canImport(Glibc)
  @testable import PresentationCaptureReading
  import Testing

  /// What the heap scan believes is type metadata, and so hands to its own loads and to the runtime
  /// (field records, `getEnumTag`, instantiation): the metadata of a real type, never words that
  /// only look like it. A collection's storage carries its element type's metadata in memory nothing
  /// proves (a stale block's words): there a `0x200` (a struct's kind) at an address inside a
  /// mapped file passed for a struct's metadata, and its "descriptor" was read in place.
  @Suite struct GenericMetadataProofTests {
    struct Plain { var number = 0 }
    struct Wrapper<Value> { var value: Value }
    enum Choice {
      case none
      case some(Plain)
    }

    static func metadata(_ type: Any.Type) -> UInt { unsafeBitCast(type, to: UInt.self) }

    @Test func believesTheMetadataOfRealTypes() {
      let map = MemoryMap.current()
      for type: Any.Type in [Plain.self, Choice.self, Int.self, Wrapper<Plain>.self, Wrapper<Int?>.self, [Plain].self] {
        #expect(GenericMetadataProof.isGenuine(Self.metadata(type), map: map), "\(type)")
      }
    }

    /// Words laid out as a struct's metadata (its kind, then a descriptor that says "struct"), in
    /// a file mapped into the process: in an image as far as the mappings say, but no symbol of any
    /// image names them.
    @Test func believesNoLookAlikeInAMappedFile() throws {
      let page = try MappedFilePage()
      let memory = page.memory
      let descriptor = memory + 256
      descriptor.storeBytes(of: UInt32(0x11), as: UInt32.self)  // a struct, not generic
      memory.storeBytes(of: UInt(0x200), as: UInt.self)  // a struct's kind
      memory.storeBytes(of: UInt(bitPattern: descriptor), toByteOffset: 8, as: UInt.self)
      let map = MemoryMap.current()
      #expect(map.isInImage(UInt(bitPattern: memory)), "the mapped file counts as an image")
      #expect(!GenericMetadataProof.isGenuine(UInt(bitPattern: memory), map: map))
      // The same words inside the test binary's own data: a copy of real metadata, not the metadata.
      let copy = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
      defer { copy.deallocate() }
      copy.copyMemory(from: UnsafeRawPointer(bitPattern: Self.metadata(Plain.self))!, byteCount: 16)
      #expect(!GenericMetadataProof.isGenuine(UInt(bitPattern: copy), map: map))
      withExtendedLifetime(page) {}
    }
  }
#endif
