@testable package import PresentationModel

// What the tests read of the core that its public API does not show, through its test hooks
// (`Sources/PresentationModel/Introspection/TestHooks.swift`) and its internals: compiled for the
// tests only.

extension TestHooks {
  /// Runs `body` and returns what it returned with how much of each work it counted (on this task:
  /// the centers and bags it uses synchronously).
  package static func countingWork<Result>(_ body: () throws -> Result) rethrows -> (Result, [Work: Int]) {
    let counted = LockedBox<[Work: Int]>([:])
    let count: @Sendable (Work, Int) -> Void = { work, amount in counted.withLock { $0[work, default: 0] += amount } }
    let result = try $workCounter.withValue(count, operation: body)
    return (result, counted.value)
  }
}

extension TestHooks {
  /// Whether the storage of every engine checks its invariants after every change
  /// (`PRESENTATION_INTERNAL_CHECKS`). SwiftPM builds every target of the package with the same
  /// conditions (`-Xswiftc -D…` included), so this target's are the core's.
  package static var internalChecksAreCompiledIn: Bool {
    #if PRESENTATION_INTERNAL_CHECKS
      true
    #else
      false
    #endif
  }
}

#if DEBUG
  extension TestHooks {
    /// Whether the calling thread is inside an engine's exclusive section: under a center's lock, or
    /// in a change of a main-actor center's storage. The tests read it from ``OwnerLoadProbe`` to
    /// show that no owner or sender is loaded there.
    package static var isInExclusiveSection: Bool { RecursionGuard.current.exclusiveSections > 0 }
  }
#endif

extension OwnerLoadProbe {
  /// Whether the centers call `onLoad` in this build (debug builds, as this target's).
  package static var isCompiledIn: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }
}

extension Engine {
  /// How many entries the storage holds, those of ended registrations not yet removed included: an
  /// entry holds its handler until it is removed.
  fileprivate var storedEntryCount: Int {
    exclusion.withExclusiveAccess(to: self) { channels.all.reduce(0) { $0 + $1.channel.entries.count } }
  }
}

extension MainActorNotificationCenter {
  /// How many entries the center stores, including those of ended registrations not yet removed.
  /// Tests use it to show that a registration ended on another thread leaves the storage once the
  /// main queue has run.
  package var storedEntryCount: Int { engine.storedEntryCount }
}

extension FoundationNotificationBridge {
  /// How many entries the bridge stores, including those of ended registrations not yet removed.
  package var storedEntryCount: Int { engine.storedEntryCount }
}

extension ConversionFailures {
  /// How many times a failed conversion to `type` was reported (0 or 1; always 0 in release builds).
  package static func reportCount<N>(for type: N.Type) -> Int {
    #if DEBUG
      printed.withLock { $0.contains(ObjectIdentifier(N.self)) ? 1 : 0 }
    #else
      0
    #endif
  }
}
