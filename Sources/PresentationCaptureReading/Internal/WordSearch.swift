#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// Finds the aligned words equal to some addresses in ranges of this process's memory.
  ///
  /// The ranges are read once, through `/proc/self/mem`, into a copy in a mapping of the search's
  /// own (never `malloc`'s, so the scan never reads, and never finds a target in, its own buffer);
  /// each search then reads the copy, and a word found there counts only if the live word, read
  /// again through `/proc/self/mem`, still equals the target. When the ranges are larger than
  /// ``largestCopy``, each search reads them again, a chunk at a time.
  ///
  /// A search compares every word with all targets at once: a 4096-bit table of the targets' bits
  /// 4 to 15 (an object's address is 16-aligned) lets through about one word in 4096 per target,
  /// which is then compared in full: about 0.5 ns a byte in a debug build, whatever the number of
  /// targets.
  final class WordSearch {
    struct Hit {
      let address: UInt
      /// The index of the target in the list searched for.
      let target: Int
    }

    /// The largest copy kept; larger memory is read again at each search.
    static let largestCopy = 1 << 30
    private static let chunkSize = 1 << 20

    private struct Piece {
      let start: UInt
      let length: Int
      /// Where the piece's copy starts in `copy`, or -1 when it is read at each search.
      let offset: Int
    }
    private var pieces: [Piece] = []
    private let copy: UnsafeMutableRawPointer?
    private let copySize: Int
    private let chunk: UnsafeMutableRawPointer?
    /// Bytes read through `/proc/self/mem` so far.
    private(set) var bytesRead = 0

    /// Copies `ranges` (up to `budget` bytes in all).
    init(ranges: [Range<UInt>], budget: Int) {
      let total = ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) }
      copySize = total <= Self.largestCopy ? max(total, 1) : 0
      copy = copySize > 0 ? Self.map(copySize) : nil
      chunk = copy == nil ? Self.map(Self.chunkSize) : nil
      var offset = 0
      for range in ranges {
        let length = Int(range.upperBound - range.lowerBound) & ~7
        guard length > 0, bytesRead < budget else { continue }
        guard let copy else {
          pieces.append(Piece(start: range.lowerBound, length: length, offset: -1))
          continue
        }
        // Reads until the first byte that is not mapped any more: the piece is what was read.
        var done = 0
        while done < length {
          let count = min(Self.chunkSize, length - done)
          let read = ProcessMemory.read(range.lowerBound + UInt(done), into: copy + offset + done, count: count) & ~7
          done += read
          if read < count { break }
        }
        bytesRead += done
        if done > 0 { pieces.append(Piece(start: range.lowerBound, length: done, offset: offset)) }
        offset += length
      }
    }

    /// The copy's own addresses (never a heap region).
    var copyRange: Range<UInt> {
      guard let copy else { return 0..<0 }
      return UInt(bitPattern: copy)..<(UInt(bitPattern: copy) + UInt(copySize))
    }

    deinit {
      if let copy { Self.unmap(copy, copySize) }
      if let chunk { Self.unmap(chunk, Self.chunkSize) }
    }

    /// A mapping of `size` bytes between two inaccessible pages, so that the kernel never merges
    /// it with an adjacent read-write mapping (an arena's heap, whose start must stay where the
    /// scan recognises it).
    private static func map(_ size: Int) -> UnsafeMutableRawPointer? {
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      let length = (size + page - 1) / page * page + 2 * page
      let mapping = mmap(nil, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
      guard let mapping, mapping != MAP_FAILED else { return nil }
      guard mprotect(mapping + page, length - 2 * page, PROT_READ | PROT_WRITE) == 0 else {
        munmap(mapping, length)
        return nil
      }
      return mapping + page
    }

    private static func unmap(_ start: UnsafeMutableRawPointer, _ size: Int) {
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      munmap(start - page, (size + page - 1) / page * page + 2 * page)
    }

    /// The words equal to one of `targets` (still equal in live memory), reading at most
    /// `budget` bytes in all when the memory is not copied.
    func hits(of targets: [UInt], budget: Int) -> [Hit] {
      guard !targets.isEmpty else { return [] }
      let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
      defer { table.deallocate() }
      table.initialize(repeating: 0, count: 64)
      for target in targets {
        let bit = Int(truncatingIfNeeded: (target >> 4) & 0xFFF)
        table[bit >> 6] |= 1 << UInt64(bit & 63)
      }
      var hits: [Hit] = []
      targets.withUnsafeBufferPointer { wanted in
        for piece in pieces {
          if piece.offset >= 0, let copy {
            search(copy + piece.offset, length: piece.length, start: piece.start, wanted, table, &hits)
            continue
          }
          guard let chunk else { continue }
          var done = 0
          while done < piece.length, bytesRead < budget {
            let count = min(Self.chunkSize, piece.length - done)
            let read = ProcessMemory.read(piece.start + UInt(done), into: chunk, count: count) & ~7
            guard read > 0 else { break }
            bytesRead += read
            search(chunk, length: read, start: piece.start + UInt(done), wanted, table, &hits)
            done += read
          }
        }
      }
      return hits
    }

    private func search(
      _ memory: UnsafeMutableRawPointer, length: Int, start: UInt, _ targets: UnsafeBufferPointer<UInt>,
      _ table: UnsafeMutablePointer<UInt64>, _ hits: inout [Hit]
    ) {
      if targets.count <= Self.mostProbedTargets {
        for (index, target) in targets.enumerated() {
          probe(memory, length: length, start: start, for: target, index: index, &hits)
        }
        return
      }
      let words = memory.assumingMemoryBound(to: UInt.self)
      let count = length / 8
      var index = 0
      while index < count {
        let word = words[index]
        let bit = Int(truncatingIfNeeded: (word >> 4) & 0xFFF)
        if table[bit &>> 6] & (1 &<< UInt64(truncatingIfNeeded: bit & 63)) != 0 {
          var target = 0
          while target < targets.count {
            let address = start + UInt(index) * 8
            if targets[target] == word, ProcessMemory.word(at: address) == word {
              hits.append(Hit(address: address, target: target))
            }
            target += 1
          }
        }
        index += 1
      }
    }

    /// Up to this many targets, each is looked for with `memchr` (vectorised in libc, several
    /// times faster than a word loop in a debug build); beyond, the table loop looks for all at once.
    private static let mostProbedTargets = 3

    /// The words equal to `target`: `memchr` finds each occurrence of one of its bytes (the first
    /// of bytes 1 to 5 that is neither 0x00 nor 0xFF: its low byte is 16-aligned and its top bytes
    /// are shared by most pointers), then the aligned word around it is compared in full.
    private func probe(
      _ memory: UnsafeMutableRawPointer, length: Int, start: UInt, for target: UInt, index: Int, _ hits: inout [Hit]
    ) {
      var position = 1
      while position < 6,
        (target >> (8 * UInt(position))) & 0xFF == 0 || (target >> (8 * UInt(position))) & 0xFF == 0xFF
      {
        position += 1
      }
      if position == 6 { position = 0 }
      let byte = Int32((target >> (8 * UInt(position))) & 0xFF)
      let base = UnsafeRawPointer(memory)
      var offset = 0
      while offset < length {
        guard let match = LibC.memchr(base + offset, byte, length - offset) else { return }
        let found = UnsafeRawPointer(match) - base
        let word = found - position
        if word & 7 == 0, word >= 0, base.load(fromByteOffset: word, as: UInt.self) == target {
          let address = start + UInt(word)
          if ProcessMemory.word(at: address) == target { hits.append(Hit(address: address, target: index)) }
        }
        offset = found + 1
      }
    }
  }
#endif
