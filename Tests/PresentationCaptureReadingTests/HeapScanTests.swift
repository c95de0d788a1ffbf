import Dispatch
import Foundation
import PresentationCaptureReading
import Testing

/// The suites that scan the heap, one test at a time: each scan keeps one of Swift concurrency's
/// threads (as many as the machine's cores) busy for a while, and more than one at once would
/// starve the rest of the test run (under ThreadSanitizer, a second and more each on a busy machine).
@Suite(.serialized) enum HeapScanSuites {}

extension HeapScanSuites {
  /// The heap scan for holders nobody tracked (issue 21, item 5; issue 26, item 3): a holder is
  /// named only when a word equal to the object's address is a proved strong reference of a live
  /// object (or a global, a task, a queued block), and climbing stops where nothing names the chain.
  @Suite struct HeapScanTests {
    @Test func isAvailableExactlyWhenTheAllocatorCanBeRead() {
      let survivor = Survivor()
      #expect((CaptureScanner.scanHeap(forHoldersOf: survivor) != nil) == CaptureScanner.heapScanIsAvailable)
      #if os(Linux)
        #expect(CaptureScanner.heapScanIsAvailable, "Linux: glibc's allocator, or a sanitizer's through its interface")
      #endif
    }

    final class Survivor: Sendable {}

    final class Cache: @unchecked Sendable {
      // @unchecked Sendable: test objects, mutated on one thread only.
      var label = "cache"
      var entry: Survivor?
      var items: [Survivor] = []
      weak var weakEntry: Survivor?
      var state = State()
      var phase = Phase.idle
      var slots: [Int: Slot] = [:]
      var rows: [Int: Row] = [:]
    }

    struct State {
      var count = 0
      var current: Survivor?
    }

    enum Phase {
      case idle
      case failed(String)
      case loading(Survivor)
    }

    /// Either case's payload lies at the same offset: only the case the value holds says whether
    /// the word there is a reference or a number.
    enum Slot {
      case number(UInt)
      case handler(() -> Void)
      case object(Survivor)
    }

    struct Row {
      var title: String
      var model: Survivor?
    }

    /// What a scan says holds `survivor`, or `nil` where the scan cannot run.
    static func scan(_ survivor: Survivor) throws -> CaptureScanner.HeapScanReport? {
      guard CaptureScanner.heapScanIsAvailable else { return nil }
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      return report
    }

    /// Where a `Cache` nobody tracked keeps the survivor, and what the scan must say.
    struct Placement: Sendable, CustomTestStringConvertible {
      let testDescription: String
      let holders: [String]
      /// Words equal to the address the scan must have seen and rejected.
      var rejected = 0
      let place: @Sendable (Cache, Survivor) -> Void
    }

    static let placements = [
      Placement(testDescription: "a stored property", holders: ["an untracked Cache.entry"]) { $0.entry = $1 },
      Placement(testDescription: "an array element", holders: ["an untracked Cache.items[2]"]) {
        $0.items = [Survivor(), Survivor(), $1]
      },
      // Past 128 KiB into an allocation in one of glibc's arenas, an element is not named (its header
      // is not looked for that far back); an allocation `malloc` mapped on its own is, at any size.
      Placement(testDescription: "an element 80 KB into an array", holders: ["an untracked Cache.items[10000]"]) {
        $0.items = (0..<10_000).map { _ in Survivor() } + [$1]
      },
      Placement(testDescription: "a struct's property in an object", holders: ["an untracked Cache.state.current"]) {
        $0.state.current = $1
      },
      // An enum's payload: the case the value holds now, from the enum's own `getEnumTag`.
      Placement(testDescription: "an enum property's payload", holders: ["an untracked Cache.phase"]) {
        $0.phase = .loading($1)
      },
      Placement(testDescription: "a struct in a dictionary's value", holders: ["an untracked Cache.rows[7]"]) {
        $0.rows = [3: Row(title: "three", model: nil), 7: Row(title: "seven", model: $1)]
      },
      Placement(testDescription: "an enum in a dictionary's value", holders: ["an untracked Cache.slots[2]"]) {
        $0.slots = [1: .number(1), 2: .object($1)]
      },
      Placement(
        testDescription: "a closure in an enum in a dictionary's value",
        holders: ["an untracked Cache.slots[4]: closure #1 in static HeapScanSuites.HeapScanTests.handler(keeping:)"]
      ) { $0.slots = [4: .handler(handler(keeping: $1))] },
      // The same bits as a number's payload: not a reference.
      Placement(testDescription: "an enum's number payload", holders: [], rejected: 2) {
        let bits = UInt(bitPattern: Unmanaged.passUnretained($1).toOpaque())
        $0.phase = .idle
        $0.slots = [5: .number(bits)]
        $0.rows = [:]
        $0.state.count = Int(bitPattern: bits)
      },
      Placement(testDescription: "a weak property only", holders: []) { $0.weakEntry = $1 },
      // An array's storage past its count keeps the bits of the elements it removed (unused
      // capacity): a false holder of the prototype's. Only elements below the count are holders.
      Placement(testDescription: "an array's unused capacity", holders: [], rejected: 1) {
        $0.items = [Survivor(), Survivor(), $1]
        $0.items.removeLast()  // the storage keeps the survivor's address past its count
      },
    ]

