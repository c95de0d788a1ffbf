import Foundation
import PresentationModel
import PresentationModelDiagnostics
import Testing

/// Part of the corpus driven through the public harness, as a user's test would: `LeakTracker`
/// tracks the objects, `checkForLeaks(timeout: .zero)` returns the `LeakReport`, and the report's
/// `retainingPaths` and `retainingObservers` must name the holder; each twin must report no leak.
/// Serialized: a hand-made `LeakTracker` reads every registration's captured objects, so the
/// observer cases must not run beside each other.
@Suite(.serialized, .timeLimit(.minutes(1))) struct HarnessCorpusTests {
  /// The corpus cases driven through the harness: one per shape of holder (a closure property, a
  /// closure in a collection, a nested closure, a struct field, a delegate, a lazy var, an enum
  /// payload, a hand-written sink, a block-based observer) and the blind spots.
  static let harnessCases: [LeakCorpusTests.Case] = LeakCorpusTests.cases.filter {
    [
      "a block property capturing its owner", "a block in an array capturing the array's owner",
      "two blocks in a cycle", "a cycle through a struct's field", "a table view's strong delegate",
      "a three-way cycle through a closure", "a lazy closure property capturing self",
      "a person and an apartment holding each other", "a completion handler stored by an owned service",
      "a child view's onTap closure capturing the parent",
      "a hand-written sink capturing the model that owns the subject",
      "an enum payload closure capturing the owner", "strongSelf captured by an inner escaping closure",
      "a NotificationCenter block observer kept by the object it uses",
      "a DispatchWorkItem kept by the object its block uses", "a timer's block capturing the timer's owner",
    ].contains($0.name)
  }

  @Test(arguments: harnessCases)
  func theReportNamesTheHolder(_ leak: LeakCorpusTests.Case) {
    let tracker = LeakTracker()
    var release: () -> Void = {}
    var targetType = ""
    do {
      let built = leak.build(true)
      for root in built.roots { tracker.track(root) }
      tracker.track(built.target)
      release = built.release
      targetType = String(reflecting: type(of: built.target))
    }
    defer { release() }
    let report = tracker.checkForLeaks(timeout: .zero)
    let paths = report.survivors.filter { $0.typeName == targetType }.flatMap(\.retainingPaths)
    switch leak.expected {
    case .path(let path):
      #expect(paths.contains(path), "\(report)")
    case .handler, .missed:
      // The walk's blind spots: the heap scan names what it can (and nothing else).
      #expect(report.hasLeaks)
      let scanned =
        UntrackedHolderFinder.isAvailable && UntrackedHolderFinder.isEnabled ? Self.heapScanHolders[leak.name] : nil
      #expect(paths == (scanned.map { [$0] } ?? []), "\(report)")
    }
  }

  /// What the heap scan names for the walk's blind spots among the harness cases (Linux, where it
  /// is on: not under ThreadSanitizer unless asked). A
  /// Foundation `Timer`'s block stays unnamed: swift-corelibs-foundation keeps it in a
  /// CoreFoundation run loop timer, C memory whose layout the scan does not read.
  static let heapScanHolders = [
    "a DispatchWorkItem kept by the object its block uses":
      "a Dispatch work item's block: closure #1 in closure #11 in variable initialization expression of static "
      + "LeakCorpusTests.articleCases",
    "a NotificationCenter block observer kept by the object it uses":
      "a NotificationCenter block observer for LeakCorpusTests.Refresh: closure #1 in closure #12 in variable "
      + "initialization expression of static LeakCorpusTests.articleCases",
  ]

  @Test(arguments: harnessCases)
  func theTwinDoesNotLeak(_ leak: LeakCorpusTests.Case) {
    let tracker = LeakTracker()
    do {
      let built = leak.build(false)
      for root in built.roots { tracker.track(root) }
      tracker.track(built.target)
      built.release()
    }
    let report = tracker.checkForLeaks(timeout: .zero)
    #expect(!report.hasLeaks, "\(report)")
  }

  /// Every shape of `ShapeCorpusTests`, captured by a real owner-bound handler (the debug-build
  /// registration check walks it, up to its limit of 8 unremarkable registrations per `observe`
  /// line) and then read by the report (which walks every live handler): the target, alive and
  /// tracked, is named as held by that handler exactly when the shape holds it and the walk can
  /// read it.
  @Test(arguments: ShapeCorpusTests.shapes)
  func theReportReadsTheShapeInAHandler(_ shape: ShapeCorpusTests.Shape) throws {
    let center = TypedNotificationCenter()
    let tracker = LeakTracker()
    let owner = Owner()
    let model = ShapeCorpusTests.Model()
    // nonisolated(unsafe): the handler is never called (nothing is posted); the value is only read
    // by the walk, on this thread.
    nonisolated(unsafe) let value = shape.make(model, "label")
    let token = center.observe(Ping.self, owner: owner) { _, _ in _ = value }
    tracker.track(model)
    let report = tracker.checkForLeaks(timeout: .zero)
    let survivor = try #require(report.survivors.first, "the model is alive: the test holds it")
    switch shape.outcome {
    case .found:
      #expect(survivor.retainingObservers.count == 1, "\(survivor)")
    case .unreadUnlessSpecialized:
      #if DEBUG
        #expect(survivor.retainingObservers.isEmpty, "\(survivor)")
      #endif
    default:
      #expect(survivor.retainingObservers.isEmpty, "\(survivor)")
    }
    token.cancel()
    shape.release(value)
  }

  // MARK: Observers, one per center

  struct Ping: TypedNotification {}

  struct Tick: MainActorNotification {}

  struct Saved: FoundationNotification {
    static var name: Notification.Name { Notification.Name("HarnessCorpusTests.Saved") }
    init?(_ notification: Notification) {}
  }

  /// Keeps the token of its own observation, as view models do
  /// (https://www.informit.com/articles/article.aspx?p=2207347: "With blocks, however, you are not
  /// the observer").
  final class Document: @unchecked Sendable {
    // @unchecked Sendable: `token` is set once, right after init, before the object is shared.
    var token: ObserverToken?
  }

  final class Loader: Sendable {
    let document: Document
    init(document: Document) { self.document = document }
  }

  final class Owner: Sendable {}

  // swift-leak-check's README (`subscribe(onNext: { self.doSmth() })`) on our center: a token-bound
  // handler capturing the object that stores its token.
  @Test func aTypedCentersHandlerCapturingTheObjectThatKeepsItsToken() throws {
    let center = TypedNotificationCenter()
    let tracker = LeakTracker()
    let observeLine = #line + 4
    weak var weakDocument: Document?
    do {
      let document = Document()
      document.token = center.observe(Ping.self) { _ in _ = document }
      tracker.track(document)
      weakDocument = document
    }
    let report = tracker.checkForLeaks(timeout: .zero)
    let survivor = try #require(report.survivors.first)
    let observer = try #require(survivor.retainingObservers.first)
    #expect(observer.registration.line == observeLine)
    #expect(observer.capture == "captures it")
    #expect(observer.tokenPath == "Document.token")
    weakDocument?.token?.cancel()
    weakDocument?.token = nil
    #expect(weakDocument == nil)
  }

  // The same, the object reached through another object (FBRetainCycleSwiftDetectorTests'
  // testABITraversal_closureCycleViaIntermediateObject), owner-bound: the registration-time check
  // does not read objects, so only the report names it.
  @Test func aTypedCentersOwnerBoundHandlerReachingTheObjectThroughAnother() throws {
    let center = TypedNotificationCenter()
    let tracker = LeakTracker()
    let owner = Owner()
    let observeLine = #line + 4
    var token: ObserverToken?
    do {
      let loader = Loader(document: Document())
      token = center.observe(Ping.self, owner: owner) { _, _ in _ = loader }
      tracker.track(loader.document)
    }
    let report = tracker.checkForLeaks(timeout: .zero)
    let observer = try #require(report.survivors.first?.retainingObservers.first)
    #expect(observer.registration.line == observeLine)
    #expect(observer.capture == "captures it through Loader.document")
    token?.cancel()
    #expect(!tracker.checkForLeaks(timeout: .seconds(1)).hasLeaks)
  }

  @Test func aTypedCentersTwinCapturingWeaklyDoesNotLeak() {
    let center = TypedNotificationCenter()
    let tracker = LeakTracker()
    do {
      let document = Document()
      document.token = center.observe(Ping.self) { [weak document] _ in _ = document }
      tracker.track(document)
    }
    #expect(!tracker.checkForLeaks(timeout: .zero).hasLeaks)
  }

  /// The report names the handler, its `observe` line and the token stored in the object: the same
  /// finding for every kind of center.
  private static func expectTheObserverIsNamed(in survivor: LeakReport.Survivor, observeLine: Int) throws {
    #expect(survivor.retainingObservers.count == 1, "\(survivor)")
    let observer = try #require(survivor.retainingObservers.first)
    #expect(observer.registration.line == observeLine)
    #expect(observer.capture == "captures it")
    #expect(observer.tokenPath == "Document.token")
  }

  /// A `MainActorNotificationCenter`'s handler capturing the object that keeps its token (read by the
  /// report since main's registry layer: on the first commits of this corpus it named nothing).
  @MainActor @Test func aMainActorCentersHandlerCapturingTheObjectThatKeepsItsToken() async throws {
    let center = MainActorNotificationCenter()
    let tracker = LeakTracker()
    let observeLine = #line + 4
    weak var weakDocument: Document?
    do {
      let document = Document()
      document.token = center.observe(Tick.self) { _ in _ = document }
      tracker.track(document)
      weakDocument = document
    }
    let report = await tracker.checkForLeaks(timeout: .zero)
    let survivor = try #require(report.survivors.first)
    try Self.expectTheObserverIsNamed(in: survivor, observeLine: observeLine)
    weakDocument?.token?.cancel()
    weakDocument?.token = nil
    #expect(weakDocument == nil)
  }

  /// A `FoundationNotificationBridge`'s handler capturing the object that keeps its token: as for
  /// the main-actor center.
  @Test func aFoundationBridgesHandlerCapturingTheObjectThatKeepsItsToken() throws {
    let bridge = FoundationNotificationBridge(NotificationCenter())
    let tracker = LeakTracker()
    let observeLine = #line + 4
    weak var weakDocument: Document?
    do {
      let document = Document()
      document.token = bridge.observe(Saved.self) { _ in _ = document }
      tracker.track(document)
      weakDocument = document
    }
    let report = tracker.checkForLeaks(timeout: .zero)
    let survivor = try #require(report.survivors.first)
    try Self.expectTheObserverIsNamed(in: survivor, observeLine: observeLine)
    weakDocument?.token?.cancel()
    weakDocument?.token = nil
    #expect(weakDocument == nil)
  }
}
