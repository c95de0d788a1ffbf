import Foundation
import PresentationModelTesting
import Synchronization
import Testing

/// How the corpus runs: each leak is a scenario written as an app writes it, with nothing
/// annotated, run inside the leak trait's scope at `.everyObject` under `withKnownIssue`, and
/// expected to fail naming its leaked type and the line of what holds it; each twin is the same
/// code, fixed, under the real trait, `@Test(.detectsLeaks(.everyObject))`, and must pass. Nothing
/// here is `.serialized`: the cases run in parallel.
///
/// A scenario returns a ``Leak``: the objects it expects to outlive it (its subjects) and how to
/// undo the leak afterwards (so the process ends clean, under LeakSanitizer too). The harness holds
/// them weakly and, once the check is over, undoes the leak and checks that the subjects went: so
/// each leak is shown to be exactly the holder the case names.
enum Corpus {
  /// How long a leaking run waits before it reports: the objects of a leak never go.
  static let leakTimeout: Duration = .milliseconds(100)

  /// What a leaking scenario leaves alive, and how to undo it once the check is over.
  struct Leak: @unchecked Sendable {
    // @unchecked Sendable: a scenario makes it and hands it to the harness once it has returned;
    // the harness takes weak references to `subjects` (it never reads or writes them) and calls
    // `undo` once, after the check, from the test's own task.
    let subjects: [AnyObject]
    /// `nil`: nothing can reach what holds the subjects (a closure kept in a var it captures, a
    /// pending `asyncAfter`), so they stay until the process ends or the deadline passes.
    let undo: (() async -> Void)?

    /// - Parameters:
    ///   - subjects: The objects the leak keeps alive (the first is the case's leaked type).
    ///   - undo: Breaks the leak. It must reach the subjects through `weak` captures only, or it
    ///     would hold them itself.
    init(_ subjects: AnyObject..., undo: @escaping () async -> Void) {
      self.subjects = subjects
      self.undo = undo
    }

    private init(subjects: [AnyObject]) {
      self.subjects = subjects
      self.undo = nil
    }

    /// A leak nothing can undo: its subjects stay until the process ends (or a deadline passes).
    static func permanent(_ subjects: AnyObject...) -> Leak { Leak(subjects: subjects) }
  }

  /// One issue a leaking case expects: its heading (`Leaked EveryObjectCorpusTests.SwiftBook.Person`)
  /// and a fragment of one of its holder lines (`- Apartment.tenant`): `A|B` accepts either, `A…B`
  /// A then B further on the line (a closure's name after the holder's kind).
  struct Expected: Sendable, CustomStringConvertible {
    let heading: String
    /// For a registration left live: a fragment of its registration line.
    var registration: String?
    let holder: String
    /// Whether the case fails unless this issue is recorded. A cycle's other members are not
    /// required: `.everyObject` reports a cycle once.
    let isRequired: Bool
    /// A GAP of the report, documented: why it names no holder for this leak today. The issue is
    /// then accepted with no holder line at all (any other holder line fails the case), and the
    /// case fails once the report does name `holder`, so that the mark goes with the gap.
    var gap: String?

    var description: String {
      [heading, registration.map { "(\($0))" }, "- …\(holder)…"].compactMap(\.self).joined(separator: " ")
    }

    /// A leaked object of `type`, one of whose holder lines matches `holder`; with `gap`, a
    /// documented gap: the report names none today.
    static func object(_ type: any AnyObject.Type, heldBy holder: String, gap: String? = nil) -> Expected {
      Expected(heading: "Leaked \(String(reflecting: type))", holder: holder, isRequired: true, gap: gap)
    }

    /// Another member of the leak (a cycle's other object, an object the leaked one holds): its
    /// issue is accepted when it names `holder`, and not required.
    static func also(_ type: any AnyObject.Type, heldBy holder: String, gap: String? = nil) -> Expected {
      Expected(heading: "Leaked \(String(reflecting: type))", holder: holder, isRequired: false, gap: gap)
    }

    /// A registration left live on one of the package's centers (`Observer still registered …`),
    /// whose registration line contains `registration` and one of whose holder lines matches
    /// `holder`.
    static func observer(_ registration: String, heldBy holder: String, gap: String? = nil) -> Expected {
      Expected(
        heading: "Observer still registered", registration: registration, holder: holder, isRequired: true, gap: gap)
    }

