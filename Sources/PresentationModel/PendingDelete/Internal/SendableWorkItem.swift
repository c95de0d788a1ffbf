import Dispatch

/// A `DispatchWorkItem` that may cross into `@Sendable` closures.
///
/// `@unchecked Sendable` is safe: the wrapped item is immutable here, and libdispatch makes
/// `cancel()`, `perform()` and enqueueing a work item safe from any thread (the Linux overlay just
/// does not declare `DispatchWorkItem` `Sendable`).
struct SendableWorkItem: @unchecked Sendable {
  let workItem: DispatchWorkItem

  init(_ workItem: DispatchWorkItem) {
    self.workItem = workItem
  }
}
