import PresentationModelDiagnostics
import Testing

/// The leak report's hook to the heap scan: a survivor that no tracked object and no observer
/// explains is looked for in the whole heap, and what holds it named; on by default,
/// `PRESENTATION_MODEL_HEAP_SCAN=0` turns it off. The scan is turned on or off here for this task
/// only: setting the variable would change the environment other tests read meanwhile.
@Suite(.serialized) struct HeapScanHookTests {
  final class Survivor: Sendable {}

  final class Cache: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var entry: Survivor?
  }

  final class Shelf: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var item: Survivor?
  }

  @Test func theVariableTurnsTheScanOffWithZeroAndNothingElse() {
    let name = UntrackedHolderFinder.environmentVariable
    #expect(name == "PRESENTATION_MODEL_HEAP_SCAN")
    #expect(!UntrackedHolderFinder.isEnabled(in: [name: "0"]))
    for value in ["1", "", "true", "no", " 0"] {
      #expect(UntrackedHolderFinder.isEnabled(in: [name: value]), "\(value)")
    }
    #expect(UntrackedHolderFinder.isEnabled(in: [:]))
  }

  @Test func underThreadSanitizerTheVariableTurnsTheScanOnWithOneAndNothingElse() {
    let name = UntrackedHolderFinder.environmentVariable
    #expect(UntrackedHolderFinder.isEnabled(in: [name: "1"], underThreadSanitizer: true))
    for value in ["0", "", "true", " 1"] {
      #expect(!UntrackedHolderFinder.isEnabled(in: [name: value], underThreadSanitizer: true), "\(value)")
    }
    #expect(!UntrackedHolderFinder.isEnabled(in: [:], underThreadSanitizer: true))
  }

  @Test func aReportNamesAnUntrackedHolderUnlessTheScanIsOff() {
    let survivor = Survivor()
    let cache = Cache()  // not tracked
    cache.entry = survivor
    let tracker = LeakTracker()
    tracker.track(survivor)
    let scanned = UntrackedHolderFinder.$enabledInThisTask.withValue(true) { tracker.checkForLeaks(timeout: .zero) }
    let plain = UntrackedHolderFinder.$enabledInThisTask.withValue(false) { tracker.checkForLeaks(timeout: .zero) }
    let scannedPaths = scanned.survivors.first?.retainingPaths ?? []
    if UntrackedHolderFinder.isAvailable {
      #expect(scannedPaths == ["an untracked Cache.entry"], "\(scanned)")
    } else {
      #expect(scannedPaths.isEmpty, "no scan where it cannot run: \(scanned)")
    }
    #expect(plain.survivors.first?.retainingPaths == [])
    #expect("\(plain)".contains("the heap scan found none it can name"), "\(plain)")
    withExtendedLifetime(cache) {}
  }

  /// A report's unexplained survivors share one read of the heap: each is named, in order.
  @Test func survivorsOfOneReportAreScannedTogether() {
    let first = Survivor()
    let second = Survivor()
    let cache = Cache()
    let shelf = Shelf()
    cache.entry = first
    shelf.item = second
    let paths = UntrackedHolderFinder.paths(to: [first, second])
    #expect(paths.count == 2)
    if UntrackedHolderFinder.isAvailable {
      #expect(paths == [["an untracked Cache.entry"], ["an untracked Shelf.item"]])
    }
    withExtendedLifetime((cache, shelf)) {}
  }
}