    /// A leaked object of `type` that nothing refers to (an unbalanced retain): the report must say
    /// that no holder was found, and name none.
    static func objectWithNoHolder(_ type: any AnyObject.Type) -> Expected {
      Expected(heading: "Leaked \(String(reflecting: type))", holder: "", isRequired: true)
    }

    /// The issue a center records at once when an owner-bound handler captures its own owner.
    static func handlerCapturingItsOwner(_ ownerType: any AnyObject.Type) -> Expected {
      Expected(heading: "captures its owner, a \(String(describing: ownerType))", holder: "", isRequired: true)
    }

    /// How an issue's message meets this expectation.
    enum Match {
      /// Not this issue, or this issue naming another holder.
      case no
      /// This issue, naming the expected holder (or, for a registration check, none needed).
      case named
      /// This issue with no holder line, as its documented gap says.
      case gapStands
    }

    /// Whether `message` is this issue, with its holder line.
    func match(_ message: String) -> Match {
      guard Expected.headline(of: message, matches: heading) else { return .no }
      if let registration, !message.contains(registration) { return .no }
      let lines = Corpus.holderLines(of: message)
      guard heading.hasPrefix("Leaked ") || registration != nil else { return .named }  // a registration check
      if holder.isEmpty { return lines.isEmpty ? .named : .no }  // nothing holds it: the report names nothing
      if lines.contains(where: { Expected.line($0, matches: Substring(holder)) }) { return .named }
      return gap != nil && lines.isEmpty ? .gapStands : .no
    }

    /// Whether `message` is this issue: for a leaked object, its first line names the type, alone
    /// (`Leaked MyTests.Person: still alive …` from a tracked object, `Leaked MyTests.Person, made in
    /// this test …` from `.everyObject`) or among a cycle's (`Leaked a cycle of MyTests.Person and
    /// MyTests.Apartment, made in this test …`); otherwise the message contains `heading`.
    static func headline(of message: String, matches heading: String) -> Bool {
      let leaked = "Leaked "
      guard heading.hasPrefix(leaked) else { return message.contains(heading) }
      let typeName = heading.dropFirst(leaked.count).prefix { $0 != ":" }
      let headline = message.prefix { $0 != "\n" }
      guard headline.hasPrefix(leaked) else { return false }
      var types = headline.dropFirst(leaked.count)
      if types.hasPrefix("a cycle of ") { types = types.dropFirst("a cycle of ".count) }
      if let end = types.range(of: ", made in this test") ?? types.range(of: ": ") {
        types = types[..<end.lowerBound]
      }
      return types.replacing(" and ", with: ", ").split(separator: ", ").contains { $0 == typeName }
    }

    /// Whether a holder line matches a fragment: `A|B`, either; `A…B`, A then B further on.
    static func line(_ line: Substring, matches fragment: Substring) -> Bool {
      fragment.split(separator: "|").contains { alternative in
        var rest = line[...]
        for piece in alternative.split(separator: "…") {
          guard let found = rest.range(of: piece) else { return false }
          rest = rest[found.upperBound...]
        }
        return true
      }
    }
  }

  /// The holder lines of an issue: `- Apartment.tenant`, without the dash.
  static func holderLines(of message: String) -> [Substring] {
    message.split(separator: "\n").filter { $0.hasPrefix("- ") }.map { $0.dropFirst(2) }
  }

  /// The subjects of a leak, weakly, and its undo: what the harness keeps past the check.
  private struct Left: @unchecked Sendable {
    // @unchecked Sendable: made in the scenario's task once the scenario returned and read in the
    // test's task after the trait's scope ended, never at the same time; `weak` references only.
    let subjects: [WeakSubject]
    let undo: (() async -> Void)?
  }

  private struct WeakSubject {
    weak var object: AnyObject?
  }

