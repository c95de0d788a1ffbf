import Dispatch
import PresentationModelTesting
import Testing

@Suite struct InstanceBudgetTests {
  private final class Inspector {
    init(budget: InstanceBudget) {
      budget.track(self, maximum: 1, group: "Panels")
    }
  }

  private final class Palette {
    init(budget: InstanceBudget) {
      budget.track(self, group: "Panels")
    }
  }

  @Test func withinBudgetWhileLimitsHold() {
    let budget = InstanceBudget()
    budget.limit(group: "Panels", to: 2)
    let inspector = Inspector(budget: budget)
    let palette = Palette(budget: budget)
    let report = budget.check()
    #expect(report.isWithinBudget)
    #expect(report.description == "Within budget")
    #expect(budget.liveCount(of: Inspector.self) == 1)
    #expect(budget.liveCount(inGroup: "Panels") == 2)
    _ = (inspector, palette)
  }

  @Test func reportsATypeOverItsLimit() {
    let budget = InstanceBudget()
    let inspectors = [Inspector(budget: budget), Inspector(budget: budget)]
    let report = budget.check()
    #expect(
      report.overruns == [
        BudgetReport.Overrun(
          subject: .type("PresentationModelTestingTests.InstanceBudgetTests.Inspector"), liveCount: 2, maximum: 1)
      ])
    #expect(report.description.contains("Inspector: 2 live, at most 1"))
    _ = inspectors
  }

  @Test(arguments: [2, 3, 5])
  func reportsAGroupOverItsLimit(liveCount: Int) {
    let budget = InstanceBudget()
    budget.limit(group: "Panels", to: 1)
    let palettes = (0..<liveCount).map { _ in Palette(budget: budget) }
    let report = budget.check()
    #expect(report.overruns.map(\.subject) == [.group("Panels")])
    #expect(report.overruns.map(\.liveCount) == [liveCount])
    #expect(report.description == "1 instance limit exceeded:\n- group \"Panels\": \(liveCount) live, at most 1")
    _ = palettes
  }

  @Test func deallocatedInstancesStopCounting() {
    let budget = InstanceBudget()
    let kept = Inspector(budget: budget)
    do {
      let extra = Inspector(budget: budget)
      #expect(!budget.check().isWithinBudget)
      _ = extra
    }
    #expect(budget.check().isWithinBudget)
    #expect(budget.liveCount(of: Inspector.self) == 1)
    _ = kept
  }

  @Test func trackingTwiceCountsOnce() {
    let budget = InstanceBudget()
    budget.limit(Palette.self, to: 1)
    let palette = Palette(budget: budget)
    budget.track(palette)
    #expect(budget.liveCount(of: Palette.self) == 1)
    #expect(budget.check().isWithinBudget)
  }

  @Test("Fails on purpose: expectWithinBudget fails at its call line")
  func expectWithinBudgetFailsAtItsCallLine() async {
    let budget = InstanceBudget()
    let inspectors = [Inspector(budget: budget), Inspector(budget: budget)]
    let checkLine = #line + 3
    var report = BudgetReport(overruns: [])
    await withKnownIssue {
      report = await expectWithinBudget(budget, timeout: .zero)
    } matching: { issue in
      issue.sourceLocation?.line == checkLine
        && issue.comments.contains { $0.rawValue.contains("Inspector: 2 live, at most 1") }
    }
    #expect(report.overruns.count == 1)
    _ = inspectors
  }

  @Test func expectWithinBudgetPassesQuietly() async {
    let budget = InstanceBudget()
    let inspector = Inspector(budget: budget)
    #expect(await expectWithinBudget(budget).isWithinBudget)
    _ = inspector
  }

  /// The synchronous form, which Swift picks in a synchronous test, fails at its own line too.
  @Test("Fails on purpose: the synchronous expectWithinBudget fails at its call line")
  func synchronousExpectWithinBudgetFailsAtItsCallLine() {
    let budget = InstanceBudget()
    let inspectors = [Inspector(budget: budget), Inspector(budget: budget)]
    let checkLine = #line + 3
    var report = BudgetReport(overruns: [])
    withKnownIssue {
      report = expectWithinBudget(budget, timeout: .zero)
    } matching: { issue in
      issue.sourceLocation?.line == checkLine
        && issue.comments.contains { $0.rawValue.contains("Inspector: 2 live, at most 1") }
    }
    #expect(report.overruns.count == 1)
    _ = inspectors
  }

  @Test func synchronousExpectWithinBudgetWaitsForAnExtraInstanceReleasedOnAnotherThread() {
    let budget = InstanceBudget()
    let kept = Inspector(budget: budget)
    let release = DelayedRelease()
    release.hold(Inspector(budget: budget))
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { release.completeAll() }
    #expect(expectWithinBudget(budget, timeout: .seconds(10)).isWithinBudget)
    _ = kept
  }
}
