import PresentationModelTesting
import Synchronization
import XCTest

/// `detectingLeaks(_:)` around `invokeTest()`, checked from the inside: each `testFailsOnPurpose…`
/// declares the failures it expects; they are captured instead of recorded, and once the check has
/// run (after `super.invokeTest()` returns) a test whose failures are not the declared ones, or
/// whose name and expectation disagree, fails for real.
final class XCTestLeakDetectionTests: XCTestCase {
  final class Node {
    var next: Node?
  }

  /// A node made in a child task (which inherits the test's task-locals) and kept there.
  final class Holder: @unchecked Sendable {
    // @unchecked Sendable: `node` is set once, in the child task, before the holder is returned.
    var node: Node?
  }

  struct Ping: TypedNotification {}

  /// Kept for the process's lifetime, as an app-wide service would be.
  private static let appWide = TypedNotificationCenter()
  private static let kept = Mutex<[AnyObject]>([])

  /// What the current test expects to see in its failures, one fragment each.
  private let expected = Mutex<[String]>([])
  private let captured = Mutex<[String]>([])

  private func expectFailure(mentioning fragment: String) {
    expected.withLock { $0.append(fragment) }
  }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      if expected.withLock({ !$0.isEmpty }) {
        captured.withLock { $0.append(issue.compactDescription) }
      } else {
        super.record(issue)
      }
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      if self.expected.withLock({ !$0.isEmpty }) {
        captured.withLock { $0.append(description) }
      } else {
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }
  #endif

  override func invokeTest() {
    detectingLeaks(.everyObject, timeout: .milliseconds(50)) { super.invokeTest() }
    let expected = expected.withLock { expected in
      defer { expected.removeAll() }
      return expected
    }
    let captured = captured.withLock { captured in
      defer { captured.removeAll() }
      return captured
    }
    let failsOnPurpose = name.contains("testFailsOnPurpose")
    if failsOnPurpose != !expected.isEmpty {
      XCTFail("\(name): a test named testFailsOnPurpose… must expect a failure, and only such a test may")
    }
    for fragment in expected where !captured.contains(where: { $0.contains(fragment) }) {
      XCTFail("\(name): no failure mentioning \"\(fragment)\" among \(captured)")
    }
    if captured.count != expected.count {
      XCTFail("\(name): \(expected.count) failures expected, \(captured.count) recorded: \(captured)")
    }
  }

  func testFailsOnPurposeACycleNobodyTrackedIsReported() {
    expectFailure(mentioning: "Leaked PresentationModelTestingTests.XCTestLeakDetectionTests.Node, made in this test")
    let node = Node()
    node.next = node
  }

  func testFailsOnPurposeAnAsyncTestsLeakIsReported() async {
    expectFailure(mentioning: "Leaked PresentationModelTestingTests.XCTestLeakDetectionTests.Node, made in this test")
    let holder = await Task {
      let holder = Holder()
      holder.node = Node()
      holder.node?.next = holder.node
      return holder
    }.value
    holder.node = nil
  }

  func testFailsOnPurposeAnObserverLeftRegisteredIsReported() {
    expectFailure(mentioning: "Observer still registered")
    let token = Self.appWide.observe(Ping.self) { _ in }
    Self.kept.withLock { $0.append(token) }
  }

  func testWhatGoesLeavesNothing() {
    let node = Node()
    node.next = Node()
    let token = Self.appWide.observe(Ping.self) { _ in }
    token.cancel()
  }
}
