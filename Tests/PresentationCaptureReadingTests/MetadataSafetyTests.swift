import PresentationCaptureReading
import Testing

/// Values whose reading used to abort the process, or that were reported although they hold their
/// target without owning it. Found by outside testing of the debug-build `observe` check (issue 21):
/// a handler capturing a parameter pack made the runtime's resolver trap ("Pack expansion count type
/// should be a pack"), and a captured struct whose `unowned let` outlived its object made `Mirror`
/// trap ("Attempted to read an unowned reference"). On the code before the fix the first and third
/// tests abort the test process, and the weak and unowned cases of the fourth fail.
///
/// The weak and unowned cases run in a child process (an exit test), so that a walk that crashes on
/// them fails that test by name: with `weak` fields no longer recognised as reference storage
/// (`Xw`), the walk read a weak reference as a strong one, dereferenced its side-table entry, and
/// the whole test process died of SIGSEGV, with no test recorded as failed (issue 29).
@Suite struct MetadataSafetyTests {
  final class Model: Sendable {}
  final class Unrelated: Sendable {}

  struct HoldsUnowned: Sendable {
    unowned let model: Model
  }

  struct HoldsWeak: @unchecked Sendable {
    // @unchecked Sendable: never mutated after init.
    weak var model: Model?
  }

  struct HoldsUnownedUnsafe: @unchecked Sendable {
    // @unchecked Sendable: never mutated after init; the test keeps the referent alive.
    unowned(unsafe) let model: Model
  }

  struct Pair: Sendable {
    let model: Model
    let count: Int
  }

  struct Generic<Value: Sendable>: Sendable {
    let value: Value
    let count: Int
  }

  /// A closure made inside a generic function over a pack, capturing the pack (and `model`, first,
  /// when given).
  private func closure<each Value: Sendable>(
    capturing model: Model?, _ values: repeat each Value
  ) -> @Sendable () -> Void {
    if let model {
      return { _ = (model, (repeat each values)) }
    }
    return { _ = (repeat each values) }
  }

  private static func paths(in value: Any, to model: Model) -> [String] {
    let result = CaptureScanner.scan(value, for: [ObjectIdentifier(model)], followObjects: false)
    return result.paths.values.map(CaptureScanner.describe)
  }

  @Test func readsNoFurtherThanAParameterPackAndNeverAborts() {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    let handler = closure(capturing: nil, 1, "two", Unrelated())
    let result = CaptureScanner.scan(handler, for: [ObjectIdentifier(model)], followObjects: true)
    #expect(result.paths.isEmpty)
    #if DEBUG
      #expect(result.unreadValues == 1, "the pack is counted as unread, not guessed at")
    #endif
    // An optimised build specialises `closure(capturing:_:)`: its captures then have concrete
    // types, which the walk reads.
  }

  @Test func findsATargetCapturedBeforeAParameterPack() {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    #expect(Self.paths(in: closure(capturing: model, 1, Unrelated()), to: model) == ["captures it"])
  }

  @Test func skipsAnUnownedStoredPropertyWhoseObjectIsGoneWithoutReadingIt() async {
    guard CaptureScanner.isAvailable else { return }
    await #expect(processExitsWith: .success, crashed("a struct with an unowned field whose object is gone")) {
      let model = Model()
      var holder: HoldsUnowned?
      do {
        let gone = Model()
        holder = HoldsUnowned(model: gone)
      }
      let dangling = holder
      let handler: @Sendable () -> Void = { _ = (dangling, 1) }
      let paths = Self.paths(in: handler, to: model)
      #expect(paths.isEmpty, "a struct with an unowned field whose object is gone: reported \(paths)")
    }
  }

  @Test(arguments: ["weak", "unowned", "unowned(unsafe)"])
  func doesNotReportAStructThatHoldsTheTargetWithoutOwningIt(_ ownership: String) async {
    guard CaptureScanner.isAvailable else { return }
    await #expect(processExitsWith: .success, crashed("a struct with a \(ownership) field")) { [ownership] in
      let model = Model()
      let handler: @Sendable () -> Void
      switch ownership {
      case "weak":
        let holder = HoldsWeak(model: model)
        handler = { _ = holder }
      case "unowned":
        let holder = HoldsUnowned(model: model)
        handler = { _ = holder }
      default:
        let holder = HoldsUnownedUnsafe(model: model)
        handler = { _ = holder }
      }
      let paths = Self.paths(in: handler, to: model)
      #expect(paths.isEmpty, "a struct with a \(ownership) field: reported \(paths)")
      withExtendedLifetime(model) {}
    }
  }

  @Test func namesTheTargetInAGenericStructsField() {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    let wrapped = Generic(value: Pair(model: model, count: 1), count: 2)
    let handler: @Sendable () -> Void = { _ = wrapped }
    #expect(Self.paths(in: handler, to: model) == ["captures it through Generic<Pair>.value → Pair.model"])
  }

  @Test func namesTheTargetInAStructHeldStrongly() {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    let pair = Pair(model: model, count: 1)
    let handler: @Sendable () -> Void = { _ = pair }
    #expect(Self.paths(in: handler, to: model) == ["captures it through Pair.model"])
  }
}

/// What a child process walking `what` that did not exit normally means.
func crashed(_ what: String) -> Comment {
  "the walk of \(what) ended its process (a weak or unowned reference read as a strong one?)"
}

/// Collections skipped whole because their elements cannot hold a reference, and the wrappers that
/// look alike but hold closures: the skip must not reach those.
@Suite struct ReferenceFreeCollectionTests {
  final class Model: Sendable {}

  @Test func readsALazyWrapperOverTrivialElementsForItsClosure() {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    nonisolated(unsafe) let mapped = (0..<3).lazy.map { index in index + (model === model ? 1 : 0) }
    let handler: @Sendable () -> Void = { _ = (mapped, 1) }
    let result = CaptureScanner.scan(handler, for: [ObjectIdentifier(model)], followObjects: false)
    #expect(
      result.paths[ObjectIdentifier(model)] != nil || result.unreadValues > 0,
      "a LazyMapSequence<Range<Int>, Int> holds its transform: found or unread, never skipped as empty")
  }

  @Test func skipsACollectionOfTrivialElementsWithoutVisitingThem() {
    guard CaptureScanner.isAvailable else { return }
    let model = Model()
    let numbers = [Int](repeating: 1, count: 10_000)
    let names: [String: Int] = ["a": 1, "b": 2]
    let handler: @Sendable () -> Void = { _ = (numbers, names, model) }
    let result = CaptureScanner.scan(handler, for: [ObjectIdentifier(model)], followObjects: false, maximumVisits: 16)
    #expect(result.paths[ObjectIdentifier(model)] == [])
    #expect(!result.truncated)
  }
}
