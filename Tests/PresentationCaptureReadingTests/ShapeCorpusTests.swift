import Dispatch
import Foundation
import PresentationCaptureReading
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Fifty-odd more shapes (beyond `UnusualShapesTests`), each walked three ways: as the debug-build
/// `observe` check walks a handler (`followObjects: false`), as the leak report walks one
/// (`followObjects: true`), and from an object holding the value (`holdingPaths`). Every kind of
/// value the compiler can capture or store that issue 21 lists: generics and packs, existentials
/// of every kind, metatypes, actors, async, throwing, optional and nested closures, C and thin
/// functions, Glibc's C structs, SIMD, unsafe pointers, key paths, tasks, streams, Dispatch and
/// Foundation objects, indirect and multi-payload enums, huge collections, deep lists, cycles,
/// trapping `customMirror`s, `weak` and `unowned` fields alive and dead, `lazy var`s, property
/// wrappers, hand-written observable classes and inheritance chains.
///
/// The outcome of each is pinned: found; counted unread (`unreadValues >= 1`); truncated at the
/// visit bound; or, for a value that holds the target without owning it, never reported. A shape
/// that crashed or hung the walk would be kept here disabled, with the shape in its reason.
@Suite(.timeLimit(.minutes(1))) struct ShapeCorpusTests {
  enum Outcome: Sendable, Equatable {
    /// Both report walks find the target, and `holdingPaths` names a path.
    case found
    /// Not found, and the walk says it could not read something.
    case unread
    /// The walk stopped at its visit bound.
    case truncated
    /// The value does not own the target: nothing may be reported.
    case notHeld
    /// Unread in a debug build; an optimised build specialises the generic function that made the
    /// closure, so its captures have concrete types and the target may be found.
    case unreadUnlessSpecialized
    /// A finding: the target is strongly held, yet the walk neither finds it nor counts anything
    /// unread. Pinned so that the fix shows.
    case silentlyMissed
  }

  struct Shape: Sendable, CustomTestStringConvertible {
    let name: String
    let outcome: Outcome
    /// Breaks a cycle in the value once it has been walked (so that no test leaks memory).
    var release: @Sendable (Any) -> Void = { _ in }
    /// Makes the value from the target and a string to capture beside it (a closure whose only
    /// capture is one reference uses that reference as its context: a blind spot of its own).
    let make: @Sendable (Model, String) -> Any

    var testDescription: String { name }
  }

  /// Holds a shape's value, as a tracked object's property would.
  final class ValueBox {
    let value: Any
    init(_ value: Any) { self.value = value }
  }

  @Test(arguments: shapes)
  func walksTheShape(_ shape: Shape) {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    let value = shape.make(model, "label")
    let targets: Set<ObjectIdentifier> = [ObjectIdentifier(model)]
    let atRegistration = CaptureScanner.scan(value, for: targets, followObjects: false)
    let inReport = CaptureScanner.scan(value, for: targets, followObjects: true)
    let paths = CaptureScanner.holdingPaths(to: model, from: [ValueBox(value)])
    switch shape.outcome {
    case .found:
      #expect(inReport.paths[ObjectIdentifier(model)] != nil, "\(inReport)")
      #expect(!paths.isEmpty)
    case .unread:
      #expect(inReport.paths.isEmpty)
      #expect(inReport.unreadValues >= 1, "an unread value is counted")
    case .unreadUnlessSpecialized:
      #if DEBUG
        #expect(inReport.paths.isEmpty)
        #expect(inReport.unreadValues >= 1, "an unread value is counted")
      #else
        #expect(inReport.paths[ObjectIdentifier(model)] != nil || inReport.unreadValues >= 1)
      #endif
    case .truncated:
      #expect(inReport.truncated)
    case .notHeld:
      #expect(atRegistration.paths.isEmpty, "a false report")
      #expect(inReport.paths.isEmpty, "a false report")
      #expect(paths.isEmpty, "a false report: \(paths)")
    case .silentlyMissed:
      #expect(inReport.paths.isEmpty && paths.isEmpty)
      #expect(inReport.unreadValues == 0, "now counted unread: make this shape .unread")
    }
    if !atRegistration.paths.isEmpty {
      #expect(!inReport.paths.isEmpty, "the report's walk sees at least what the registration's does")
    }
    shape.release(value)
  }

  /// A continuation captured by a handler while its task is suspended: walked, then resumed, so it
  /// is never leaked (a leaked `CheckedContinuation` logs and never resumes its task).
  @Test func walksACapturedCheckedContinuationAndResumesIt() async {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    let found: Bool = await withCheckedContinuation { continuation in
      let handler = { _ = (model, continuation) }
      let result = CaptureScanner.scan(handler, for: [ObjectIdentifier(model)], followObjects: true)
      continuation.resume(returning: result.paths[ObjectIdentifier(model)] != nil)
    }
    #expect(found)
  }

  @Test func theCorpusHasFiftyShapes() {
    #expect(Self.shapes.count >= 50)
    #expect(Set(Self.shapes.map(\.name)).count == Self.shapes.count, "names are unique")
  }
}