    static func handler(keeping survivor: Survivor) -> () -> Void {
      { withExtendedLifetime(survivor) {} }
    }

    @Test(arguments: placements)
    func namesWhatHoldsIt(_ placement: Placement) throws {
      let survivor = Survivor()
      let cache = Cache()
      placement.place(cache, survivor)
      guard let report = try Self.scan(survivor) else { return }
      #expect(report.holders == placement.holders, "\(report)")
      #expect(report.rejectedHits >= placement.rejected, "the stale word is there and was rejected: \(report)")
      #expect(report.scannedBytes > 0)
      withExtendedLifetime(cache) {}
    }

    /// A holder that has had a weak reference keeps its counts in a side table: the entry's second
    /// word is padding, its third the counts. The scan read the padding, and named nothing whenever
    /// it happened to have bit 32 ("deiniting") set; here it is set on purpose.
    @Test func namesAHolderWithAWeakReferenceWhateverTheSideTablesPadding() throws {
      let survivor = Survivor()
      let cache = Cache()
      cache.entry = survivor
      weak let weakCache = cache
      let object = UnsafeRawPointer(Unmanaged.passUnretained(cache).toOpaque())
      let counts = object.load(fromByteOffset: 8, as: UInt.self)
      try #require(counts >> 63 == 1, "a weak reference moved the counts to a side table")
      let padding = try #require(UnsafeMutableRawPointer(bitPattern: (counts & ((1 << 62) - 1)) << 3)) + 8
      let saved = padding.load(as: UInt.self)
      padding.storeBytes(of: saved | 1 << 32, as: UInt.self)
      defer { padding.storeBytes(of: saved, as: UInt.self) }
      guard let report = try Self.scan(survivor) else { return }
      #expect(report.holders == ["an untracked Cache.entry"], "\(report)")
      withExtendedLifetime((cache, weakCache)) {}
    }

    final class Shelf: @unchecked Sendable {
      // @unchecked Sendable: test objects, mutated on one thread only.
      var cache: Cache?
    }

    /// A cache held by an untracked shelf and by an array on this thread's stack (a chain nothing
    /// names above the array): the report says the longer chain only, not also its end.
    @Test func namesTheLongerOfTwoChainsThatEndAlike() throws {
      let survivor = Survivor()
      let cache = Cache()
      cache.entry = survivor
      let shelf = Shelf()
      shelf.cache = cache
      let onTheStack = [cache, Cache()]
      guard let report = try Self.scan(survivor) else { return }
      #expect(report.holders == ["an untracked Shelf.cache → Cache.entry"], "\(report)")
      withExtendedLifetime((shelf, onTheStack)) {}
    }

    @Test func namesNothingOnceTheHolderIsGone() throws {
      let survivor = Survivor()
      do {
        let cache = Cache()
        cache.entry = survivor
        withExtendedLifetime(cache) {}
      }
      guard let report = try Self.scan(survivor) else { return }
      #expect(report.holders.isEmpty, "a freed object's stale word is not a holder: \(report)")
    }
  }

  /// Words that equal the object's address but are not a strong reference are never a holder:
  /// found by running the harness's own suite with the scan on (a tracker's `ObjectIdentifier` was
  /// named), and in the prototype's failures (a stale stack frame, a concurrent scan's own copy).
  @Suite struct HeapScanFalseHolderTests {
    final class Survivor: Sendable {}

    final class Bookkeeping: @unchecked Sendable {
      // @unchecked Sendable: test objects, mutated on one thread only.
      var identifier: ObjectIdentifier?
      var address: UnsafeRawPointer?
      var number: UInt = 0
      var identifiers: [ObjectIdentifier] = []
      var numbers: [UInt] = []
    }

    final class Cache: @unchecked Sendable {
      // @unchecked Sendable: test objects, mutated on one thread only.
      var entry: Survivor?
    }

