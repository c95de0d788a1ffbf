import PresentationModelTesting
import Synchronization
import Testing

/// `.detectsLeaks(.everyObject)`: every object of the test process's own classes that a test made
/// and left alive fails it, with nothing annotated: one issue per leak (an object, or a cycle, with
/// what it holds), at the test. Each leaking scenario runs the trait's scope inside `withKnownIssue`;
/// each twin runs under the real trait. (The mechanism's own tests, attribution under parallel
/// tests and address reuse among them, are in PresentationModelDiagnosticsTests/EveryObject.)
@Suite(.everyObjectRuns) struct EveryObjectTraitTests {
  final class Document {
    var onSave: (() -> Void)?
    var rows: [Row] = []
  }

  final class Row {}

  final class Person {
    var apartment: Apartment?
  }

  final class Apartment {
    var tenant: Person?
  }

  final class Ignored {
    var again: Ignored?
  }

  private static func runInTraitScope(
    ignoring: [any AnyObject.Type] = [], modules: [String] = [], expecting: LeakDetectionTrait.Expectation? = nil,
    _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    let test = try #require(Test.current)
    try await LeakDetectionTrait(
      .everyObject, ignoring: ignoring, modules: modules, timeout: .milliseconds(50), expecting: expecting
    ).provideScope(for: test, testCase: Test.Case.current, performing: body)
  }

  private static func message(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
  }

  /// Where the trait records an every-object leak: at the test itself.
  private static func isAtThisTest(_ issue: Issue) -> Bool {
    issue.sourceLocation?.fileName == "EveryObjectTraitTests.swift"
  }

  @Test("Fails on purpose: an object nobody tracked that the test left alive is reported, with what it holds")
  func anUntrackedLeakIsReportedWithWhatItHolds() async throws {
    try await withKnownIssue {
      try await Self.runInTraitScope {
        let document = Document()
        document.rows = [Row(), Row()]
        document.onSave = { _ = document }  // the cycle: no [weak document]
      }
    } matching: { issue in
      let message = Self.message(of: issue)
      return Self.isAtThisTest(issue)
        && message.contains(
          "Leaked PresentationModelTestingTests.EveryObjectTraitTests.Document, made in this test and still alive ")
        && message.contains("held by:\n- Document.onSave (a closure that captures it)")
        && message.contains(
          "It holds 2 more objects the test made: PresentationModelTestingTests.EveryObjectTraitTests.Row (×2).")
    }
  }

  @Test("Fails on purpose: a cycle is one leak, naming its members")
  func aCycleIsOneLeak() async throws {
    let issues = Mutex(0)
    try await withKnownIssue {
      try await Self.runInTraitScope {
        let person = Person()
        let apartment = Apartment()
        person.apartment = apartment
        apartment.tenant = person
      }
    } matching: { issue in
      issues.withLock { $0 += 1 }
      let message = Self.message(of: issue)
      return message.contains(
        "Leaked a cycle of PresentationModelTestingTests.EveryObjectTraitTests.Person and "
          + "PresentationModelTestingTests.EveryObjectTraitTests.Apartment, made in this test")
        && message.contains("- Apartment.tenant")
    }
    #expect(issues.withLock { $0 } == 1)
  }

  @Test(.detectsLeaks(.everyObject)) func theTwinsLeaveNothing() {
    let document = Document()
    document.rows = [Row(), Row()]
    document.onSave = { [weak document] in _ = document }
    let person = Person()
    let apartment = Apartment()
    person.apartment = apartment
    apartment.tenant = person
    apartment.tenant = nil
  }

