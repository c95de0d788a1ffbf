// An app's debug checkpoint: count panels against a budget, print the report, look for leaks.
import PresentationModelDiagnostics

final class Inspector {
  init(budget: InstanceBudget) {
    budget.track(self, maximum: 1, group: "Panels")
  }
}

let budget = InstanceBudget()
budget.limit(group: "Panels", to: 3)
let inspectors = [Inspector(budget: budget), Inspector(budget: budget)]
print(budget.report())

let tracker = LeakTracker()
do {
  let closed = Inspector(budget: budget)
  tracker.track(closed)
}
let leaks = tracker.checkForLeaks(timeout: .zero)
print(leaks)
withExtendedLifetime(inspectors) {}
