public import Testing

/// A Swift Testing trait that checks, when a test ends, that what it made is gone: the objects it
/// tracked, and every observer registration and pending-delete widget it made.
///
/// Add it to a test (or a suite, where it applies to every test inside). When the test body
/// returns (or throws), the trait waits up to its timeout, then records one issue for each thing
/// left behind, at the line that made it, naming what still holds it:
/// - an object tracked with ``trackForLeaks(_:fileID:filePath:line:column:)`` that is still alive
///   (at the `trackForLeaks` line);
/// - a registration made in the test, on any center, that is still live: its owner, its token or
///   its async sequence is still alive (at the `observe` line);
/// - a widget handed to a `PendingDelete` in the test whose fade did not finish, or that was
///   disposed and is still alive (at the `fadeOutAndDispose` line; a cancelled fade is not counted).
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
/// `.detectsLeaks(.trackedObjects)` checks the tracked objects only (a test that keeps
/// registrations on purpose, such as one that sets up an app-wide observer).
///
/// > Note: Each test, and each case of a parameterized test, gets its own scope in task-local
/// > values, so tests running in parallel never see each other's objects, registrations or widgets.
/// > Child tasks of the test inherit it (task groups, `async let`, `Task {}`); detached tasks,
/// > Dispatch blocks and threads do not: what they make is not checked (missed, never blamed on
/// > another test). A test that made nothing passes.
public struct LeakDetectionTrait: TestTrait, SuiteTrait, TestScoping {
  /// What the trait checks when a test ends. Each level checks what the ones before it do.
  public struct Level: Sendable, Hashable, Comparable, CustomStringConvertible {
    private let rank: Int
    public let description: String

    /// The objects the test tracked with ``trackForLeaks(_:fileID:filePath:line:column:)``, and
    /// nothing else.
    public static let trackedObjects = Level(rank: 0, description: "trackedObjects")
    /// The tracked objects, and every registration the test made on any center (typed,
    /// main-actor, the Foundation bridge, async sequences included) and every widget it handed to
    /// a `PendingDelete`: the default. Uses only this package's own bookkeeping, so it works the
    /// same on every platform.
    public static let observersAndWidgets = Level(rank: 1, description: "observersAndWidgets")
    /// All of the above, and every instance of the test process's own classes that the test
    /// allocated (in its task and the tasks that inherit its task-locals) and that is still alive
    /// when it ends: one issue per leak (an object, or a cycle, with what it holds), at the test,
    /// naming what holds it. Nothing is annotated.
    ///
    /// Which classes count: those declared in the modules linked into the test binary (the package
    /// under test's), never the toolchain's, Foundation's, Testing's, XCTest's or this package's;
    /// `modules:` narrows it, `ignoring:` leaves types out. An object a global or static refers to
    /// directly (a lazily made singleton) is not a leak; what it holds that the test made is.
    /// Objects made by `Task.detached`, Dispatch blocks and threads are not seen (missed, never
    /// blamed on another test).
    ///
    /// It hooks the Swift runtime's allocation entry point, at the first test that asks, on
    /// runtimes it recognises (Linux x86-64 with a toolchain it was checked against); elsewhere
    /// the test records one warning naming the reason and checks the other levels.
    public static let everyObject = Level(rank: 2, description: "everyObject")

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
  }

  /// What a test is expected to leave behind: a regression test of a known leak, or of a leak
  /// check.
  public struct Expectation: Sendable {
    /// The types whose leaks are expected; empty: any leak.
    let types: [any AnyObject.Type]

    /// At least one leak of any kind: each one found is recorded as a known issue (see
    /// `withKnownIssue`), and the test fails if none is found.
    public static var anyLeak: Expectation { Expectation(types: []) }

    /// At least one leak of each of `types`: a leaked object of one of them, a registration whose
    /// owner is one, or a widget of one. Those are recorded as known issues; any other leak fails
    /// the test as usual, and so does a type of which no leak was found.
    public static func leaks(of types: [any AnyObject.Type]) -> Expectation { Expectation(types: types) }
  }

  /// What is checked when a test ends.
  public let level: Level
  /// How long what the test made may take to go after the test body ends.
  public let timeout: Duration
  /// What the test is expected to leave behind; `nil`: nothing.
  public let expectation: Expectation?
  /// With ``Level/everyObject``: classes that do not count (each with every specialisation of it,
  /// when it is generic; its subclasses still count).
  public let ignoredTypes: [any AnyObject.Type]
  /// With ``Level/everyObject``: when not empty, only classes declared in these modules count
  /// (names as in `import`).
  public let modules: [String]

  /// Applied to a suite, the trait applies to each test in it.
  public var isRecursive: Bool { true }

  /// Creates the trait; prefer ``Testing/Trait/detectsLeaks`` or
  /// ``Testing/Trait/detectsLeaks(_:ignoring:modules:timeout:expecting:)``.
  public init(
    _ level: Level = .observersAndWidgets, ignoring ignoredTypes: [any AnyObject.Type] = [], modules: [String] = [],
    timeout: Duration = LeakTracker.defaultTimeout, expecting expectation: Expectation? = nil
  ) {
    self.level = level
    self.ignoredTypes = ignoredTypes
    self.modules = modules
    self.timeout = timeout
    self.expectation = expectation
  }

