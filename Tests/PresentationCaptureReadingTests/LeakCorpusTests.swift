import Dispatch
import Foundation
import PresentationCaptureReading
import Testing

/// Leaks written from public sources, each next to its correct twin (the same code without the
/// leak), walked as the leak report walks them: `CaptureScanner.holdingPaths` from the objects a
/// test would track, and `CaptureScanner.scan` for a handler. The sources are FBRetainCycleDetector's
/// test suite (`FBRetainCycleDetectorTests.mm`, `FBRetainCycleSwiftDetectorTests.swift`,
/// `FBObjectiveCNSCFTimerTests.m`), swift-leak-check's snippets (`Tests/LeakCheckFrameworkTests/
/// Snippets`), The Swift Programming Language's "Automatic Reference Counting" chapter, and the iOS
/// articles and Q&A named at each case; each is translated to plain Swift with stand-in classes.
///
/// A leak the walk cannot see is pinned as `.missed` with the reason: the test then expects no path,
/// so the day the walk learns it, the test says so.
@Suite(.timeLimit(.minutes(1))) struct LeakCorpusTests {
  /// What the walk must say about a leaking case.
  enum Expected: Sendable {
    /// The first (shortest) holding path, exactly.
    case path(String)
    /// A handler (`Built.handler`) scanned for the target: this wording.
    case handler(String)
    /// A known blind spot: no path is found, for this reason.
    case missed(String)
  }

  /// Where a case comes from, for the counts of the report.
  enum Source: String, Sendable {
    case fbRetainCycleDetector = "FBRetainCycleDetector"
    case swiftLeakCheck = "swift-leak-check"
    case swiftBook = "The Swift Programming Language"
    case articles = "iOS articles and Q&A"
  }

  /// One built scenario: the leaked object, the objects a test would track, and what breaks the
  /// cycle at the end of the test (so no test leaks memory, which AddressSanitizer would report).
  struct Built {
    let target: AnyObject
    let roots: [AnyObject]
    var handler: Any?
    var release: () -> Void = {}
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let source: Source
    let expected: Expected
    /// Builds the leaking code (`true`) or its twin (`false`).
    let build: @Sendable (_ leaks: Bool) -> Built

    var testDescription: String { "\(source.rawValue): \(name)" }
  }

  static let cases: [Case] = fbRetainCycleDetectorCases + swiftLeakCheckCases + articleCases

  private static func holdingPaths(_ built: Built) -> [String] {
    CaptureScanner.holdingPaths(to: built.target, from: built.roots)
  }

  @Test(arguments: cases)
  func theLeakIsNamed(_ leak: Case) {
    guard CaptureScanner.isAvailable else { return }
    let built = leak.build(true)
    defer { built.release() }
    switch leak.expected {
    case .path(let path):
      #expect(Self.holdingPaths(built).first == path)
    case .handler(let wording):
      let handler = built.handler ?? ()
      let result = CaptureScanner.scan(handler, for: [ObjectIdentifier(built.target)], followObjects: true)
      #expect(result.paths[ObjectIdentifier(built.target)].map(CaptureScanner.describe) == wording)
    case .missed(let reason):
      #expect(Self.holdingPaths(built).isEmpty, "pinned blind spot: \(reason)")
    }
  }

  @Test(arguments: cases)
  func theTwinReportsNothing(_ leak: Case) {
    guard CaptureScanner.isAvailable else { return }
    let built = leak.build(false)
    defer { built.release() }
    #expect(Self.holdingPaths(built).isEmpty)
    if let handler = built.handler {
      let result = CaptureScanner.scan(handler, for: [ObjectIdentifier(built.target)], followObjects: true)
      #expect(result.paths.isEmpty)
    }
  }

  /// The corpus is the size the issue asks for, and every source is used.
  @Test func theCorpusHasSixtyCasesFromEverySource() {
    #expect(Self.cases.count >= 60)
    #expect(Set(Self.cases.map(\.name)).count == Self.cases.count, "names are unique")
    for source in [Source.fbRetainCycleDetector, .swiftLeakCheck, .swiftBook, .articles] {
      #expect(Self.cases.contains { $0.source == source }, "\(source.rawValue)")
    }
  }
}
