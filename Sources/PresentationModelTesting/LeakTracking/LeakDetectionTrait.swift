public import Testing

/// A Swift Testing trait that checks, when a test ends, that everything it tracked deallocated.
///
/// Add it to a test (or a suite, where it applies to every test inside) and track objects with
/// ``trackForLeaks(_:fileID:filePath:line:column:)``. After the test body returns (or throws), the
/// trait waits up to its timeout for the tracked objects to deallocate and records one issue per
/// survivor, at the line where it was tracked, naming what still holds it.
///
/// ```swift
/// import PresentationModelTesting
/// import Testing
///
/// final class Editor {
///   var onSave: (() -> Void)?
/// }
///
/// @Test(.detectsLeaks) func editorIsReleased() {
///   let editor = Editor()
///   trackForLeaks(editor)
///   editor.onSave = { [weak editor] in _ = editor }
/// }
/// ```
///
/// > Note: Each test, and each case of a parameterized test, gets its own tracker in a task-local
/// > value, so tests running in parallel never see each other's objects. Child tasks of the test
/// > inherit it; detached tasks do not. A test that tracks nothing passes.
public struct LeakDetectionTrait: TestTrait, SuiteTrait, TestScoping {
  /// How long survivors may take to deallocate after the test body ends.
  public let timeout: Duration

  /// Applied to a suite, the trait applies to each test in it.
  public var isRecursive: Bool { true }

  /// Creates the trait; prefer ``Testing/Trait/detectsLeaks`` or
  /// ``Testing/Trait/detectsLeaks(timeout:)``.
  public init(timeout: Duration = LeakTracker.defaultTimeout) {
    self.timeout = timeout
  }

  /// Scopes each test case (never a whole suite) so every case has its own tracker.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs `function` with a fresh tracker in scope, then records an issue for each survivor. While
  /// it runs, an owner-bound registration whose handler captures its owner records an issue at its
  /// `observe` line.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let tracker = LeakTracker()
    // The test's registrations: the report reads captured objects' stored properties only for
    // these, never for objects of tests running in parallel.
    let registrations = RegistrationDiagnostics.RegistrationLog()
    let bodyError: (any Error)?
    do {
      // Registrations made in the test whose handler captures its own owner fail the test at their
      // `observe` line at once, even if the center (and so the owner) is gone by the end.
      try await RegistrationDiagnostics.$reporter.withValue(FailureReporter.fail) {
        try await RegistrationDiagnostics.$log.withValue(registrations) {
          try await LeakScope.$tracker.withValue(tracker) { try await function() }
        }
      }
      bodyError = nil
    } catch {
      bodyError = error
    }
    let report = await RegistrationDiagnostics.$log.withValue(registrations) {
      await tracker.checkForLeaks(timeout: timeout)
    }
    for survivor in report.survivors {
      FailureReporter.fail(SurvivorWording.leakFailure(survivor, waited: report.waited), at: survivor.site)
    }
    if let bodyError { throw bodyError }
  }
}

extension Trait where Self == LeakDetectionTrait {
  /// Checks that every object the test tracked with ``trackForLeaks(_:fileID:filePath:line:column:)``
  /// deallocates (waiting up to one second for stragglers).
  public static var detectsLeaks: Self { LeakDetectionTrait() }

  /// Like ``detectsLeaks``, waiting up to `timeout` for tracked objects to deallocate.
  public static func detectsLeaks(timeout: Duration) -> Self { LeakDetectionTrait(timeout: timeout) }
}
