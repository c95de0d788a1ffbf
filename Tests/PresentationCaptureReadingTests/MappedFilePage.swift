#if os(Linux) && canImport(Glibc)
  import Foundation
  import Glibc
  import Testing

  /// One page of a temporary file, mapped into this process read-write: memory that
  /// `/proc/self/maps` shows as file-backed, as a binary image's is, but that no image's symbol
  /// table describes. Tests lay out look-alikes of runtime records there.
  final class MappedFilePage {
    static let size = 4096
    let memory: UnsafeMutableRawPointer
    private let file: Int32
    private let path: String

    init() throws {
      path =
        FileManager.default.temporaryDirectory.appendingPathComponent(
          "mapped-page-\(getpid())-\(UInt.random(in: 0...UInt.max))"
        ).path
      file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
      try #require(file >= 0, "could not create \(path)")
      try #require(ftruncate(file, off_t(Self.size)) == 0)
      let mapped = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0)
      try #require(mapped != MAP_FAILED)
      memory = try #require(mapped)
    }

    deinit {
      munmap(memory, Self.size)
      close(file)
      unlink(path)
    }
  }
#endif
