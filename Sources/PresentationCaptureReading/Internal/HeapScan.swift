#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// A conservative scan of the process's writable anonymous memory for words equal to an object's
  /// address, each hit validated as a strong stored property of a live Swift object before it is
  /// believed: the way to name a holder that nobody tracked.
  ///
  /// Memory is read through `/proc/self/mem`, which fails with `EIO` instead of faulting when a
  /// region was unmapped meanwhile, so the scan never dereferences a word it has not proved
  /// readable. A hit at address `A` is believed only when, for an object
  /// start `S` at most 4 KiB before it (16-byte aligned, as `malloc` returns):
  /// - the word at `S` is class metadata: a zero kind word, a superclass word that is zero or
  ///   points at another zero kind word, and at byte 40 a descriptor that lies in a file-backed
  ///   (binary image) mapping, says "class", names the class with a readable identifier in a
  ///   file-backed mapping, and has a metadata access function in an executable file-backed
  ///   mapping; and the metadata itself lies in a file-backed mapping (where a binary keeps the
  ///   metadata of a class that is not generic). The metadata of a generic class is made at run
  ///   time, in memory nothing proves to be metadata: such a holder is not named, except an
  ///   array's storage, recognised by its descriptor alone (the one every array's storage has);
  /// - no runtime function is handed a metadata pointer before all of the above held;
  /// - the `malloc` chunk header before `S` gives a chunk that covers the instance (glibc's size
  ///   word at `S - 8`, a multiple of 16);
  /// - `A - S` is the offset of one of the class's strong stored properties (its field records).
  /// A freed object fails the first test (the allocator overwrites its first words). An array's
  /// storage holding the object is followed one step up: the object whose stored `Array` property
  /// holds that storage is the holder.
  enum HeapScan {
    struct Holder {
      /// `Cache.entries`, `Cache.items[…]`.
      let path: String
    }

    struct Result {
      var holders: [Holder] = []
      var scannedBytes = 0
      var hits = 0
      var rejectedHits = 0
    }

    private struct Region {
      let start: UInt
      let end: UInt
      let isWritableAnonymous: Bool
      let isFileBacked: Bool
      let isExecutable: Bool
    }

    /// What a validated candidate's metadata is.
    private enum ValidatedClass {
      /// A class that is not generic, whose metadata the binary holds: its field records may be read.
      case plain
      /// An array's storage (`_ContiguousArrayStorage<Element>`): its elements follow its header.
      case arrayStorage
    }

    /// The context descriptor every array's storage class has, whatever its element type: read once
    /// from an array this process made.
    private static let arrayStorageDescriptor: UInt = {
      final class Probe {}
      let array: [AnyObject] = [Probe()]  // not empty: an empty array shares a static storage
      return withExtendedLifetime(array) {
        // An array is one reference to its storage object, whose first word is its metadata.
        let storage = unsafeBitCast(array, to: UnsafeRawPointer.self)
        let metadata = storage.load(as: UnsafeRawPointer.self)
        return metadata.load(fromByteOffset: 40, as: UInt.self)
      }
    }()

    /// Whether objects come from glibc's `malloc`, whose chunk headers the validation reads: not
    /// under AddressSanitizer or ThreadSanitizer, whose allocators replace it.
    static let allocatorIsGlibc: Bool = {
      let process = dlopen(nil, RTLD_NOW)
      defer { if let process { dlclose(process) } }
      return dlsym(process, "__asan_init") == nil && dlsym(process, "__tsan_init") == nil
    }()

    static func holders(of target: UnsafeRawPointer, maximumHolders: Int) -> Result {
      let regions = readRegions()
      var result = Result()
      for hit in hits(of: UInt(bitPattern: target), in: regions, result: &result) {
        if result.holders.count >= maximumHolders { break }
        guard let (object, metadata, field) = validatedHolder(at: hit, regions: regions) else {
          result.rejectedHits += 1
          continue
        }
        guard let field else {  // an array's storage
          // One step up: who holds this array's storage in a stored `Array` property.
          let index = (Int(hit) - Int(object) - 32) / MemoryLayout<UInt>.size
          for outer in hits(of: object, in: regions, result: &result) {
            guard
              let outerHolder = validatedHolder(at: outer, regions: regions, holdsArrayStorage: true),
              let outerField = outerHolder.field
            else { continue }
            let outerName = String(describing: unsafeBitCast(outerHolder.metadata, to: Any.Type.self))
            result.holders.append(Holder(path: "\(outerName).\(outerField)[\(index)]"))
            break
          }
          continue
        }
        let typeName = String(describing: unsafeBitCast(metadata, to: Any.Type.self))
        result.holders.append(Holder(path: "\(typeName).\(field)"))
      }
      return result
    }

    /// A region larger than this is not read: no allocator arena is (glibc's are 64 MiB), and the
    /// sanitizers reserve terabytes of shadow memory as anonymous writable mappings.
    static let largestRegion: UInt = 1 << 30
    /// The most the scan reads in all.
    static let mostBytes = 4 << 30

    /// Addresses of the words equal to `value` in every writable anonymous region.
    private static func hits(of value: UInt, in regions: [Region], result: inout Result) -> [UInt] {
      var found: [UInt] = []
      let chunkWords = 1 << 17  // 1 MiB
      var buffer = [UInt](repeating: 0, count: chunkWords)
      for region in regions where region.isWritableAnonymous && region.end - region.start <= largestRegion {
        guard result.scannedBytes < mostBytes else { break }
        var address = region.start
        while address < region.end {
          let words = min(chunkWords, Int((region.end - address) / UInt(MemoryLayout<UInt>.size)))
          let read = buffer.withUnsafeMutableBytes { bytes in
            safeRead(from: address, into: bytes.baseAddress!, count: words * MemoryLayout<UInt>.size)
          }
          guard read > 0 else { break }
          result.scannedBytes += read
          let readWords = read / MemoryLayout<UInt>.size
          for index in 0..<readWords where buffer[index] == value {
            found.append(address + UInt(index * MemoryLayout<UInt>.size))
          }
          address += UInt(readWords * MemoryLayout<UInt>.size)
        }
      }
      result.hits += found.count
      return found
    }

    /// The object, its metadata and the name of the strong stored property at `hit` (`nil` for an
    /// array's storage, whose elements have no name), if the hit passes every test above.
    private static func validatedHolder(
      at hit: UInt, regions: [Region], holdsArrayStorage: Bool = false
    ) -> (object: UInt, metadata: UnsafeRawPointer, field: String?)? {
      let word = UInt(MemoryLayout<UInt>.size)
      var start = hit & ~15
      while hit - start <= 4096 {
        defer { start -= 16 }
        guard
          let metadataWord = safeWord(at: start), metadataWord != 0,
          let validated = validatedClass(metadata: metadataWord, regions: regions),
          let sizeWord = safeWord(at: start - word), let instanceWord = safeWord(at: metadataWord + 24)
        else { continue }
        let chunkSize = sizeWord & ~7
        let instanceSize = instanceWord & 0xFFFF_FFFF
        guard chunkSize % 16 == 0, chunkSize >= instanceSize, chunkSize < 1 << 32, hit - start < chunkSize else {
          continue
        }
        guard let metadata = UnsafeRawPointer(bitPattern: metadataWord), isAlive(objectAt: start) else { continue }
        let offset = Int(hit - start)
        // An array's elements follow its storage object's 32-byte header, past its instance size.
        if case .arrayStorage = validated {
          return offset >= 32 && !holdsArrayStorage ? (start, metadata, nil) : nil
        }
        guard offset < instanceSize else { return nil }
        guard case .fields(let fields) = StoredFields.ofClass(metadata) else { return nil }
        guard
          let field = fields.first(where: { $0.offset == offset }), case .value(let type) = field.reading,
          holdsArrayStorage ? isArray(type) : isStrongReference(type)
        else { return nil }
        return (start, metadata, field.name)
      }
      return nil
    }

    /// What the class metadata at `metadata` is, if every test of the scan's rules holds (see the
    /// type's comment), each word read through `/proc/self/mem`; `nil` otherwise.
    private static func validatedClass(metadata: UInt, regions: [Region]) -> ValidatedClass? {
      guard
        let kind = safeWord(at: metadata), kind == 0,
        let superclass = safeWord(at: metadata + 8), superclass == 0 || safeWord(at: superclass) == 0,
        let descriptor = safeWord(at: metadata + 40), isIn(descriptor, regions, fileBacked: true),
        let flags = safeInt32(at: descriptor), flags & 0x1F == 16
      else { return nil }
      if descriptor == arrayStorageDescriptor { return .arrayStorage }
      // TypeContextDescriptor: Flags, Parent, Name, AccessFunction (32-bit relative pointers).
      guard
        flags & 0x80 == 0,  // not generic
        isIn(metadata, regions, fileBacked: true),
        let nameOffset = safeInt32(at: descriptor + 8), nameOffset != 0,
        hasIdentifier(at: UInt(bitPattern: Int(bitPattern: descriptor + 8) + Int(nameOffset)), regions: regions),
        let accessorOffset = safeInt32(at: descriptor + 12), accessorOffset != 0,
        isIn(UInt(bitPattern: Int(bitPattern: descriptor + 12) + Int(accessorOffset)), regions, executable: true)
      else { return nil }
      return .plain
    }

    /// Whether a type's name lies at `address` in a binary image: 1 to 255 bytes of an identifier
    /// (letters, digits, `_`, `$`, or bytes of a UTF-8 sequence), then a zero byte.
    private static func hasIdentifier(at address: UInt, regions: [Region]) -> Bool {
      guard isIn(address, regions, fileBacked: true) else { return false }
      var bytes = [UInt8](repeating: 0, count: 256)
      let read = bytes.withUnsafeMutableBytes { safeRead(from: address, into: $0.baseAddress!, count: $0.count) }
      guard read > 0, let end = bytes[..<read].firstIndex(of: 0), end > 0 else { return false }
      return bytes[..<end].allSatisfy { byte in
        byte >= 0x80 || byte == 0x5F || byte == 0x24 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte)
      }
    }

    /// Whether the object at `start` has not begun to deinitialise. An object that has (its
    /// properties already released) keeps its memory, stale words included, while unowned
    /// references to it remain. Its reference counts, in the word after its metadata (stable ABI,
    /// 64-bit): bit 32 is "deiniting"; when bit 63 is set, the counts moved to a side table whose
    /// address, shifted right by 3, fills the low 62 bits, and the same bits sit in its second word.
    private static func isAlive(objectAt start: UInt) -> Bool {
      guard MemoryLayout<UInt>.size == 8, var counts = safeWord(at: start + 8) else { return false }
      if counts >> 63 == 1 {
        let sideTable = (counts & ((1 << 62) - 1)) << 3
        guard let sideCounts = safeWord(at: sideTable + 8) else { return false }
        counts = sideCounts
      }
      return (counts >> 32) & 1 == 0
    }

    /// Whether a stored property of this type is a strong reference in its first word: a class
    /// type, an optional one, or a class-bound existential. (An `ObjectIdentifier` or an unsafe
    /// pointer holds the same bits and keeps nothing alive.)
    private static func isStrongReference(_ type: Any.Type) -> Bool {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      switch MetadataKind.of(metadata) {
      case MetadataKind.class:
        return true
      case 0x202:  // Optional: its wrapped type is its first generic argument.
        guard let wrapped = StoredFields.genericTypeArguments(ofValueType: metadata)?.first else { return false }
        return isStrongReference(unsafeBitCast(wrapped, to: Any.Type.self))
      case MetadataKind.existential:
        return metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self) & 0x8000_0000 == 0
      default:
        return false
      }
    }

    /// Whether a stored property of this type holds an array's storage in its first word.
    private static func isArray(_ type: Any.Type) -> Bool {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      guard StoredFields.isStandardLibraryType(metadata) else { return false }
      return ["Array", "ContiguousArray"].contains(StoredFields.typeName(ofValueType: metadata))
    }

    private static func isIn(_ address: UInt, _ regions: [Region], fileBacked: Bool) -> Bool {
      regions.contains { $0.start <= address && address < $0.end && (!fileBacked || $0.isFileBacked) }
    }

    private static func isIn(_ address: UInt, _ regions: [Region], executable: Bool) -> Bool {
      regions.contains { $0.start <= address && address < $0.end && $0.isFileBacked && $0.isExecutable == executable }
    }

    private static func safeInt32(at address: UInt) -> Int32? {
      var value: Int32 = 0
      let read = withUnsafeMutableBytes(of: &value) { bytes in
        safeRead(from: address, into: bytes.baseAddress!, count: MemoryLayout<Int32>.size)
      }
      return read == MemoryLayout<Int32>.size ? value : nil
    }

    private static func safeWord(at address: UInt) -> UInt? {
      var value: UInt = 0
      let read = withUnsafeMutableBytes(of: &value) { bytes in
        safeRead(from: address, into: bytes.baseAddress!, count: MemoryLayout<UInt>.size)
      }
      return read == MemoryLayout<UInt>.size ? value : nil
    }

    /// `/proc/self/mem`, opened once: reading it at an address that is not mapped fails with
    /// `EIO` instead of faulting.
    private static let memory = open("/proc/self/mem", O_RDONLY)

    /// Reads `count` bytes at `address` of this process without dereferencing it: 0 when any of it
    /// is not mapped (or the process may not read its own memory file).
    private static func safeRead(from address: UInt, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
      guard address != 0, address < UInt(Int64.max), memory >= 0 else { return 0 }
      return max(0, pread(memory, buffer, count, off_t(address)))
    }

    /// The process's mappings, from `/proc/self/maps`: `start-end perms offset dev inode path`.
    private static func readRegions() -> [Region] {
      let descriptor = open("/proc/self/maps", O_RDONLY)
      guard descriptor >= 0 else { return [] }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        bytes.append(contentsOf: chunk[0..<count])
      }
      return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 5 else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) else {
          return nil
        }
        let permissions = parts[1]
        let path = parts.count > 5 ? String(parts[5]) : ""
        return Region(
          start: start, end: end,
          isWritableAnonymous: permissions.hasPrefix("rw") && (path.isEmpty || path == "[heap]"),
          isFileBacked: path.hasPrefix("/"), isExecutable: permissions.dropFirst(2).first == "x")
      }
    }
  }
#endif
