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
