import Foundation
import PresentationModelDiagnostics
import PresentationTestSupport

/// Where tests keep what a scope's body leaks on purpose: made outside every scope (it is a class of
/// a counted module, PresentationTestSupport).
typealias Keeper = LockedBox<[any AnyObject & Sendable]>

extension LockedBox where Value == [any AnyObject & Sendable] {
  func keep(_ object: any AnyObject & Sendable) {
    withLock { $0.append(object) }
  }
}

/// This test module: its classes count (it is linked into the test executable).
let testModule = "PresentationModelDiagnosticsTests"

extension EveryObjectFindings {
  /// The survivors' type names, in allocation order.
  var survivorNames: [String] { survivors.map { String(describing: $0.type) } }
}

/// Makes an object on the heap whatever the optimiser would do (not inlined, so it escapes).
@inline(never)
func made<T: AnyObject>(_ make: () -> T) -> T { make() }

/// Runs `body` on a thread of its own and waits for it without holding a thread of the cooperative
/// pool: heavy or blocking synchronous work on one would starve the other suites' tasks (the pool
/// has two threads on a two-core machine, and ThreadSanitizer slows such work tenfold).
func onAThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Whether a sanitizer's runtime is in the process: it turns a crash into its own report and exit
/// status, quarantines freed memory, and slows this work about tenfold.
let isSanitized =
  dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
  || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

/// How many times to repeat a heavy test: fewer under a sanitizer, where the suites run beside it
/// have time limits and the machine has two cores (CI runs the sanitizers for races and memory
/// errors; the full count runs in the plain `swift test`).
func repetitions(_ plain: Int, sanitized: Int) -> Int { isSanitized ? sanitized : plain }
