internal import PresentationCaptureReading

/// What the benchmark (`Benchmarks/`, a package of its own that depends on this one by path)
/// measures beyond the public API: an every-object scope, which the public API opens only inside a
/// test's leak trait, and the heap scan's own figures (bytes read, hits), which a leak report does
/// not print. A package can use only another package's products, and these are `package` names.
///
/// Not API: `@_spi(Benchmarks)`, left out of the symbol graphs and so of the API record in `API/`;
/// it may change in any release. Each member forwards to the internal name it wraps and adds no
/// work of its own inside what the benchmark counts.
@_spi(Benchmarks)
public enum BenchmarkAccess {
  /// Why every-object tracking cannot run in this process, or `nil` once its hook is installed
  /// (reading it installs the hook): `EveryObjectTracking.unavailableReason`.
  public static var everyObjectUnavailableReason: String? { EveryObjectTracking.unavailableReason }

  /// An open every-object scope (`EveryObjectScope`, with the default options).
  public final class EveryObjectRegion: Sendable {
    private let scope: EveryObjectScope

    /// Opens a scope; `nil` when tracking is unavailable or too many scopes are open.
    public init?() {
      guard let scope = try? EveryObjectScope() else { return nil }
      self.scope = scope
    }

    /// Runs `body` with the scope bound to its thread: what it allocates is recorded.
    public func withTracking<R>(_ body: () throws -> R) rethrows -> R {
      try scope.withTracking(body)
    }

    /// How many allocations the scope has recorded so far.
    public var trackedCount: Int { scope.statistics.tracked }

    /// Closes the scope and releases what it found.
    public func finish() {
      _ = scope.finish()
    }
  }

  /// What one heap scan for the holders of an object read and found (`CaptureScanner.HeapScanReport`).
  public struct HeapScanFigures: Sendable {
    /// One line per holder found: `an untracked Cache.entry`.
    public let holders: [String]
    /// Bytes of memory read, in all passes.
    public let scannedBytes: Int
    /// Words equal to the address of the object or of one of its holders, and how many of them
    /// were not a proved holder.
    public let hits: Int
    public let rejectedHits: Int
  }

  /// Scans the process's heap and globals for what holds `target` (`CaptureScanner.scanHeap`);
  /// `nil` where the platform does not allow it.
  public static func scanHeap(forHoldersOf target: AnyObject) -> HeapScanFigures? {
    CaptureScanner.scanHeap(forHoldersOf: target).map {
      HeapScanFigures(
        holders: $0.holders, scannedBytes: $0.scannedBytes, hits: $0.hits, rejectedHits: $0.rejectedHits)
    }
  }
}
