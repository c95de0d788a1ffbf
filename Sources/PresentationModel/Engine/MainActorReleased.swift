internal import Dispatch

/// A value that may hold main-actor state (a main-actor handler, a main-actor sequence's buffer,
/// what a main-actor center removed), that other threads may hold and release: its last release
/// happens on the main queue, whichever thread releases the box. The bridge's Foundation blocks
/// hold their main-actor handlers in one (Foundation releases a block on whichever thread removes
/// or last posts to it), and diagnostics copy main-actor handlers out in one.
//
// @unchecked Sendable: `value` is immutable; it is called only on the main actor (by the code that
// boxed it, which knows its isolation), read elsewhere only by diagnostics (which scan it and never
// call it), and released on the main queue only (see deinit).
final class MainActorReleased<Value>: MainActorReleasedValue, @unchecked Sendable {
  let value: Value

  package var anyValue: Any { value }

  init(_ value: Value) {
    self.value = value
  }

  /// Makes the last release of `value` happen on the main queue (nothing to do when already
  /// there): for the `deinit` of an object that holds what may hold main-actor state.
  static func release(_ value: Value) {
    _ = MainActorReleased(value)
  }

  deinit {
    guard !MainQueue.isCurrent else { return }
    // A second box, retained by the block, holds `value` until the block runs on the main queue,
    // where its own release is the last one.
    let carried = MainActorReleased(value)
    DispatchQueue.main.async { _ = carried }
  }
}

/// The value of a ``MainActorReleased`` box, whatever its type: what diagnostics scan.
package protocol MainActorReleasedValue: AnyObject {
  var anyValue: Any { get }
}
