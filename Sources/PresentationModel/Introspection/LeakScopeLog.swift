package import Synchronization

/// What one test made that must be gone when it ends: the registrations made on any center, with
/// their tokens, and the widgets handed to a ``PendingDelete``, by the test's task and the tasks
/// that inherit its task-locals (child tasks, task groups, `async let`, `Task {}`; not
/// `Task.detached`, Dispatch or `Thread`, which are missed, never blamed on another test).
///
/// The leak harness (`PresentationModelDiagnostics`) puts a log in scope around a test
/// (`withScope`) and reads it when the test ends: a registration still live, a fade not finished or
/// a disposed widget still alive fails the test at its `observe` or `fadeOutAndDispose` line. A leak report also keeps to the log's
/// registrations when it copies handlers, so it never holds another test's.
///
/// The log holds everything weakly: a registration, a token and a widget go when nothing else holds
/// them, and the log reads that as ended. Nothing is recorded unless some log is in scope somewhere
/// in the process: until then, a registration pays one relaxed atomic load.
package final class LeakScopeLog: Sendable {
  /// The log of the test running the current task.
  @TaskLocal package static var current: LeakScopeLog?

  /// How many scopes are open in the process: `current` is read only while some are.
  package static let openScopes = Atomic<Int>(0)

  /// One registration made in the scope.
  package struct RegistrationRecord: Sendable {
    package weak let registration: Registration?
    /// The token `observe` returned (an async sequence keeps its own).
    package weak let token: ObserverToken?
    /// When it was recorded, among the scope's registrations.
    package let order: Int
  }

  package struct Records {
    package var registrations: [ObjectIdentifier: RegistrationRecord] = [:]
    var fades: [FadeRecord] = []
  }

  package let records = LockedState(Records())

  package init() {}

  /// The log of the scope the caller runs in, if any; a relaxed load and nothing else when no
  /// scope is open in the process.
  @inline(__always) package static var inScope: LeakScopeLog? {
    openScopes.load(ordering: .relaxed) == 0 ? nil : current
  }

  func record(_ token: ObserverToken) {
    let registration = token.registration
    records.withLock { records in
      records.registrations[ObjectIdentifier(registration)] = RegistrationRecord(
        registration: registration, token: token, order: records.registrations.count)
    }
  }
}
