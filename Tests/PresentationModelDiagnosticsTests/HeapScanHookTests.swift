import PresentationModelDiagnostics
import Testing

/// The leak report's hook to the heap scan (`PRESENTATION_MODEL_HEAP_SCAN=1`): a survivor that
/// no tracked object and no observer explains is looked for in the whole heap, and its untracked
/// holder named. The scan is turned on here for this task only: setting the variable would change
/// the environment other tests read meanwhile.
@Suite(.serialized) struct HeapScanHookTests {
  final class Survivor: Sendable {}

  final class Cache: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var entry: Survivor?
  }

  @Test func theVariableTurnsTheScanOnWithOneAndNothingElse() {
    let name = UntrackedHolderFinder.environmentVariable
    #expect(name == "PRESENTATION_MODEL_HEAP_SCAN")
    #expect(UntrackedHolderFinder.isEnabled(in: [name: "1"]))
    for value in ["0", "", "true", "yes", " 1"] {
      #expect(!UntrackedHolderFinder.isEnabled(in: [name: value]), "\(value)")
    }
    #expect(!UntrackedHolderFinder.isEnabled(in: [:]))
  }

  @Test func aReportNamesAnUntrackedHolderWhenTheScanIsOn() {
    let survivor = Survivor()
    let cache = Cache()  // not tracked
    cache.entry = survivor
    let tracker = LeakTracker()
    tracker.track(survivor)
    let scanned = UntrackedHolderFinder.$enabledInThisTask.withValue(true) { tracker.checkForLeaks(timeout: .zero) }
    let plain = UntrackedHolderFinder.$enabledInThisTask.withValue(false) { tracker.checkForLeaks(timeout: .zero) }
    let scannedPaths = scanned.survivors.first?.retainingPaths ?? []
    if UntrackedHolderFinder.isAvailable {
      #expect(scannedPaths == ["an untracked Cache.entry (found by scanning the heap)"], "\(scanned)")
    } else {
      #expect(scannedPaths.isEmpty, "no scan where it cannot run: \(scanned)")
    }
    #expect(plain.survivors.first?.retainingPaths == [])
    #expect("\(plain)".contains("PRESENTATION_MODEL_HEAP_SCAN=1 looks for one in the whole heap"), "\(plain)")
    withExtendedLifetime(cache) {}
  }
}