  /// Runs `scenario` in the leak trait's scope, as the testing library runs it, and expects the
  /// issues of `expected`, each naming its holder: each is recorded as a known issue, any other
  /// issue fails the test, and so does a required one not recorded. Then undoes the leak and checks
  /// that its subjects went.
  static func expectLeak(
    _ expected: [Expected], sourceLocation: SourceLocation = #_sourceLocation,
    _ scenario: @escaping @Sendable () async throws -> Leak
  ) async throws {
    let test = try #require(Test.current, sourceLocation: sourceLocation)
    let left = Mutex<Left?>(nil)
    let matched = Mutex<[Int: Expected.Match]>([:])
    let messages = Mutex<[String]>([])
    try await withKnownIssue {
      try await LeakDetectionTrait(.everyObject, timeout: leakTimeout).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        let leak = try await scenario()
        let kept = Left(subjects: leak.subjects.map { WeakSubject(object: $0) }, undo: leak.undo)
        left.withLock { $0 = kept }
      }
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined(separator: "\n")
      messages.withLock { $0.append(message) }
      let matches = expected.map { $0.match(message) }
      guard let index = matches.firstIndex(where: { $0 != .no }) else { return false }
      matched.withLock { found in
        // A gap that stands in one issue and is closed in another (two members of a leak) counts
        // as closed.
        if found[index] != .named { found[index] = matches[index] }
      }
      return true
    }
    let found = matched.withLock { $0 }
    let reported = messages.withLock { $0 }
    for (index, expectation) in expected.enumerated() {
      if expectation.isRequired && found[index] == nil {
        Issue.record(
          "Expected the issue \(expectation); the check reported:\n\(reported.joined(separator: "\n---\n"))",
          sourceLocation: sourceLocation)
      } else if let gap = expectation.gap, found[index] == .named {
        Issue.record(
          "Gap closed: the report now names the holder of \(expectation); remove its gap mark (\"\(gap)\")",
          sourceLocation: sourceLocation)
      }
    }
    guard let kept = left.withLock({ $0 }) else {
      Issue.record("The scenario did not return its leak", sourceLocation: sourceLocation)
      return
    }
    guard let undo = kept.undo else { return }
    await undo()
    let gone = await waitUntilGone(kept.subjects)
    #expect(gone, "The case's undo did not release what it leaked", sourceLocation: sourceLocation)
  }

  /// ``expectLeak(_:sourceLocation:_:)`` for a scenario on the main actor (view models, screens).
  static func expectLeak(
    _ expected: [Expected], sourceLocation: SourceLocation = #_sourceLocation,
    onMainActor scenario: @escaping @MainActor @Sendable () async throws -> Leak
  ) async throws {
    try await expectLeak(expected, sourceLocation: sourceLocation) { try await scenario() }
  }

  /// Runs `scenario` in the trait's scope and expects no issue at all (any issue fails the test):
  /// a documented blind spot. Then checks that the leak's subjects did outlive the check (so the
  /// check missed a real leak), and undoes it.
  static func expectMissed(
    sourceLocation: SourceLocation = #_sourceLocation, _ scenario: @escaping @Sendable () async throws -> Leak
  ) async throws {
    let test = try #require(Test.current, sourceLocation: sourceLocation)
    let left = Mutex<Left?>(nil)
    try await LeakDetectionTrait(.everyObject, timeout: leakTimeout).provideScope(
      for: test, testCase: Test.Case.current
    ) {
      let leak = try await scenario()
      let kept = Left(subjects: leak.subjects.map { WeakSubject(object: $0) }, undo: leak.undo)
      left.withLock { $0 = kept }
    }
    let kept = try #require(left.withLock { $0 }, sourceLocation: sourceLocation)
    #expect(
      kept.subjects.allSatisfy { $0.object != nil }, "The leak outlived the check", sourceLocation: sourceLocation)
    if let undo = kept.undo { await undo() }
    #expect(await waitUntilGone(kept.subjects), "The case's undo did not release what it leaked")
  }

  /// Waits up to 3 s for `subjects` to go.
  private static func waitUntilGone(_ subjects: [WeakSubject]) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(3)
    while subjects.contains(where: { $0.object != nil }) {
      guard clock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(2))
    }
    return true
  }
}

/// A weak reference a test keeps to see whether an object it made went (made before the trait's
/// scope, so it is not the test's own).
final class WeakBox: @unchecked Sendable {
  // @unchecked Sendable: set by the scenario before the check and read by the test after it.
  weak var object: AnyObject?
}

/// Why the report names no holder for some leaks (each such expectation says which, with
/// `gap:`): none today on this toolchain; under a sanitizer, `SanitizerGap`.
enum Gap {}
