import Foundation
import PresentationAllocationTracking

/// Records every instance of the process's own classes that its body allocates, and at
/// `finish()` gives back those still alive: leak detection with nothing annotated.
///
/// ```swift
/// let scope = try EveryObjectScope()
/// try await scope.withTracking { try await body() }
/// let findings = scope.finish()  // findings.survivors: what the body made and left alive
/// ```
///
/// What is recorded: an allocation made by the Swift runtime's `swift_allocObject` of an instance
/// of a class that counts (see `EveryObjectOptions`), by code running in the body's task or in a
/// task that inherits its task-locals: child tasks, task groups, `async let`, `Task {}` (also one
/// that outlives the body: it is recorded until `finish()`), and synchronous code they call.
///
/// Guarantees:
/// - **Scopes never blame each other.** An allocation is recorded by the one scope whose token the
///   allocating task carries (the innermost, when scopes nest; the outer one does not see it).
///   Parallel scopes on other tasks and threads are not affected.
/// - **No false survivor from a reused address.** Each record pins the object's memory with one
///   unowned reference until the record goes, so no other object can take its address; strong
///   counts, `isKnownUniquelyReferenced` and deinit timing are unchanged. A survivor is an object
///   `swift_tryRetain` still retains at `finish()`.
/// - **Memory stays bounded.** Records of objects that have deinitialised are swept inside the hook
///   (no user code runs), so a body that makes and frees 1,000,000 objects does not hold their
///   memory.
///
/// Blind spots (missed, never blamed on this scope):
/// - `Task.detached`, Dispatch queues and `Thread` do not inherit task-locals: what they allocate
///   is not recorded.
/// - Objects the optimiser keeps on the stack (a release build's non-escaping objects) never reach
///   the allocator; they cannot outlive the body anyway.
/// - Instances allocated by other entry points: Objective-C classes (Apple platforms, not
///   supported yet), Foundation's bridged objects, the runtime's own (tasks, boxes, closure
///   contexts, array and string storage, which are not classes of the process's modules).
/// - Classes declared in a dynamic library or plug-in (not the main executable).
///
/// The scope is `Sendable`: begin it, bind it, finish it from any task; `finish()` may be called
/// once (a second call returns no findings). A scope that is never finished releases its records
/// when it is deinitialised.
package final class EveryObjectScope: Sendable {
  private let token: UInt64

  /// Opens a scope. Nothing is recorded until `withTracking(_:)` binds it.
  /// - Throws: `EveryObjectUnavailable` when tracking is not available in this process
  ///   (`EveryObjectTracking/unavailableReason`), or when more than 1,024 scopes are open.
  /// - Precondition: every ignored type is a Swift class; no module name is empty.
  package init(_ options: EveryObjectOptions = EveryObjectOptions()) throws(EveryObjectUnavailable) {
    if let reason = EveryObjectTracking.unavailableReason { throw EveryObjectUnavailable(reason: reason) }
    let descriptors = options.ignoredTypes.map { type in
      guard let descriptor = pat_class_descriptor(unsafeBitCast(type, to: UnsafeRawPointer.self)) else {
        preconditionFailure("EveryObjectOptions(ignoring:): \(type) is not a Swift class")
      }
      return descriptor
    }
    for module in options.modules where module.isEmpty {
      preconditionFailure("EveryObjectOptions(modules:): a module name is empty")
    }
    var failure = pat_failure()
    let token = options.modules.withCStrings { names in
      descriptors.withUnsafeBufferPointer { ignored in
        var cOptions = pat_scope_options(
          module_names: names.baseAddress, module_count: names.count, ignored_descriptors: ignored.baseAddress,
          ignored_count: ignored.count, probe: 0)
        return pat_scope_begin(&cOptions, &failure)
      }
    }
    guard token != 0 else { throw EveryObjectUnavailable(reason: failure.sentence) }
    self.token = token
  }

  deinit {
    var findings = pat_scope_end(token)
    // Survivors come back retained: balance them (no lock is held here).
    for index in 0..<findings.survivor_count {
      Unmanaged<AnyObject>.fromOpaque(findings.survivors![index].object).release()
    }
    pat_findings_free(&findings)
  }

  /// Runs `body` with this scope bound to its task (or, without one, its thread): what it and the
  /// tasks that inherit its task-locals allocate is recorded.
  package func withTracking<R>(_ body: () throws -> R) rethrows -> R {
    try EveryObjectTaskLocal.$token.withValue(token, operation: body)
  }

  /// Runs `body` with this scope bound to its task: what it and the tasks that inherit its
  /// task-locals allocate is recorded.
  package func withTracking<R>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
  ) async rethrows -> R {
    try await EveryObjectTaskLocal.$token.withValue(token, operation: body, isolation: isolation)
  }

  /// What the scope holds now (read under its lock, so it may be called while tracking goes on):
  /// to wait for survivors to go before `finish()`, poll `EveryObjectStatistics/live`.
  package var statistics: EveryObjectStatistics { EveryObjectStatistics(pat_scope_statistics_of(token)) }

  /// Closes the scope (later allocations are not recorded) and returns the objects still alive, in
  /// allocation order, as strong references: the caller releases them by dropping the findings,
  /// outside any lock. Every other record is released.
  package func finish() -> EveryObjectFindings {
    var findings = pat_scope_end(token)
    defer { pat_findings_free(&findings) }
    let survivors = (0..<findings.survivor_count).map { index in
      let survivor = findings.survivors![index]
      return EveryObjectSurvivor(
        object: Unmanaged<AnyObject>.fromOpaque(survivor.object).takeRetainedValue(),
        allocationOrder: Int(survivor.order), frame: UInt(survivor.frame), thread: UInt(survivor.thread))
    }
    return EveryObjectFindings(
      survivors: survivors, trackedCount: Int(findings.tracked), untrackedCount: Int(findings.dropped))
  }
}

extension Array where Element == String {
  /// Calls `body` with the strings as C strings, valid for its duration.
  fileprivate func withCStrings<R>(_ body: (UnsafeBufferPointer<UnsafePointer<CChar>>) -> R) -> R {
    let copies = map { strdup($0)! }
    defer {
      for copy in copies { free(copy) }
    }
    return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer(body)
  }
}