  /// A tracked object is reported once, at its `trackForLeaks` line, not again at the test.
  @Test("Fails on purpose: a tracked leak is reported once, at its tracking line")
  func aTrackedLeakIsReportedOnce() async throws {
    let issues = Mutex<[Int]>([])
    let trackedLine = #line + 5
    try await withKnownIssue {
      try await Self.runInTraitScope {
        let document = Document()
        document.onSave = { _ = document }
        trackForLeaks(document)
      }
    } matching: { issue in
      issues.withLock { $0.append(issue.sourceLocation?.line ?? 0) }
      return issue.sourceLocation?.line == trackedLine
    }
    #expect(issues.withLock { $0 } == [trackedLine])
  }

  @Test func ignoredTypesAreNotReported() async throws {
    try await Self.runInTraitScope(ignoring: [Ignored.self]) {
      let ignored = Ignored()
      ignored.again = ignored
    }
  }

  @Test func narrowedToOtherModulesTheTestsTypesAreNotReported() async throws {
    try await Self.runInTraitScope(modules: ["SomeOtherModule"]) {
      let ignored = Ignored()
      ignored.again = ignored
    }
  }

  @Test("Fails on purpose: narrowed to this module, its types are reported")
  func narrowedToThisModuleItsTypesAreReported() async throws {
    try await withKnownIssue {
      try await Self.runInTraitScope(modules: ["PresentationModelTestingTests"]) {
        let ignored = Ignored()
        ignored.again = ignored
      }
    } matching: { issue in
      Self.message(of: issue).contains("Leaked PresentationModelTestingTests.EveryObjectTraitTests.Ignored, made")
    }
  }

  @Test("Fails on purpose: ignoring: below .everyObject is a mistake, said as such")
  func ignoringBelowEveryObjectIsAMistake() async throws {
    let test = try #require(Test.current)
    try await withKnownIssue {
      try await LeakDetectionTrait(.observersAndWidgets, ignoring: [Ignored.self], timeout: .zero).provideScope(
        for: test, testCase: Test.Case.current
      ) {}
    } matching: { issue in
      Self.message(of: issue).contains("ignoring: and modules: choose the classes that .everyObject counts")
    }
  }

  /// A singleton made lazily, with a part its initialiser makes: each touched by one test only, so
  /// that test is the one that makes it.
  final class Preferences: @unchecked Sendable {
    // @unchecked Sendable: immutable.
    static let shared = Preferences()
    let defaults = Row()
  }

  final class Registry: @unchecked Sendable {
    // @unchecked Sendable: `listeners` is touched by one test only, on one task.
    static let shared = Registry()
    let cache = Row()
    var listeners: [Document] = []
  }

  /// A singleton first touched in a test, and what its initialiser made, are not leaks: a global
  /// holds it directly, as it will for the process's life.
  @Test(.detectsLeaks(.everyObject)) func aSingletonFirstMadeInATestIsNotALeak() {
    _ = Preferences.shared.defaults
  }

  /// What a test hands a singleton it made is a leak, named through the singleton's global (the
  /// listener is allocated after the singleton's initialiser returned, in a shallower frame).
  @Test("Fails on purpose: what a test hands a singleton made in it is a leak")
  func whatATestHandsASingletonIsALeak() async throws {
    let issues = Mutex<[String]>([])
    try await withKnownIssue {
      try await Self.runInTraitScope {
        Registry.shared.listeners.append(Document())
      }
    } matching: { issue in
      issues.withLock { $0.append(Self.message(of: issue)) }
      return Self.message(of: issue).contains(
        "Leaked PresentationModelTestingTests.EveryObjectTraitTests.Document, made in this test")
        && Self.message(of: issue).contains(
          "- the global EveryObjectTraitTests.Registry.shared, through Registry.listeners[0]")
    }
    #expect(
      issues.withLock { $0.count } == 1, "the singleton and its cache are not reported: \(issues.withLock { $0 })")
  }

  @Test("Fails on purpose: an every-object leak can be expected")
  func anEveryObjectLeakCanBeExpected() async throws {
    try await Self.runInTraitScope(expecting: .leaks(of: [Ignored.self])) {
      let ignored = Ignored()
      ignored.again = ignored
    }
  }
}
