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
  let report = budget.check()
  if !report.isWithinBudget {
    FailureReporter.fail(
      report.description, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }
  return report
}
