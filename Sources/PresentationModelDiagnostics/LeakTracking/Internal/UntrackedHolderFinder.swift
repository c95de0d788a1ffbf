internal import Foundation
internal import PresentationCaptureReading

/// Names what holds a survivor when neither the walk from tracked objects nor the observer scan
/// explained it, by scanning the process's heap and globals (`CaptureScanner.scanHeap`): a global
/// or static variable (`the global Registry.shared, through Registry.listeners[0]`), a
/// `DispatchWorkItem`'s block, a pending `asyncAfter` block, a block queued on a suspended queue,
/// a Dispatch source's handler, a group's notify block, a task's operation, Foundation's
/// block observer, a closure kept in a `var` it captures, or an object nobody tracked (`an
/// untracked Cache.entry`). Each holder is one line; the caller lists them. Linux only (glibc's
/// allocator, AddressSanitizer's or ThreadSanitizer's); elsewhere it finds nothing and costs
/// nothing.
///
/// On by default, for failing reports only: it runs after the cheaper walks found nothing, for at
/// most ``maximumSurvivors`` survivors of a report, which share one read of the heap (the scan's
/// main cost; each step up a chain, at most seven, then searches the copy); none starts a step
/// after 10 s of the scanning thread's CPU time (not wall time: a loaded machine gets the same scan). Measured in this package's debug test run
/// (100 to 150 MB of heap, tests in parallel on 2 cores): a median of 0.3 s, at most 1.1 s, and 30
/// to 150 MB read per failing report; 60 to 180 ms for a 20 MB heap. `PRESENTATION_MODEL_HEAP_SCAN=0`
/// turns it off for a test run; under ThreadSanitizer it is off unless `PRESENTATION_MODEL_HEAP_SCAN=1`.
///
/// What stays unnamed, and why (`HeapScan` in `PresentationCaptureReading` has the full list): a
/// holder on a thread's stack or in thread-local storage (stacks are not read: a stale frame is
/// not a holder); an instance of a generic class whose metadata the runtime does not vouch for (one
/// with more than 4 parameters, or arguments such as tuples or functions); a set's storage or a
/// dictionary key; a value inside a `Mutex`,
/// an enum payload or a tuple; a task's local variables (its operation's captures are read); a
/// block queued on the main or a global queue; under ThreadSanitizer, any block Dispatch keeps.
package enum UntrackedHolderFinder {
  package static let environmentVariable = "PRESENTATION_MODEL_HEAP_SCAN"
  static let maximumSurvivors = 3

  /// Turns the scan on or off for reports made in this task, whatever the environment says: for
  /// tests, which must not change the process's environment while other tests read it.
  @TaskLocal package static var enabledInThisTask: Bool?

  /// Whether reports made in this task scan the heap: ``enabledInThisTask``, else the environment.
  package static var isEnabled: Bool {
    enabledInThisTask
      ?? isEnabled(
        in: ProcessInfo.processInfo.environment,
        underThreadSanitizer: CaptureScanner.heapScanAllocator == "ThreadSanitizer")
  }

  /// Whether the scan can run in this process (Linux; glibc's allocator or a sanitizer's).
  package static var isAvailable: Bool { CaptureScanner.heapScanIsAvailable }

  /// Whether `environment` leaves the scan on: anything but `PRESENTATION_MODEL_HEAP_SCAN=0`;
  /// under ThreadSanitizer, only `PRESENTATION_MODEL_HEAP_SCAN=1` (there every scan costs several
  /// times as much, a second and more on a busy machine, and a test run with many failing reports
  /// kept Swift concurrency's few threads scanning for most of a minute).
  package static func isEnabled(in environment: [String: String], underThreadSanitizer: Bool = false) -> Bool {
    switch environment[environmentVariable] {
    case "0": false
    case "1": true
    default: !underThreadSanitizer
    }
  }

  /// One line per holder found: `the global Registry.shared, through Registry.listeners[0]`.
  package static func paths(to object: AnyObject) -> [String] {
    paths(to: [object])[0]
  }

  /// The lines for each of `objects`, in order, from one read of the heap (which is most of a
  /// scan's cost): a report's unexplained survivors share it.
  package static func paths(to objects: [AnyObject]) -> [[String]] {
    scan(objects).map(\.holders)
  }

  /// For each of `objects`, in order, its holders' lines and the global or static variable whose
  /// own storage holds it, if one does; from one read of the heap.
  static func scan(_ objects: [AnyObject]) -> [(holders: [String], directGlobal: String?)] {
    guard !objects.isEmpty, let reports = CaptureScanner.scanHeap(forHoldersOf: objects) else {
      return objects.map { _ in ([], nil) }
    }
    return reports.map { ($0.holders, $0.directGlobal) }
  }
}