    @Test func namesNoIdentifierPointerOrIntegerHoldingTheSameBits() throws {
      let survivor = Survivor()
      let bookkeeping = Bookkeeping()
      bookkeeping.identifier = ObjectIdentifier(survivor)
      bookkeeping.address = UnsafeRawPointer(Unmanaged.passUnretained(survivor).toOpaque())
      bookkeeping.number = UInt(bitPattern: bookkeeping.address)
      bookkeeping.identifiers = [ObjectIdentifier(survivor)]
      bookkeeping.numbers = [bookkeeping.number]
      guard CaptureScanner.heapScanIsAvailable else { return }
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.holders.isEmpty, "\(report)")
      #expect(report.hits >= 5, "the five words are there and were rejected")
      withExtendedLifetime(bookkeeping) {}
    }

    /// The words of a live `Cache` (its metadata, its reference counts, its `entry`) copied into
    /// `memory` (16-aligned, with 8 bytes free before it and 32 after), between a glibc chunk header
    /// that says "32 bytes, in use, in a thread's arena" and the next chunk's: the original then
    /// freed. The copy looks like a live object holding the survivor in every word the scan checks,
    /// but the allocator never handed it out.
    private static func copyOfACache(holding survivor: Survivor, into memory: UnsafeMutableRawPointer) {
      let cache = Cache()
      cache.entry = survivor
      withExtendedLifetime(cache) {
        let object = UnsafeRawPointer(Unmanaged.passUnretained(cache).toOpaque())
        memory.copyMemory(from: object, byteCount: 3 * MemoryLayout<UInt>.size)
      }
      (memory - 8).storeBytes(of: UInt(0x20 | 0x4 | 0x1), as: UInt.self)
      (memory + 24).storeBytes(of: UInt(0x20 | 0x4 | 0x1), as: UInt.self)
    }

