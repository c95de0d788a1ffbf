internal import Foundation
internal import PresentationCaptureReading

/// Names a holder nobody tracked, by scanning the process's heap (`CaptureScanner.scanHeap`), for a
/// survivor that neither the walk from tracked objects nor the observer scan explained.
///
/// Off unless the environment sets `PRESENTATION_MODEL_HEAP_SCAN=1`: the scan reads the whole heap
/// (about 0.2 s per survivor in a debug test process of ~100 MB; more in a larger one), and it
/// runs for at most ``maximumSurvivors`` survivors of a report. Linux with glibc only.
package enum UntrackedHolderFinder {
  package static let environmentVariable = "PRESENTATION_MODEL_HEAP_SCAN"
  static let maximumSurvivors = 3

  /// Turns the scan on or off for reports made in this task, whatever the environment says: for
  /// tests, which must not change the process's environment while other tests read it.
  @TaskLocal package static var enabledInThisTask: Bool?

  static var isEnabled: Bool {
    enabledInThisTask ?? isEnabled(in: ProcessInfo.processInfo.environment)
  }

  /// Whether the scan can run in this process (Linux with glibc's allocator: not under a sanitizer).
  package static var isAvailable: Bool { CaptureScanner.heapScanIsAvailable }

  /// Whether `environment` turns the scan on: `PRESENTATION_MODEL_HEAP_SCAN=1`, nothing else.
  package static func isEnabled(in environment: [String: String]) -> Bool {
    environment[environmentVariable] == "1"
  }

  /// `an untracked Cache.entry (found by scanning the heap)`, for each validated holder.
  static func paths(to object: AnyObject) -> [String] {
    guard let report = CaptureScanner.scanHeap(forHoldersOf: object) else { return [] }
    return report.holders.map { "an untracked \($0) (found by scanning the heap)" }
  }
}
