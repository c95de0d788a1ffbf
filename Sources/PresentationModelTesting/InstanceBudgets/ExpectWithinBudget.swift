/// Expects every type and group in `budget` to be within its limit, waiting up to `timeout` for
/// extra instances to deallocate; fails at this line with the `BudgetReport` otherwise.
///
/// ```swift
/// import PresentationModelTesting
///
/// final class Inspector {}
///
/// func example() async {
///   let budget = InstanceBudget()
///   budget.limit(Inspector.self, to: 1)
///   let inspector = Inspector()
///   budget.track(inspector)
///   await expectWithinBudget(budget)
///   _ = inspector
/// }
/// ```
///
/// Works in Swift Testing tests (records an issue) and XCTest tests (fails the test).
///
/// - Parameters:
///   - budget: The budget to check.
///   - timeout: How long extra instances may take to go away. `.zero` checks once.
///   - fileID: Leave the default.
///   - filePath: Leave the default.
///   - line: Leave the default; the failure is reported at this line.
///   - column: Leave the default.
/// - Returns: The final report.
@discardableResult
public func expectWithinBudget(
  _ budget: InstanceBudget, timeout: Duration = LeakTracker.defaultTimeout, fileID: StaticString = #fileID,
  filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) async -> BudgetReport {
  await Polling.poll(timeout: timeout) { budget.check().isWithinBudget }
  return finalReport(budget, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// The synchronous form of `expectWithinBudget(_:)`, which Swift picks in synchronous code (an
/// XCTest method, a synchronous `@Test`): it blocks while it waits, running the run loop between
/// checks on the main thread.
///
/// ```swift
/// import PresentationModelTesting
/// import XCTest
///
/// final class Inspector {}
///
/// final class InspectorTests: XCTestCase {
///   func testOneInspectorIsWithinBudget() {
///     let budget = InstanceBudget()
///     budget.limit(Inspector.self, to: 1)
///     let inspector = Inspector()
///     budget.track(inspector)
///     expectWithinBudget(budget)
///     _ = inspector
///   }
/// }
/// ```
///
/// - Returns: The final report.
@discardableResult
public func expectWithinBudget(
  _ budget: InstanceBudget, timeout: Duration = LeakTracker.defaultTimeout, fileID: StaticString = #fileID,
  filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) -> BudgetReport {
  Polling.pollBlocking(timeout: timeout) { budget.check().isWithinBudget }
  return finalReport(budget, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Checks `budget` once more and fails at `site` with the report when it is over.
private func finalReport(_ budget: InstanceBudget, at site: CallSite) -> BudgetReport {
  let report = budget.check()
  if !report.isWithinBudget { FailureReporter.fail(report.description, at: site) }
  return report
}
