import Testing
public import XCTest

extension XCTestCase {
  /// Runs `body`, usually `super.invokeTest()`, and fails the test for what it left behind, as
  /// `@Test(.detectsLeaks(level))` does in Swift Testing: registrations still live and widgets not
  /// gone (``LeakDetectionTrait/Level/observersAndWidgets``), and with
  /// ``LeakDetectionTrait/Level/everyObject`` every object of the test process's own classes that it
  /// allocated and left alive, with nothing annotated.
  ///
  /// Override `invokeTest()` in a test case class (or a base class of yours) to check every test of
  /// it, set-up, teardown blocks and `tearDown()` included:
  ///
  /// ```swift
  /// import PresentationModelTesting
  /// import XCTest
  ///
  /// final class Gallery {
  ///   var onChange: (() -> Void)?
  /// }
  ///
  /// final class GalleryTests: XCTestCase {
  ///   override func invokeTest() {
  ///     detectingLeaks(.everyObject) { super.invokeTest() }
  ///   }
  ///
  ///   func testGalleryIsReleased() {
  ///     let gallery = Gallery()
  ///     gallery.onChange = { [weak gallery] in _ = gallery }
  ///   }
  /// }
  /// ```
  ///
  /// When `body` returns, it waits up to `timeout` for what the test made to go (on the main
  /// thread it runs the run loop meanwhile), then fails the test once per leftover, at this call,
  /// each message saying where the leftover was made. What `body` makes on other threads (Dispatch
  /// blocks, `Thread`s) and in detached tasks is not checked; an async test method, which XCTest
  /// runs in a task it starts from `invokeTest()`, is.
  ///
  /// - Parameters:
  ///   - level: What is checked: `.observersAndWidgets` (the default) or `.everyObject`
  ///     (`.trackedObjects` checks nothing more than `trackForLeaks(_:)` does).
  ///   - ignoredTypes: With `.everyObject`, classes that do not count.
  ///   - modules: With `.everyObject`, when not empty, only classes declared in these modules count.
  ///   - timeout: How long what the test made may take to go after `body` returns.
  ///   - fileID: Leave the default.
  ///   - file: Leave the default; failures are reported in this file.
  ///   - line: Leave the default; failures are reported at this line.
  ///   - body: The test: `super.invokeTest()`.
  public func detectingLeaks(
    _ level: LeakDetectionTrait.Level = .observersAndWidgets, ignoring ignoredTypes: [any AnyObject.Type] = [],
    modules: [String] = [], timeout: Duration = LeakTracker.defaultTimeout, fileID: StaticString = #fileID,
    file: StaticString = #filePath, line: UInt = #line, _ body: () -> Void
  ) {
    let location = SourceLocation(
      fileID: String(describing: fileID), filePath: String(describing: file), line: Int(line), column: 1)
    let log = LeakScopeLog()
    let tracker = LeakTracker(log: log)
    let everyObject = LeakDetectionTrait.openEveryObjectScope(
      level, ignoring: ignoredTypes, modules: modules, at: location)
    LeakScopeLog.withScope(log) {
      if let everyObject {
        everyObject.withTracking(body)
      } else {
        body()
      }
    }
    let findings = LeakFindings.collectBlocking(
      tracker: tracker, log: log, everyObject: everyObject, level: level, timeout: timeout, test: location)
    findings.failInXCTest(file: file, line: line)
  }
}
