#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// Reads of this process's own memory that never fault: every word the heap scan looks at goes
  /// through `/proc/self/mem`, whose reads fail with `EIO` instead of faulting when the address is
  /// not mapped (or was unmapped a moment ago by another thread). Linux only.
  enum ProcessMemory {
    /// `/proc/self/mem`, opened once.
    private static let file = open("/proc/self/mem", O_RDONLY | O_CLOEXEC)

    /// Whether the process may read its own memory file (a sandbox may forbid it).
    static var isReadable: Bool { file >= 0 }

    /// Reads up to `count` bytes at `address` into `buffer`: how many were read, 0 when the
    /// first byte is not mapped.
    static func read(_ address: UInt, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
      guard address != 0, address < UInt(Int64.max) - UInt(count), file >= 0 else { return 0 }
      return max(0, LibC.pread(file, buffer, count, off_t(Int64(address))))
    }

    static func word(at address: UInt) -> UInt? {
      var value: UInt = 0
      let count = withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: $0.count) }
      return count == MemoryLayout<UInt>.size ? value : nil
    }

    static func uint32(at address: UInt) -> UInt32? {
      var value: UInt32 = 0
      let count = withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: $0.count) }
      return count == MemoryLayout<UInt32>.size ? value : nil
    }

    static func int32(at address: UInt) -> Int32? {
      uint32(at: address).map { Int32(bitPattern: $0) }
    }

    /// `count` bytes at `address`, or `nil` unless all of them could be read.
    static func bytes(at address: UInt, count: Int) -> [UInt8]? {
      guard count > 0 else { return [] }
      var bytes = [UInt8](repeating: 0, count: count)
      let done = bytes.withUnsafeMutableBytes { read(address, into: $0.baseAddress!, count: count) }
      return done == count ? bytes : nil
    }

    /// The target of the 32-bit relative pointer at `address` (a signed offset from its own
    /// address, as the runtime's metadata records hold them), or `nil` for a null one.
    static func relative(at address: UInt) -> UInt? {
      guard let offset = int32(at: address), offset != 0 else { return nil }
      return UInt(bitPattern: Int(bitPattern: address) &+ Int(offset))
    }
  }

  /// The C library's own `pread` and `memchr`, past the sanitizers' interceptors of the same
  /// names (found with `RTLD_NEXT`, handle -1: a sanitizer's runtime is linked into the executable, before
  /// the C library): under ThreadSanitizer, the interceptors record every byte the scan copies
  /// and searches in its own buffer, which no other thread touches, and more than double its cost.
  /// Elsewhere they are the same functions.
  enum LibC {
    typealias Read = @convention(c) (Int32, UnsafeMutableRawPointer?, Int, off_t) -> Int
    typealias Find = @convention(c) (UnsafeRawPointer?, Int32, Int) -> UnsafeMutableRawPointer?

    private static let readEntry = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: -1), "pread"))
    private static let findEntry = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: -1), "memchr"))

    static func pread(_ file: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
      guard let entry = UnsafeRawPointer(bitPattern: readEntry) else { return Glibc.pread(file, buffer, count, offset) }
      return unsafeBitCast(entry, to: Read.self)(file, buffer, count, offset)
    }

    static func memchr(_ memory: UnsafeRawPointer, _ byte: Int32, _ count: Int) -> UnsafeMutableRawPointer? {
      guard let entry = UnsafeRawPointer(bitPattern: findEntry) else { return Glibc.memchr(memory, byte, count) }
      return unsafeBitCast(entry, to: Find.self)(memory, byte, count)
    }
  }

  /// One mapping of `/proc/self/maps`: `start-end perms offset dev inode path`.
  struct MemoryRegion: Sendable {
    let start: UInt
    /// One past the last byte.
    let end: UInt
    /// `r`, `w`, `x` or `-` each, then `p` (private) or `s` (shared).
    let permissions: [UInt8]
    /// Where in its file the mapping starts (0 for anonymous memory).
    let fileOffset: UInt
    /// The mapped file's path, `[heap]`, `[stack]`, another bracketed name, or empty (anonymous).
    let path: String

    var isReadable: Bool { permissions.first == UInt8(ascii: "r") }
    var isWritable: Bool { permissions.dropFirst().first == UInt8(ascii: "w") }
    var isExecutable: Bool { permissions.dropFirst(2).first == UInt8(ascii: "x") }
    var size: UInt { end - start }
    var isFileBacked: Bool { path.hasPrefix("/") }
    var isAnonymous: Bool { path.isEmpty }
    func contains(_ address: UInt) -> Bool { start <= address && address < end }
  }

  /// A snapshot of the process's mappings, sorted by address, with look-ups by address.
  struct MemoryMap: Sendable {
    let regions: [MemoryRegion]

    static func current() -> MemoryMap {
      let descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return MemoryMap(regions: []) }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        bytes.append(contentsOf: chunk[0..<count])
      }
      let regions = bytes.withUnsafeBufferPointer(parse)
      return MemoryMap(regions: regions.sorted { $0.start < $1.start })
    }

    /// Parses the lines of `/proc/self/maps` in one pass over its bytes (a debug build's
    /// `split` and `String` conversions cost more than the rest of a scan's set-up).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [MemoryRegion] {
      var regions: [MemoryRegion] = []
      var index = 0
      func hex() -> UInt {
        var value: UInt = 0
        while index < bytes.count {
          let byte = bytes[index]
          let digit: UInt
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt(byte - UInt8(ascii: "0"))
          case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt(byte - UInt8(ascii: "a") + 10)
          default: return value
          }
          value = value &<< 4 | digit
          index += 1
        }
        return value
      }
      func skip(_ byte: UInt8) { if index < bytes.count, bytes[index] == byte { index += 1 } }
      func field() -> ArraySlice<UInt8> {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\n") { index += 1 }
        return ArraySlice(bytes[start..<index])
      }
      while index < bytes.count {
        let start = hex()
        skip(UInt8(ascii: "-"))
        let end = hex()
        let permissions = Array(field())
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        let offset = hex()
        _ = field()  // device
        _ = field()  // inode
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        let pathStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[pathStart..<index]), as: UTF8.self)
        index += 1
        if permissions.count >= 3, end > start {
          regions.append(
            MemoryRegion(start: start, end: end, permissions: permissions, fileOffset: offset, path: path))
        }
      }
      return regions
    }

    /// The mapping that holds `address`.
    func region(containing address: UInt) -> MemoryRegion? {
      var low = 0
      var high = regions.count
      while low < high {
        let middle = (low + high) / 2
        if regions[middle].start <= address { low = middle + 1 } else { high = middle }
      }
      guard low > 0, regions[low - 1].contains(address) else { return nil }
      return regions[low - 1]
    }

    /// Whether `address` lies in a mapping of a binary image (a file).
    func isInImage(_ address: UInt) -> Bool {
      region(containing: address)?.isFileBacked ?? false
    }

    /// Whether `address` lies in executable code of a binary image.
    func isInImageCode(_ address: UInt) -> Bool {
      guard let region = region(containing: address) else { return false }
      return region.isFileBacked && region.isExecutable
    }
  }

#endif
