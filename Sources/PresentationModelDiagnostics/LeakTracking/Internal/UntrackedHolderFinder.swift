internal import Foundation
internal import PresentationCaptureReading

/// Names a holder nobody tracked, by scanning the process's heap (`CaptureScanner.scanHeap`), for a
/// survivor that neither the walk from tracked objects nor the observer scan explained.
///
/// Off unless the environment sets `PRESENTATION_MODEL_HEAP_SCAN=1`: the scan reads the whole heap
/// (about 0.2 s per survivor in a debug test process of ~100 MB; more in a larger one), and it
/// runs for at most ``maximumSurvivors`` survivors of a report. Linux with glibc only.
enum UntrackedHolderFinder {
  static let environmentVariable = "PRESENTATION_MODEL_HEAP_SCAN"
  static let maximumSurvivors = 3

  static var isEnabled: Bool {
    ProcessInfo.processInfo.environment[environmentVariable] == "1"
  }

  /// `an untracked Cache.entry (found by scanning the heap)`, for each validated holder.
  static func paths(to object: AnyObject) -> [String] {
    guard let report = CaptureScanner.scanHeap(forHoldersOf: object) else { return [] }
    return report.holders.map { "an untracked \($0) (found by scanning the heap)" }
  }
}
