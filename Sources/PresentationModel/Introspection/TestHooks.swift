// The hooks the core offers its tests, in one place: what they count and probe. Compiled into debug
// builds only (the tests' builds): release builds keep no counter and call no hook. What the tests
// read through them is in their support target (`Tests/Support/TestHooks+Reading.swift`).

/// The work counted behind the operations that are amortised O(1), for the cost tests, and whether
/// the calling thread is inside an engine's exclusive section, for the tests of the lock rule.
@usableFromInline
package enum TestHooks {
  /// What a cost test counts.
  package enum Work: Sendable {
    /// Entries a channel visited while rebuilding its storage.
    case entriesVisited
    /// Tokens an ``ObserverBag`` visited while inserting and dropping ended ones.
    case tokensVisited
  }

  /// Counts `amount` of `work` into the counter of the current task, if it has one.
  @inline(__always)
  static func count(_ work: Work, _ amount: Int) {
    #if DEBUG
      workCounter?(work, amount)
    #endif
  }

  #if DEBUG
    /// Receives the work counted by the current task (see `countingWork` in the tests' support).
    @TaskLocal package static var workCounter: (@Sendable (Work, Int) -> Void)?

    /// Counts the calling thread into an engine's exclusive section for `body` (under a center's
    /// lock, or in a change of a main-actor center's storage), so the tests can show that no owner
    /// or sender is loaded there (`isInExclusiveSection` in the tests' support). Counted per thread,
    /// beside the posts `RecursionGuard` counts: cheap enough for every section of a debug build,
    /// sanitizers included, where a task-local value allocated each time.
    @usableFromInline
    static func inExclusiveSection<Result>(_ body: () throws -> Result) rethrows -> Result {
      let thread = RecursionGuard.current
      thread.exclusiveSections += 1
      defer { thread.exclusiveSections -= 1 }
      return try body()
    }
  #endif
}

/// A test-only hook into the moments a center loads an owner or a sender to check it is alive.
///
/// A weak load makes a strong reference. If the object's last outside reference goes away while
/// the center holds that one, releasing it runs the object's `deinit` on the center's thread, and
/// that `deinit` may call back into the center. The regression tests install a probe that drops the
/// test's last reference at exactly that moment, so the `deinit` runs wherever the center's own
/// reference is released: it must never be inside an engine's exclusive section.
///
/// Compiled into debug builds only; release builds call nothing.
@usableFromInline
package enum OwnerLoadProbe {
  #if DEBUG
    /// Called with each owner or sender the center has just loaded strongly, while it holds it.
    @usableFromInline @TaskLocal package static var onLoad: (@Sendable (AnyObject) -> Void)?
  #endif

  /// Reports a load to the installed probe, if any.
  @inlinable @inline(__always)
  static func loaded(_ object: AnyObject) {
    #if DEBUG
      onLoad?(object)
    #endif
  }
}
