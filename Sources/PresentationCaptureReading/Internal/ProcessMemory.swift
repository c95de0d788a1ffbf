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
      return max(0, pread(file, buffer, count, off_t(Int64(address))))
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
      let regions = bytes.split(separator: UInt8(ascii: "\n")).compactMap(parse)
      return MemoryMap(regions: regions.sorted { $0.start < $1.start })
    }

    private static func parse(_ line: ArraySlice<UInt8>) -> MemoryRegion? {
      let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
      guard parts.count >= 5 else { return nil }
      let bounds = parts[0].split(separator: UInt8(ascii: "-"))
      let permissions = Array(parts[1])
      guard
        bounds.count == 2, permissions.count >= 3,
        let start = UInt(String(decoding: bounds[0], as: UTF8.self), radix: 16),
        let end = UInt(String(decoding: bounds[1], as: UTF8.self), radix: 16),
        let offset = UInt(String(decoding: parts[2], as: UTF8.self), radix: 16)
      else { return nil }
      let path = parts.count > 5 ? String(decoding: parts[5], as: UTF8.self).trimmingLeadingSpaces : ""
      return MemoryRegion(start: start, end: end, permissions: permissions, fileOffset: offset, path: path)
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

  extension String {
    fileprivate var trimmingLeadingSpaces: String {
      String(drop(while: { $0 == " " }))
    }
  }
#endif
