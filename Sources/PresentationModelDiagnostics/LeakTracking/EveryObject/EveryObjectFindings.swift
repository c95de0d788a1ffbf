import PresentationAllocationTracking

/// Which classes an `EveryObjectScope` counts.
///
/// The process's own classes count: those whose nominal type descriptor lies in the main
/// executable (a test binary links the package under test's modules into it), except the
/// toolchain's (`Swift`, `_Concurrency`, `Foundation`, `Dispatch`, `Runtime` and their kin, when
/// linked statically), the test frameworks' (`Testing`, `XCTest`) and this package's
/// (`PresentationModel`, `PresentationModelDiagnostics`, `PresentationModelTesting`,
/// `PresentationCaptureReading`). A generic class counts for the module that declares it, whatever
/// its arguments; actors are classes and count; closure contexts and boxes are not classes.
package struct EveryObjectOptions: Sendable {
  /// When not empty, only classes declared in these modules count (names as in `import`).
  package var modules: [String]
  /// Classes not to count, each with every specialisation of it when it is generic (its
  /// subclasses still count).
  package var ignoredTypes: [AnyObject.Type]

  package init(modules: [String] = [], ignoring ignoredTypes: [AnyObject.Type] = []) {
    self.modules = modules
    self.ignoredTypes = ignoredTypes
  }
}

/// Why every-object tracking cannot be used here: one sentence.
package struct EveryObjectUnavailable: Error, CustomStringConvertible {
  package let reason: String

  package var description: String { reason }
}

/// One object an `EveryObjectScope` recorded that was still alive at its end.
package struct EveryObjectSurvivor {
  /// The object, retained.
  package let object: AnyObject
  /// 1 for the scope's first recorded allocation, 2 for the next, and so on.
  package let allocationOrder: Int
  /// The address of the allocating frame (lower is deeper in its thread's stack) and the thread,
  /// to tell what an object made while it was being made from what came later (see
  /// ``EveryObjectLeak/partsMadeWhileMaking(_:among:)``).
  package let frame: UInt
  package let thread: UInt

  /// Its dynamic type.
  package var type: AnyObject.Type { Swift.type(of: object) }
}

/// What an `EveryObjectScope` found at its end.
package struct EveryObjectFindings {
  /// The recorded objects still alive, in allocation order.
  package let survivors: [EveryObjectSurvivor]
  /// The allocations the scope recorded.
  package let trackedCount: Int
  /// Allocations the scope could not record for lack of memory (0 but in a starved process): when
  /// not 0, a clean result proves less.
  package let untrackedCount: Int
}

/// A scope's records at one moment.
package struct EveryObjectStatistics: Sendable, Equatable {
  /// Recorded objects alive now.
  package let live: Int
  /// Records held: alive objects, and dead ones not swept yet (whose memory they still hold).
  package let held: Int
  /// Allocations recorded so far.
  package let tracked: Int
  /// Records of dead objects released so far.
  package let swept: Int

  init(_ counts: pat_scope_statistics) {
    live = Int(counts.live)
    held = Int(counts.held)
    tracked = Int(counts.tracked)
    swept = Int(counts.swept)
  }
}
