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
