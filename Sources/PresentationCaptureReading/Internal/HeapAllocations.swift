#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// One live block of the allocator: where its usable bytes start and how many there are.
  struct Allocation: Equatable {
    let start: UInt
    let size: UInt
    func contains(_ address: UInt) -> Bool { start <= address && address - start < size }
  }

  /// The memory the heap scan reads, and how it finds the allocation that holds an address.
  ///
  /// - With glibc's `malloc`, only memory that is proved to be the allocator's is read: the main
  ///   arena (`[heap]`), the other arenas' heaps (anonymous mappings aligned to 64 MiB whose
  ///   `heap_info` header gives their own size), and chunks `malloc` mapped on their own (a chunk
  ///   header with `IS_MMAPPED` at a page boundary of an anonymous mapping, which the kernel may
  ///   have merged with its neighbours). Thread stacks, TLS and other
  ///   anonymous mappings are not read: a stale frame there is not a holder. An allocation is found
  ///   by its chunk header: the size word before it (in use, not mapped on its own, in the right
  ///   arena kind) covers the address, and the next chunk's header marks it in use; the caller then
  ///   checks that the allocation's first words are what it expects (class metadata, a block's isa),
  ///   which a freed chunk's are not (`free` overwrites them with its list links).
  /// - Under AddressSanitizer or ThreadSanitizer, whose allocators replace `malloc`, the
  ///   sanitizer's own interface gives exact bounds (`__sanitizer_get_allocated_begin` and
  ///   `__sanitizer_get_allocated_size`, which answer only for live allocations); the anonymous
  ///   mappings read are those of 4 GiB or less that are not thread stacks nor the shadow memory
  ///   (AddressSanitizer's by its fixed range; any sanitizer's by lying next to a mapping of
  ///   terabytes).
  enum HeapAllocator: Sendable {
    case glibc
    /// The addresses of `__sanitizer_get_allocated_begin` and `__sanitizer_get_allocated_size`,
    /// and whether the sanitizer is AddressSanitizer (whose shadow memory is not read).
    case sanitizer(begin: UInt, size: UInt, isAddressSanitizer: Bool)

    /// This process's allocator, or `nil` when the scan cannot read it (musl's, for one).
    static let current: HeapAllocator? = {
      let process = dlopen(nil, RTLD_NOW)
      defer { if let process { dlclose(process) } }
      let begin = UInt(bitPattern: dlsym(process, "__sanitizer_get_allocated_begin"))
      let size = UInt(bitPattern: dlsym(process, "__sanitizer_get_allocated_size"))
      let isAddressSanitizer = dlsym(process, "__asan_init") != nil
      if begin != 0, size != 0 {
        return .sanitizer(begin: begin, size: size, isAddressSanitizer: isAddressSanitizer)
      }
      // A sanitizer without the interface: its chunks are unknown.
      if isAddressSanitizer || dlsym(process, "__tsan_init") != nil { return nil }
      return dlsym(process, "gnu_get_libc_version") != nil ? .glibc : nil
    }()

    /// A mapping larger than this is never read: no allocator region is, and the sanitizers'
    /// shadow memory (terabytes, mostly unpopulated) is.
    static let largestRegion: UInt = 4 << 30
    /// The size of a glibc arena heap and the alignment of its start (`HEAP_MAX_SIZE` on 64-bit).
    private static let arenaHeapSize: UInt = 64 << 20

    /// A mapping that holds allocations, and what kind of glibc memory it is.
    struct Region {
      enum Kind {
        /// The main arena, grown with `brk`.
        case mainArena
        /// Another arena's heap: chunks carry the `NON_MAIN_ARENA` bit.
        case arenaHeap
        /// Chunks mapped one by one (large allocations).
        case mappedChunks
        /// Anything a sanitizer's allocator may own: allocations are looked up through its API.
        case sanitizer
      }
      let start: UInt
      let end: UInt
      let kind: Kind
      func contains(_ address: UInt) -> Bool { start <= address && address < end }
    }

    /// The regions to read, from `map`, skipping `excluded` (the scan's own buffer) and the
    /// writable segments of loaded images (read separately, as globals).
    func heapRegions(in map: MemoryMap, images: [LoadedImage], excluding excluded: Range<UInt>) -> [Region] {
      var regions: [Region] = []
      var shadowRuns: Set<Int> = []
      if case .sanitizer = self { shadowRuns = Self.shadowRuns(in: map) }
      for (index, region) in map.regions.enumerated() {
        guard region.isReadable, region.isWritable, region.size <= Self.largestRegion else { continue }
        guard !region.contains(excluded.lowerBound) else { continue }
        if images.contains(where: { image in image.writableSegments.contains { $0.contains(region.start) } }) {
          continue
        }
        switch self {
        case .glibc:
          if region.path == "[heap]" {
            regions.append(Region(start: region.start, end: region.end, kind: .mainArena))
          } else if region.isAnonymous {
            regions += Self.glibcRegions(in: region, isThreadStack: Self.isThreadStack(index, map))
          }
        case .sanitizer(_, _, let isAddressSanitizer):
          guard region.isAnonymous, !(isAddressSanitizer && Self.isAddressSanitizerShadow(region)) else { continue }
          guard !Self.isThreadStack(index, map) else { continue }
          // The sanitizer's own memory holds no allocation: its shadow (a mapping of terabytes,
          // and the parts it has populated, mapped next to it: hundreds of megabytes under
          // ThreadSanitizer) is not read, nor its other mappings (stack depots, metadata). Its
          // allocator's small allocations lie in mappings it cut out of a reserved space (next to
          // an inaccessible mapping of a gigabyte or more); each large one has a mapping of its own,
          // which holds that allocation a page in.
          guard !shadowRuns.contains(index),
            Self.liesInAReservation(index, map) || hasLargeAllocation(at: region)
          else { continue }
          regions.append(Region(start: region.start, end: region.end, kind: .sanitizer))
        }
      }
      return regions
    }

    /// The indices of the read-write anonymous mappings that lie side by side with one larger
    /// than ``largestRegion`` (through others like them): a sanitizer's shadow and the parts of it
    /// populated so far. Never computed with glibc's allocator (nothing maps terabytes there).
    private static func shadowRuns(in map: MemoryMap) -> Set<Int> {
      var runs: Set<Int> = []
      var run: [Int] = []
      var runIsShadow = false
      for (index, region) in map.regions.enumerated() {
        let isCandidate = region.isAnonymous && region.isWritable
        if !isCandidate || run.last.map({ map.regions[$0].end != region.start }) ?? false {
          if runIsShadow { runs.formUnion(run) }
          run = []
          runIsShadow = false
        }
        guard isCandidate else { continue }
        run.append(index)
        if region.size > largestRegion { runIsShadow = true }
      }
      if runIsShadow { runs.formUnion(run) }
      return runs
    }

    /// Whether the mapping at `index` lies next to an inaccessible mapping of 1 GiB or more (a
    /// reserved address space that an allocator maps from, piece by piece).
    private static func liesInAReservation(_ index: Int, _ map: MemoryMap) -> Bool {
      let region = map.regions[index]
      return [index - 1, index + 1].contains { neighbour in
        guard map.regions.indices.contains(neighbour) else { return false }
        let other = map.regions[neighbour]
        return !other.isReadable && other.size >= 1 << 30 && (other.end == region.start || other.start == region.end)
      }
    }

    /// Whether the sanitizer's allocator has a live allocation a page or two into `region` (a large
    /// allocation: a page of header, then the user's memory).
    private func hasLargeAllocation(at region: MemoryRegion) -> Bool {
      guard case .sanitizer(let beginEntry, _, _) = self else { return false }
      typealias Begin = @convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?
      let begin = unsafeBitCast(UnsafeRawPointer(bitPattern: beginEntry)!, to: Begin.self)
      return [4096 + 16, 8192 + 16].contains { offset in
        offset < region.size && begin(UnsafeRawPointer(bitPattern: region.start + offset)) != nil
      }
    }

    /// AddressSanitizer's shadow memory on 64-bit Linux (its low shadow, a 256 MiB mapping from
    /// `0x7fff7000`, its gap and its high shadow, up to `0x10007fff8000`): never the heap.
    private static func isAddressSanitizerShadow(_ region: MemoryRegion) -> Bool {
      region.start < 0x1000_7FFF_8000 && region.end > 0x7FFF_7000
    }

    /// The glibc memory in an anonymous mapping: chunks mapped on their own, from its start, or
    /// arena heaps at the 64 MiB-aligned addresses in it (the kernel merges adjacent anonymous
    /// mappings with the same permissions, so a heap need not start its mapping).
    private static func glibcRegions(in region: MemoryRegion, isThreadStack: Bool) -> [Region] {
      var found: [Region] = []
      var start = (region.start + arenaHeapSize - 1) / arenaHeapSize * arenaHeapSize
      while start < region.end {
        if let size = arenaHeapSize(at: start, before: region.end) {
          found.append(Region(start: start, end: min(region.end, start + size), kind: .arenaHeap))
        }
        start += arenaHeapSize
      }
      // Chunks mapped on their own, at page boundaries outside the arena heaps (and stacks), each
      // its own region.
      guard region.size <= 1 << 28, !isThreadStack else { return found }
      var page = region.start
      while page < region.end {
        if let heap = found.first(where: { $0.contains(page) }) {
          page = heap.end
          continue
        }
        if let chunk = mappedChunk(at: page, in: region) {
          found.append(Region(start: page, end: chunk.start + chunk.size, kind: .mappedChunks))
          page = chunk.start + chunk.size
        } else {
          page += 4096
        }
      }
      return found
    }

    /// A thread's stack: an anonymous mapping right above its guard page (never read: a stale
    /// frame is not a holder).
    private static func isThreadStack(_ index: Int, _ map: MemoryMap) -> Bool {
      guard index > 0 else { return false }
      let below = map.regions[index - 1]
      return below.end == map.regions[index].start && !below.isReadable && below.size <= 64 << 10
    }

    /// The read-write size of the arena heap at `start`, if its `heap_info` says it is one: its
    /// arena, the previous heap, its size, its mprotected size. The first heap of an arena holds the
    /// arena itself right after that header (32 or 48 bytes, by glibc version); a later heap
    /// follows a previous one (also 64 MiB-aligned). Its size may have grown since the mappings were
    /// read, but never past 64 MiB.
    private static func arenaHeapSize(at start: UInt, before end: UInt) -> UInt? {
      guard
        let arena = ProcessMemory.word(at: start), let previous = ProcessMemory.word(at: start &+ 8),
        let size = ProcessMemory.word(at: start &+ 16), let protectedSize = ProcessMemory.word(at: start &+ 24),
        size > 0, size <= protectedSize, protectedSize <= arenaHeapSize,
        (previous == 0 && (arena == start + 32 || arena == start + 48))
          || (previous != 0 && previous % arenaHeapSize == 0)
      else { return nil }
      return protectedSize
    }

    /// The chunk `malloc` mapped on its own at `start`: `prev_size` 0, then a size with
    /// `IS_MMAPPED` that fits the mapping. Its usable bytes follow the 16-byte header.
    private static func mappedChunk(at start: UInt, in region: MemoryRegion) -> Allocation? {
      var header = (UInt(0), UInt(0))
      let read = withUnsafeMutableBytes(of: &header) { ProcessMemory.read(start, into: $0.baseAddress!, count: 16) }
      let (previousSize, sizeWord) = header
      guard read == 16, previousSize == 0, sizeWord & 0x2 != 0 else { return nil }
      let size = sizeWord & ~7
      guard size >= 4096, size % 4096 == 0, size <= region.end - start else { return nil }
      return Allocation(start: start + 16, size: size - 16)
    }

    /// The live allocations that may hold `address`, nearest first. With a sanitizer, the one
    /// its allocator names (exact). With glibc, every chunk whose header, read backwards from
    /// `address` (up to `reach` bytes), is consistent with holding it: the caller keeps the first
    /// whose contents it recognises.
    func allocations(holding address: UInt, in region: Region, reach: UInt = 4096) -> [Allocation] {
      switch self {
      case .sanitizer(let beginEntry, let sizeEntry, _):
        typealias Begin = @convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?
        typealias Size = @convention(c) (UnsafeRawPointer?) -> Int
        let begin = unsafeBitCast(UnsafeRawPointer(bitPattern: beginEntry)!, to: Begin.self)
        let size = unsafeBitCast(UnsafeRawPointer(bitPattern: sizeEntry)!, to: Size.self)
        guard let start = begin(UnsafeRawPointer(bitPattern: address)) else { return [] }
        let allocation = Allocation(start: UInt(bitPattern: start), size: UInt(max(0, size(start))))
        return allocation.contains(address) ? [allocation] : []
      case .glibc:
        switch region.kind {
        case .mappedChunks:
          // The region is the chunk.
          let chunk = Allocation(start: region.start + 16, size: region.end - region.start - 16)
          return chunk.contains(address) ? [chunk] : []
        case .mainArena, .arenaHeap:
          return Self.arenaChunks(holding: address, in: region, reach: reach)
        case .sanitizer:
          return []
        }
      }
    }

    /// Chunks of an arena whose header is consistent with holding `address` (see the type's
    /// comment), nearest first. The usable bytes of a chunk of size `n` at user address `S` are
    /// `S ..< S + n - 8` (the next chunk's first word is usable while this one is in use).
    private static func arenaChunks(holding address: UInt, in region: Region, reach: UInt) -> [Allocation] {
      let word = UInt(MemoryLayout<UInt>.size)
      let low = max(region.start + 2 * word, address >= reach ? (address - reach) & ~15 : 0)
      let high = address & ~15
      guard high >= low else { return [] }
      // One read of the window (its size words) instead of a read per candidate.
      let count = Int((high - low) / word) + 2
      var words = [UInt](repeating: 0, count: count)
      let read = words.withUnsafeMutableBytes { ProcessMemory.read(low - word, into: $0.baseAddress!, count: $0.count) }
      guard read == count * Int(word) else { return [] }
      var found: [Allocation] = []
      var start = high
      while start >= low {
        defer { start -= 16 }
        let sizeWord = words[Int((start - word - (low - word)) / word)]
        let size = sizeWord & ~7
        let isMapped = sizeWord & 0x2 != 0
        let isOtherArena = sizeWord & 0x4 != 0
        guard
          !isMapped, isOtherArena == (region.kind == .arenaHeap), size >= 32, size % 16 == 0,
          size <= region.end - start + 2 * word, address + word <= start + size - word
        else { continue }
        // The next chunk's header: in-use bit set for this one, a plausible size of its own.
        guard let next = ProcessMemory.word(at: start &- word &+ size), next & 0x1 != 0, (next & ~7) % 16 == 0 else {
          continue
        }
        found.append(Allocation(start: start, size: size - word))
        if found.count >= 4 { break }
      }
      return found
    }
  }
#endif