    /// A stale frame on a thread's stack (as a stack-promoted object leaves behind): the prototype
    /// named such frames. Stacks are not read with glibc's allocator, and are not its allocations
    /// under a sanitizer.
    @Test func namesNoCopyOfAnObjectOnAThreadsStack() throws {
      let survivor = Survivor()
      // Unretained: the thread's closure must not hold the survivor itself (the scan would name it).
      let unretained = Unmanaged.passUnretained(survivor)
      let copied = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { buffer in
          Self.copyOfACache(holding: unretained.takeUnretainedValue(), into: buffer.baseAddress! + 16)
          copied.signal()
          done.wait()
        }
      }
      thread.start()
      copied.wait()
      defer { done.signal() }
      guard CaptureScanner.heapScanIsAvailable else { return }
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.holders.isEmpty, "\(report)")
    }

    /// Memory that is not the allocator's, such as a concurrent scan's own copy of the heap (the
    /// prototype's copy was `malloc`'d, and its copies of objects were named): never a holder.
    @Test func namesNoCopyOfAnObjectOutsideTheAllocatorsMemory() throws {
      let survivor = Survivor()
      let page = 4096
      let memory = try #require(
        mmap(nil, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0).flatMap {
          $0 == MAP_FAILED ? nil : $0
        })
      defer { munmap(memory, page) }
      Self.copyOfACache(holding: survivor, into: memory + 16)
      guard CaptureScanner.heapScanIsAvailable else { return }
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.holders.isEmpty, "\(report)")
    }
  }

  /// Words arranged to look like an object are not an object: the scan hands the runtime no metadata
  /// it has not proved to be a class's (a forged metadata handed to the runtime could make it read
  /// anywhere, or name a holder that does not exist).
  @Suite struct HeapScanForgedObjectTests {
    final class Survivor: Sendable {}

    final class Cache: @unchecked Sendable {
      // @unchecked Sendable: test objects, mutated on one thread only.
      var entry: Survivor?
    }

    final class Box<Value>: @unchecked Sendable {
      // @unchecked Sendable: test objects, mutated on one thread only.
      var value: Value
      init(_ value: Value) { self.value = value }
    }

    /// A `malloc`'d block laid out as an object with one stored property (metadata word, live
    /// reference counts, the property) whose metadata word points at a `malloc`'d copy of the real
    /// object's metadata.
    struct Forgery {
      let object: UnsafeMutableRawPointer
      let metadata: UnsafeMutableRawPointer

      init(copying real: AnyObject) {
        let word = MemoryLayout<UInt>.size
        let realObject = UnsafeRawPointer(Unmanaged.passUnretained(real).toOpaque())
        let realMetadata = realObject.load(as: UnsafeRawPointer.self)
        // Class metadata: its size at byte 32 and its address point at byte 36; what follows the
        // address point (the field offsets included) is copied, and no more.
        let classSize = Int(realMetadata.load(fromByteOffset: 32, as: UInt32.self))
        let addressPoint = Int(realMetadata.load(fromByteOffset: 36, as: UInt32.self))
        let metadataSize = classSize - addressPoint
        metadata = UnsafeMutableRawPointer.allocate(byteCount: metadataSize, alignment: 16)
        metadata.copyMemory(from: realMetadata, byteCount: metadataSize)
        object = UnsafeMutableRawPointer.allocate(byteCount: 4 * word, alignment: 16)
        object.copyMemory(from: realObject, byteCount: 3 * word)
        object.storeBytes(of: UInt(bitPattern: metadata), as: UInt.self)
      }

      func deallocate() {
        object.deallocate()
        metadata.deallocate()
      }
    }

    /// A `malloc`'d block laid out as a `Cache` instance (metadata word, live reference counts, the
    /// survivor's address at `entry`'s offset) whose metadata word points at a `malloc`'d copy of
    /// `Cache`'s metadata: every word of the copy is right, its descriptor included, but it is not the
    /// metadata the binary holds. On the scan's first rules (a zero kind word and a class descriptor
    /// at byte 40) it was believed and named `Cache.entry`.
    @Test func namesNoObjectWhoseMetadataIsACopy() throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      let real = Cache()
      real.entry = survivor
      try Self.expectNoHolderOnceOnlyAForgery(of: real, holds: survivor) { real.entry = nil }
    }

    /// Forges a copy of `real` (metadata, counts and its one property, which holds `survivor`),
    /// runs `clear` so that only the forged object's word holds the survivor's address, and expects
    /// the scan to see that word and name nothing.
    static func expectNoHolderOnceOnlyAForgery(
      of real: AnyObject, holds survivor: Survivor, clear: () -> Void
    ) throws {
      let forged = Forgery(copying: real)
      defer { forged.deallocate() }
      clear()
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.holders.isEmpty, "\(report)")
      #expect(report.hits >= 1, "the forged word is there and was rejected")
      withExtendedLifetime(real) {}
    }

    final class Stranger: Sendable {}

    /// What a scan of `survivor`'s holders says once a `malloc`'d block laid out as a `Cache`
    /// instance (`Cache`'s own metadata, live reference counts) holds its address at `entry`: the
    /// words of a freed `Cache` left in memory that a new owner has not yet written over.
    static func holdersOnceAStaleCache(refersTo survivor: AnyObject) throws -> [String] {
      let word = MemoryLayout<UInt>.size
      let real = Cache()
      let stale = UnsafeMutableRawPointer.allocate(byteCount: 4 * word, alignment: 16)
      defer { stale.deallocate() }
      stale.copyMemory(from: UnsafeRawPointer(Unmanaged.passUnretained(real).toOpaque()), byteCount: 3 * word)
      stale.storeBytes(
        of: UInt(bitPattern: Unmanaged.passUnretained(survivor).toOpaque()), toByteOffset: 2 * word, as: UInt.self)
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.hits >= 1, "the stale word is there: \(report)")
      return withExtendedLifetime(real) { report.holders }
    }

    /// A property of a class type refers only to instances of that class or a subclass: the stale
    /// `Cache.entry` (a `Survivor?`) holding a `Stranger`'s address is not its holder. Seen once
    /// with the suites in parallel, before this rule: `an untracked Node.model` named for a stale
    /// `Node` in reused memory. The same stale block holding a `Survivor` is believed (nothing
    /// tells it from a live `Cache`), so it is the class check that rejects the stranger.
    @Test func namesNoPropertyOfAClassTypeHoldingAnObjectOfAnotherClass() throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      #expect(try Self.holdersOnceAStaleCache(refersTo: survivor) == ["an untracked Cache.entry"])
      let stranger = Stranger()
      #expect(try Self.holdersOnceAStaleCache(refersTo: stranger) == [])
    }

    class Animal: @unchecked Sendable {}
    final class Dog: Animal, @unchecked Sendable {}
    final class Kennel: @unchecked Sendable {
      // @unchecked Sendable: test objects, mutated on one thread only.
      var pet: Animal?
    }

    /// A property of a class type holding an instance of a subclass is its holder.
    @Test func namesAPropertyHoldingAnInstanceOfASubclass() throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let dog = Dog()
      let kennel = Kennel()
      kennel.pet = dog
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: dog))
      #expect(report.holders == ["an untracked Kennel.pet"], "\(report)")
      withExtendedLifetime(kennel) {}
    }

    /// An instance of a generic class is named once the runtime vouches for its metadata, made at
    /// run time in memory nothing else proves to be metadata: asked for `Box` with the argument the
    /// metadata holds (`Optional<Survivor>`, itself proved so), it answers with that very metadata.
    @Test func namesAnInstanceOfAGenericClass() throws {
      let survivor = Survivor()
      let box = Box<Survivor?>(survivor)
      guard CaptureScanner.heapScanIsAvailable else { return }
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.holders == ["an untracked Box<Optional<Survivor>>.value"], "\(report)")
      withExtendedLifetime(box) {}
    }

    /// A `malloc`'d copy of a generic class's metadata (its descriptor and its argument are the real
    /// ones) is not that class's metadata: the runtime, asked for `Box<Optional<Survivor>>`, answers
    /// with the real one, so the forged object is not named.
    @Test func namesNoObjectWhoseGenericMetadataIsACopy() throws {
      guard CaptureScanner.heapScanIsAvailable else { return }
      let survivor = Survivor()
      let real = Box<Survivor?>(survivor)
      try Self.expectNoHolderOnceOnlyAForgery(of: real, holds: survivor) { real.value = nil }
    }

    /// A forged generic class's metadata whose argument is forged struct metadata, its descriptor
    /// words in a file mapping (in an image, as far as the mappings say) that read as a generic
    /// struct's with one requirement on a pack: handed to the runtime, a descriptor that is not one
    /// can end the process. The scan hands the runtime only descriptors their image's symbol table
    /// names, so it names nothing and the process lives on (with the symbol check removed, this one
    /// dies of SIGSEGV in the runtime).
    @Test func handsTheRuntimeNoDescriptorItsImageDoesNotName() async {
      guard CaptureScanner.heapScanIsAvailable else { return }
      await #expect(processExitsWith: .success, "a scan handed the runtime a forged descriptor") {
        try Self.scanAForgeryWithAForgedDescriptor()
      }
    }

    static func scanAForgeryWithAForgedDescriptor() throws {
      let word = MemoryLayout<UInt>.size
      let survivor = Survivor()
      let real = Box<Survivor?>(survivor)
      let forged = Forgery(copying: real)
      defer { forged.deallocate() }
      real.value = nil
      // The descriptor: a file mapped into the process (file-backed, so "in an image").
      let page = try MappedFilePage()
      let descriptor = page.memory
      descriptor.storeBytes(of: UInt32(0x11 | 0x80), as: UInt32.self)  // a generic struct
      descriptor.storeBytes(of: UInt16(1), toByteOffset: 36, as: UInt16.self)  // 1 parameter
      descriptor.storeBytes(of: UInt16(1), toByteOffset: 38, as: UInt16.self)  // 1 requirement
      descriptor.storeBytes(of: UInt16(1), toByteOffset: 40, as: UInt16.self)  // 1 key argument
      descriptor.storeBytes(of: UInt8(0x80), toByteOffset: 44, as: UInt8.self)  // a type parameter
      descriptor.storeBytes(of: UInt32(0x20 | 0x80), toByteOffset: 48, as: UInt32.self)  // on a pack
      descriptor.storeBytes(of: Int32(64 - 52), toByteOffset: 52, as: Int32.self)  // its subject: "x"
      descriptor.storeBytes(of: Int32(72 - 56), toByteOffset: 56, as: Int32.self)
      descriptor.storeBytes(of: UInt8(ascii: "x"), toByteOffset: 64, as: UInt8.self)
      // The struct's metadata: its kind, the descriptor, its argument `Int`.
      let metadata = UnsafeMutableRawPointer.allocate(byteCount: 3 * word, alignment: 16)
      defer { metadata.deallocate() }
      metadata.storeBytes(of: UInt(0x200), as: UInt.self)
      metadata.storeBytes(of: UInt(bitPattern: descriptor), toByteOffset: word, as: UInt.self)
      metadata.storeBytes(of: unsafeBitCast(Int.self, to: UInt.self), toByteOffset: 2 * word, as: UInt.self)
      // The class metadata's argument (after its members: positive size less immediate members, in
      // words, from `Box`'s descriptor at byte 40) becomes the forged struct's.
      let boxDescriptor = forged.metadata.load(fromByteOffset: 40, as: UnsafeRawPointer.self)
      let positive = Int(boxDescriptor.load(fromByteOffset: 28, as: UInt32.self))
      let immediate = Int(boxDescriptor.load(fromByteOffset: 32, as: UInt32.self))
      forged.metadata.storeBytes(
        of: UInt(bitPattern: metadata), toByteOffset: (positive - immediate) * word, as: UInt.self)
      let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
      #expect(report.holders.isEmpty, "\(report)")
      #expect(report.hits >= 1, "the forged word is there and was rejected")
      withExtendedLifetime((real, page)) {}
    }
  }
}