  /// Scopes each test case (never a whole suite) so every case has its own tracker and log.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs `function` with a fresh tracker and log in scope, then records an issue for each thing
  /// left behind. While it runs, an owner-bound registration whose handler captures its owner
  /// records an issue at its `observe` line.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A test under the trait twice (a suite's and its own) gets one scope, with the most specific
    // trait's settings: the test's own, which the testing library lists after the suite's.
    if Self.isInScope {
      try await function()
      return
    }
    let effective = test.traits.last { $0 is LeakDetectionTrait } as? LeakDetectionTrait ?? self
    try await Self.$isInScope.withValue(true) {
      try await effective.runInScope(of: test, function)
    }
  }

  /// Whether the current task already runs in the trait's scope.
  @TaskLocal private static var isInScope = false

  private func runInScope(of test: Test, _ function: @Sendable () async throws -> Void) async throws {
    let log = LeakScopeLog()
    let tracker = LeakTracker(log: log)
    let everyObject = Self.openEveryObjectScope(
      level, ignoring: ignoredTypes, modules: modules, at: test.sourceLocation)
    let bodyError: (any Error)?
    do {
      // Registrations made in the test whose handler captures its own owner fail the test at their
      // `observe` line at once, even if the center (and so the owner) is gone by the end.
      try await RegistrationDiagnostics.$reporter.withValue(FailureReporter.fail) {
        try await LeakScopeLog.withScope(log) {
          try await LeakScope.$tracker.withValue(tracker) {
            if let everyObject {
              try await everyObject.withTracking { try await function() }
            } else {
              try await function()
            }
          }
        }
      }
      bodyError = nil
    } catch {
      bodyError = error
    }
    let findings = await LeakFindings.collect(
      tracker: tracker, log: log, everyObject: everyObject, level: level, timeout: timeout, test: test.sourceLocation)
    findings.record(expecting: expectation)
    if let bodyError { throw bodyError }
  }

  /// The every-object scope of a test at ``Level/everyObject``; `nil` below it, or, with a warning
  /// at the test naming the reason, where the runtime cannot be hooked safely.
  static func openEveryObjectScope(
    _ level: Level, ignoring ignoredTypes: [any AnyObject.Type], modules: [String], at location: SourceLocation
  ) -> EveryObjectScope? {
    guard level >= .everyObject else {
      if !ignoredTypes.isEmpty || !modules.isEmpty {
        FailureReporter.fail(
          "detectsLeaks(.\(level), ignoring:, modules:): ignoring: and modules: choose the classes that "
            + ".everyObject counts, and this level is .\(level). Use .everyObject, or leave them out.",
          at: location)
      }
      return nil
    }
    do {
      return try EveryObjectScope(EveryObjectOptions(modules: modules, ignoring: ignoredTypes))
    } catch {
      FailureReporter.warn(
        "detectsLeaks(.everyObject) cannot track every object here, so this test checks its tracked objects, "
          + "observers and widgets only: \(error.reason)", at: location)
      return nil
    }
  }
}

extension Trait where Self == LeakDetectionTrait {
  /// Checks that every object the test tracked with ``trackForLeaks(_:fileID:filePath:line:column:)``
  /// deallocates, and that every registration and pending-delete widget the test made is gone
  /// (waiting up to one second for stragglers).
  public static var detectsLeaks: Self { LeakDetectionTrait() }

  /// Like ``detectsLeaks``, waiting up to `timeout` for what the test made to go.
  public static func detectsLeaks(timeout: Duration) -> Self { LeakDetectionTrait(timeout: timeout) }

  /// Checks what `level` says when the test ends, waiting up to `timeout`; with `expecting`, the
  /// leaks it names are expected (known issues) and the test fails if they are not found.
  /// `.detectsLeaks(.everyObject)` finds every object the test made and left alive, with nothing
  /// annotated:
  ///
  /// ```swift
  /// import PresentationModelTesting
  /// import Testing
  ///
  /// final class Thumbnail {}
  ///
  /// @Test(.detectsLeaks(.everyObject, ignoring: [Thumbnail.self]))
  /// func galleryReleasesEverything() {
  ///   _ = Thumbnail()
  /// }
  /// ```
  ///
  /// ```swift
  /// import PresentationModelTesting
  /// import Testing
  ///
  /// final class Session {
  ///   var onEnd: (() -> Void)?
  /// }
  ///
  /// @Test(.detectsLeaks(expecting: .leaks(of: [Session.self])))
  /// func theKnownSessionCycleIsStillThere() {
  ///   let session = Session()
  ///   trackForLeaks(session)
  ///   session.onEnd = { print(session) }  // the cycle this test documents
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - level: What is checked; each level checks what the ones before it do.
  ///   - ignoredTypes: With `.everyObject`, classes that do not count.
  ///   - modules: With `.everyObject`, when not empty, only classes declared in these modules count.
  ///   - timeout: How long what the test made may take to go after its body ends.
  ///   - expectation: What the test is expected to leave behind.
  public static func detectsLeaks(
    _ level: LeakDetectionTrait.Level = .observersAndWidgets, ignoring ignoredTypes: [any AnyObject.Type] = [],
    modules: [String] = [], timeout: Duration = LeakTracker.defaultTimeout,
    expecting expectation: LeakDetectionTrait.Expectation? = nil
  ) -> Self {
    LeakDetectionTrait(level, ignoring: ignoredTypes, modules: modules, timeout: timeout, expecting: expectation)
  }
}
