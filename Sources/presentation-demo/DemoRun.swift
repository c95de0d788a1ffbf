import PresentationModel

/// One run of the demo: the shared notification center, the ledger of everything made, and the
/// console the scenarios narrate to.
@MainActor
final class DemoRun {
  let options: DemoOptions
  let center = TypedNotificationCenter()
  let ledger = LifecycleLedger()
  var console = Console()
  /// Where `--leak` keeps a deleted widget alive: the kind of stray strong reference the harness
  /// exists to catch.
  var deliberatelyLeaked: [AnyObject] = []
  /// The opacity of each widget fading now, by node name, for the progress line.
  var fadingOpacities: [String: Double] = [:]
  /// Leaks a scenario noticed while running, for the report.
  var problems: [String] = []

  init(options: DemoOptions) {
    self.options = options
  }

  /// Plays the chosen scenarios, then prints the report; returns whether nothing leaked.
  func play() async -> Bool {
    for scenario in options.scenarios {
      switch scenario {
      case .touchtracker: playTouchTracker()
      case .nodeeditor: await playNodeEditor()
      case .settingsmenu: playSettings()
      }
      console.line()
    }
    return report()
  }

  func heading(_ title: String) {
    console.line("== \(title)")
  }

  /// The scenario's heading, then the bug its example's design prevents.
  func introduce(_ scenario: DemoOptions.Scenario, _ story: String) {
    heading("\(scenario.exampleName): \(story)")
    say("prevents: \(scenario.preventedBug)")
  }

  func say(_ text: String) {
    console.line("  " + text)
  }

  /// Prints the lifecycle report; returns whether it is clean.
  private func report() -> Bool {
    let registrations = center.registrations
    let survivors = ledger.survivors
    heading("Lifecycle report")
    say("objects tracked: \(ledger.trackedCount)")
    say("live instances per type:")
    for (typeName, live, tracked) in ledger.liveCountsByType {
      say("  \(typeName): \(live) live of \(tracked)")
    }
    say("live registrations: \(registrations.count)")
    for registration in registrations { say("  \(registration)") }
    say("survivors: \(survivors.count)")
    for survivor in survivors { say("  \(survivor)") }
    if !problems.isEmpty {
      say("seen during the scenarios:")
      for problem in problems { say("  \(problem)") }
    }
    let clean = registrations.isEmpty && survivors.isEmpty && problems.isEmpty
    console.line(
      clean
        ? "RESULT: clean. Every object deinitialised and every observer is gone."
        : "RESULT: LEAK. \(survivors.count) survivor(s), \(registrations.count) live registration(s), "
          + "\(problems.count) problem(s) seen during the scenarios.")
    return clean
  }
}
