import PresentationModelDiagnostics
import Testing

/// The in-app report, tested against the diagnostics product alone (no harness).
@Suite struct InstanceReportTests {
  private final class Inspector {
    init(budget: InstanceBudget) {
      budget.track(self, maximum: 1, group: "Panels")
    }
  }

  private final class Palette {}

  private static let inspectorName = "PresentationModelDiagnosticsTests.InstanceReportTests.Inspector"
  private static let paletteName = "PresentationModelDiagnosticsTests.InstanceReportTests.Palette"
  private static let file = "PresentationModelDiagnosticsTests/InstanceReportTests.swift"

  @Test func countsEachTypeAndGroupAndSaysWhereTheLiveOnesWereTracked() {
    let budget = InstanceBudget()
    budget.limit(group: "Panels", to: 5)
    let inspector = Inspector(budget: budget)
    let palettes = [Palette(), Palette()]
    let paletteLine = #line + 1
    for palette in palettes { budget.track(palette, group: "Panels") }

    let report = budget.report()
    #expect(
      report.types == [
        InstanceReport.TypeCount(
          typeName: Self.inspectorName, liveCount: 1, maximum: 1,
          sites: [InstanceReport.SiteCount(site: InstanceReport.Site(fileID: Self.file, line: 8), liveCount: 1)]),
        InstanceReport.TypeCount(
          typeName: Self.paletteName, liveCount: 2, maximum: nil,
          sites: [
            InstanceReport.SiteCount(site: InstanceReport.Site(fileID: Self.file, line: paletteLine), liveCount: 2)
          ]),
      ])
    #expect(report.groups == [InstanceReport.GroupCount(name: "Panels", liveCount: 3, maximum: 5)])
    #expect(report.liveCount == 3)
    #expect(report.isWithinBudget)
    #expect(
      report.description == """
        3 live instances, within budget
        \(Self.inspectorName): 1 live, at most 1
          1 tracked at \(Self.file):8
        \(Self.paletteName): 2 live, no limit
          2 tracked at \(Self.file):\(paletteLine)
        group "Panels": 3 live, at most 5
        """)
    _ = (inspector, palettes)
  }

  @Test func marksWhatIsOverBudgetAndAgreesWithCheck() {
    let budget = InstanceBudget()
    budget.limit(group: "Panels", to: 1)
    let inspectors = [Inspector(budget: budget), Inspector(budget: budget)]
    let report = budget.report()
    #expect(!report.isWithinBudget)
    #expect(report.overruns == budget.check().overruns)
    #expect(
      report.overruns.map(\.description).sorted() == [
        "\(Self.inspectorName): 2 live, at most 1", "group \"Panels\": 2 live, at most 1",
      ])
    let lines = report.description.split(separator: "\n").map(String.init)
    #expect(lines.first == "2 live instances, 2 limits exceeded")
    #expect(lines.contains("\(Self.inspectorName): 2 live, at most 1, OVER BUDGET"))
    #expect(lines.contains("  2 tracked at \(Self.file):8"))
    #expect(lines.contains("group \"Panels\": 2 live, at most 1, OVER BUDGET"))
    _ = inspectors
  }

  @Test func deallocatedInstancesLeaveTheReportButLimitsStay() {
    let budget = InstanceBudget()
    budget.limit(Palette.self, to: 0)
    do {
      let inspector = Inspector(budget: budget)
      budget.track(Palette())  // released at once
      #expect(budget.report().liveCount == 1)
      _ = inspector
    }
    let report = budget.report()
    #expect(report.liveCount == 0)
    #expect(report.isWithinBudget)
    #expect(
      report.types.map(\.description) == [
        "\(Self.inspectorName): 0 live, at most 1", "\(Self.paletteName): 0 live, at most 0",
      ])
    #expect(report.groups.isEmpty)  // no live member and no limit
  }

  @Test func anEmptyBudgetReportsNothingLive() {
    #expect(InstanceBudget().report().description == "0 live instances, within budget")
  }

  @Test func sitesWithMoreLiveInstancesComeFirst() {
    let few = InstanceReport.SiteCount(site: InstanceReport.Site(fileID: "A/A.swift", line: 1), liveCount: 1)
    let many = InstanceReport.SiteCount(site: InstanceReport.Site(fileID: "B/B.swift", line: 9), liveCount: 4)
    let tie = InstanceReport.SiteCount(site: InstanceReport.Site(fileID: "A/A.swift", line: 7), liveCount: 1)
    let type = InstanceReport.TypeCount(typeName: "T", liveCount: 6, maximum: nil, sites: [tie, few, many])
    #expect(type.sites == [many, few, tie])
  }

  @Test(.timeLimit(.minutes(1))) func aSiteCountOfNoLiveInstancesIsAPreconditionFailureThatSaysSo() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = InstanceReport.SiteCount(site: InstanceReport.Site(fileID: "A/A.swift", line: 1), liveCount: 0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("needs a live count of one or more, not 0"), "stderr was: \(message)")
  }

  @Test(.timeLimit(.minutes(1))) func anOverrunWithinItsMaximumIsAPreconditionFailureThatSaysSo() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = BudgetReport.Overrun(subject: .group("Panels"), liveCount: 3, maximum: 3)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains("needs more live instances than its maximum, not 3 with at most 3"), "stderr was: \(message)")
  }
}
