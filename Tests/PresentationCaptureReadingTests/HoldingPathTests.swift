import Dispatch
import PresentationCaptureReading
import Testing

/// The walk from tracked objects to a survivor (`CaptureScanner.holdingPaths`), on the shapes the
/// outside testers of issue 21 found crashing, stalling or silent. Where a case comes from a public
/// source, the source is named: the retain cycles of Apple's "Automatic Reference Counting" chapter
/// of The Swift Programming Language (closure properties capturing `self`, `unowned` and `weak`
/// properties), FBRetainCycleDetector's test suite (blocks and objects held in collections and
/// properties), and the classic delegate cycle of iOS articles.
@Suite struct HoldingPathTests {
  final class Survivor: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var onTap: (() -> Void)?
    var workItem: DispatchWorkItem?
  }

  final class Parent: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var onTap: (() -> Void)?
    var handlers: [() -> Void] = []
    var child: Child?
    weak var weakChild: Survivor?
    unowned(unsafe) var unsafeChild: Survivor
    init(unsafeChild: Survivor) { self.unsafeChild = unsafeChild }
  }

  final class Child: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var held: Survivor?
    unowned var parent: Parent
    init(parent: Parent) { self.parent = parent }
  }

  /// A type whose `customMirror` must never run inside the walk (it would trap, as a `@MainActor`
  /// type's `customMirror` using `MainActor.assumeIsolated` traps off the main thread).
  final class Trapping: CustomReflectable, @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var held: Survivor?
    var customMirror: Mirror { fatalError("the walk ran a customMirror") }
  }

  struct TrappingValue: CustomReflectable {
    var held: Survivor?
    var customMirror: Mirror { fatalError("the walk ran a customMirror") }
  }

  final class HoldsTrappingValue: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var value: TrappingValue
    init(value: TrappingValue) { self.value = value }
  }

  final class Node: @unchecked Sendable {
    // @unchecked Sendable: test objects, mutated on one thread only.
    var next: Node?
    var payload: Survivor?
  }

  private static func paths(to survivor: Survivor, from roots: [AnyObject]) -> [String] {
    guard CaptureScanner.isAvailable else { return [] }
    return CaptureScanner.holdingPaths(to: survivor, from: roots)
  }

  // The Swift Programming Language, "Strong Reference Cycles for Closures": a closure property
  // capturing the object that holds it.
  @Test func namesAClosurePropertyThatCapturesTheSurvivor() {
    let survivor = Survivor()
    let parent = Parent(unsafeChild: survivor)
    parent.onTap = { _ = survivor }
    #expect(Self.paths(to: survivor, from: [parent]) == ["Parent.onTap (a closure that captures it)"])
    parent.onTap = nil
  }

  @Test func namesAClosureCycleThroughTheSurvivorsOwnProperty() {
    let survivor = Survivor()
    survivor.onTap = { _ = survivor }
    #expect(Self.paths(to: survivor, from: [survivor]) == ["Survivor.onTap (a closure that captures it)"])
    survivor.onTap = nil
  }

  // FBRetainCycleDetector's tests hold blocks in collections: a closure in an array element.
  @Test func namesAClosureInACollection() {
    let survivor = Survivor()
    let parent = Parent(unsafeChild: survivor)
    parent.handlers = [{}, { _ = survivor }]
    #expect(Self.paths(to: survivor, from: [parent]) == ["Parent.handlers[1] (a closure that captures it)"])
  }

  @Test func namesWhatAClosureReachesThroughAnotherObject() {
    let survivor = Survivor()
    let parent = Parent(unsafeChild: survivor)
    let child = Child(parent: parent)
    child.held = survivor
    parent.onTap = { _ = child }
    #expect(
      Self.paths(to: survivor, from: [parent]) == ["Parent.onTap (a closure that captures it through Child.held)"])
    parent.onTap = nil
  }

  // The Swift Programming Language, "Weak References" and "Unowned References": neither keeps its
  // object alive, so neither is a path. In a child process (an exit test), as the next one: a walk
  // that reads such a field as a strong reference crashes, and must fail this test by name rather
  // than end the test run (issue 29).
  @Test func skipsWeakAndUnownedProperties() async {
    await #expect(processExitsWith: .success, crashed("weak and unowned properties")) {
      let survivor = Survivor()
      let parent = Parent(unsafeChild: survivor)
      parent.weakChild = survivor
      let child = Child(parent: parent)
      parent.child = child
      let skipped = Self.paths(to: survivor, from: [parent])
      #expect(skipped.isEmpty, "weak and unowned properties were reported as holding it: \(skipped)")
      child.held = survivor
      let held = Self.paths(to: survivor, from: [parent])
      #expect(held == ["Parent.child.held"], "the strong property past them: \(held)")
    }
  }

  @Test func neverReadsAnUnownedPropertyWhoseObjectIsGone() async {
    await #expect(processExitsWith: .success, crashed("an unowned property whose object is gone")) {
      let survivor = Survivor()
      let child: Child
      do {
        let parent = Parent(unsafeChild: survivor)
        child = Child(parent: parent)
      }
      // `child.parent` is dangling: reading it would trap.
      let paths = Self.paths(to: survivor, from: [child])
      #expect(paths.isEmpty, "a dangling unowned property: reported \(paths)")
    }
  }

  @Test func runsNoCustomMirror() {
    let survivor = Survivor()
    let trapping = Trapping()
    trapping.held = survivor
    #expect(Self.paths(to: survivor, from: [trapping]) == ["Trapping.held"])
    let holder = HoldsTrappingValue(value: TrappingValue(held: survivor))
    #expect(Self.paths(to: survivor, from: [holder]) == ["HoldsTrappingValue.value.held"])
  }

  // The outside testers' crash: an object with a `DispatchWorkItem?` property ("Bad pointer
  // dereference" inside `Mirror`). The work item's block is not readable, and is not read.
  @Test func walksPastADispatchWorkItemWithoutCrashing() {
    let survivor = Survivor()
    let holder = Survivor()
    holder.workItem = DispatchWorkItem { _ = survivor }
    holder.onTap = { _ = survivor }
    #expect(Self.paths(to: survivor, from: [holder]) == ["Survivor.onTap (a closure that captures it)"])
  }

  @Test func findsTheEndOfALongLinkedListWithoutRecursing() throws {
    let survivor = Survivor()
    let head = Node()
    var tail = head
    for _ in 1..<5_000 {
      let node = Node()
      tail.next = node
      tail = node
    }
    tail.payload = survivor
    let path = try #require(Self.paths(to: survivor, from: [head]).first)
    #expect(path.hasPrefix("Node.next.next"))
    #expect(path.hasSuffix(".next.payload"))
    #expect(path.contains("steps"), "a long path is shortened: \(path.count) characters")
    #expect(path.count < 200)
    // Break the chain one link at a time: releasing 5,000 nested nodes at once would recurse.
    var node: Node? = head
    while let current = node {
      node = current.next
      current.next = nil
    }
  }

  @Test func readsAHugeCollectionNoFurtherThanItsBound() {
    guard CaptureScanner.isAvailable else { return }
    let survivor = Survivor()
    let numbers = [Int](repeating: 7, count: 5_000_000)
    let boxed: [any Sendable] = Array(repeating: 1, count: 1_000_000)
    let handler: @Sendable () -> Void = { _ = (numbers, boxed, survivor) }
    let result = CaptureScanner.scan(
      handler, for: [ObjectIdentifier(survivor)], followObjects: false, maximumVisits: 500)
    #expect(result.truncated)
    #expect(result.visits <= 500)
  }
}
