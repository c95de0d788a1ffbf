import PresentationCaptureReading
import Testing

/// The heap scan for holders nobody tracked (issue 21, item 5): a holder is named only when a word
/// equal to the object's address is a validated strong stored property of a live object.
/// Under a sanitizer (whose allocator replaces glibc's) the scan is unavailable, and says so.
@Suite(.serialized) struct HeapScanTests {
  @Test func isAvailableExactlyWhenGlibcsAllocatorServesTheProcess() {
    let survivor = Survivor()
    #expect((CaptureScanner.scanHeap(forHoldersOf: survivor) != nil) == CaptureScanner.heapScanIsAvailable)
  }

  final class Survivor: Sendable {}

  final class Cache: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var label = "cache"
    var entry: Survivor?
    var items: [Survivor] = []
    weak var weakEntry: Survivor?
  }

  @Test func namesAnUntrackedObjectsStoredProperty() throws {
    let survivor = Survivor()
    let cache = Cache()
    cache.entry = survivor
    guard CaptureScanner.heapScanIsAvailable else { return }
    let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
    #expect(report.holders == ["Cache.entry"])
    #expect(report.scannedBytes > 0)
    withExtendedLifetime(cache) {}
  }

  @Test func namesAnUntrackedObjectsArrayElement() throws {
    let survivor = Survivor()
    let cache = Cache()
    cache.items = [Survivor(), Survivor(), survivor]
    guard CaptureScanner.heapScanIsAvailable else { return }
    let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
    #expect(report.holders == ["Cache.items[2]"])
    withExtendedLifetime(cache) {}
  }

  @Test func namesNothingWhenOnlyAWeakPropertyAndLocalsHoldIt() throws {
    let survivor = Survivor()
    let cache = Cache()
    cache.weakEntry = survivor
    guard CaptureScanner.heapScanIsAvailable else { return }
    let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
    #expect(report.holders.isEmpty, "\(report)")
    withExtendedLifetime(cache) {}
  }

  @Test func namesNothingOnceTheHolderIsGone() throws {
    let survivor = Survivor()
    do {
      let cache = Cache()
      cache.entry = survivor
      withExtendedLifetime(cache) {}
    }
    guard CaptureScanner.heapScanIsAvailable else { return }
    let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
    #expect(report.holders.isEmpty, "a freed object's stale word is not a holder: \(report)")
  }
}

/// A word that equals the object's address but is not a strong reference is never a holder: found
/// by running the harness's own suite with the scan on (a tracker's `ObjectIdentifier` was named).
@Suite(.serialized) struct HeapScanFalseHolderTests {
  final class Survivor: Sendable {}

  final class Bookkeeping: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var identifier: ObjectIdentifier?
    var address: UnsafeRawPointer?
    var number: UInt = 0
  }

  @Test func namesNoIdentifierPointerOrIntegerHoldingTheSameBits() throws {
    let survivor = Survivor()
    let bookkeeping = Bookkeeping()
    bookkeeping.identifier = ObjectIdentifier(survivor)
    bookkeeping.address = UnsafeRawPointer(Unmanaged.passUnretained(survivor).toOpaque())
    bookkeeping.number = UInt(bitPattern: bookkeeping.address)
    guard CaptureScanner.heapScanIsAvailable else { return }
    let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
    #expect(report.holders.isEmpty, "\(report)")
    #expect(report.hits >= 3, "the three words are there and were rejected")
    withExtendedLifetime(bookkeeping) {}
  }
}

/// Words arranged to look like an object are not an object: the scan hands the runtime no metadata
/// it has not proved to be a class's (a forged metadata handed to the runtime could make it read
/// anywhere, or name a holder that does not exist).
@Suite(.serialized) struct HeapScanForgedObjectTests {
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
    let word = MemoryLayout<UInt>.size
    let realObject = UnsafeRawPointer(Unmanaged.passUnretained(real).toOpaque())
    let realMetadata = realObject.load(as: UnsafeRawPointer.self)
    // Class metadata: its size at byte 32 and its address point at byte 36; what follows the
    // address point (the field offsets included) is copied, and no more.
    let classSize = Int(realMetadata.load(fromByteOffset: 32, as: UInt32.self))
    let addressPoint = Int(realMetadata.load(fromByteOffset: 36, as: UInt32.self))
    let metadataSize = classSize - addressPoint
    let forgedMetadata = UnsafeMutableRawPointer.allocate(byteCount: metadataSize, alignment: 16)
    forgedMetadata.copyMemory(from: realMetadata, byteCount: metadataSize)
    let forgedObject = UnsafeMutableRawPointer.allocate(byteCount: 4 * word, alignment: 16)
    forgedObject.copyMemory(from: realObject, byteCount: 3 * word)  // metadata, counts, `entry`
    forgedObject.storeBytes(of: UInt(bitPattern: forgedMetadata), as: UInt.self)
    defer {
      forgedObject.deallocate()
      forgedMetadata.deallocate()
    }
    real.entry = nil  // only the forged object's word holds the address now
    let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
    #expect(report.holders.isEmpty, "\(report)")
    #expect(report.hits >= 1, "the forged word is there and was rejected")
    withExtendedLifetime(real) {}
  }

  /// An instance of a generic class is not named: its metadata is made at run time, in memory that
  /// nothing proves to be metadata (the limit of the rule above, in LeakTesting.md).
  @Test func namesNoInstanceOfAGenericClass() throws {
    let survivor = Survivor()
    let box = Box<Survivor?>(survivor)
    guard CaptureScanner.heapScanIsAvailable else { return }
    let report = try #require(CaptureScanner.scanHeap(forHoldersOf: survivor))
    #expect(report.holders.isEmpty, "\(report)")
    #expect(report.rejectedHits >= 1)
    withExtendedLifetime(box) {}
  }
}
