import Foundation
import NodeEditorExample
import PresentationModel
import PresentationModelDiagnostics

/// One run of the demo: the shared notification centers, the ledger of everything made, and the
/// console the scenarios narrate to.
@MainActor
final class DemoRun {
  let options: DemoOptions
  let center = TypedNotificationCenter()
  /// The main-actor center and the bridge to `NotificationCenter.default`, for SyncStatus.
  let mainActorCenter = MainActorNotificationCenter()
  let bridge = FoundationNotificationBridge(NotificationCenter.default)
  let ledger = LifecycleLedger()
  var console = Console()
  /// Where `--leak` keeps the observation whose handler holds a deleted widget: the kind of
  /// stray strong reference the harness exists to catch.
  var deliberatelyLeaked: [ObserverToken] = []
  /// The opacity of each widget fading now, by node name, for the progress line.
  var fadingOpacities: [String: Double] = [:]
  /// How many opacity steps each widget fading now has taken, by node name.
  var fadeSteps: [String: Int] = [:]

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
      case .syncstatus: await playSyncStatus()
      }
      console.line()
    }
    return await report()
  }

  /// A live registration as the demo lists it, its owner told apart from others of its type: a
  /// NodeEditor widget by its title, any other owner as `expectNoObservers` does (its description,
  /// or the end of its address). Without it, two widgets' registrations would read the same.
  func describe(_ registration: RegistrationSnapshot) -> String {
    let info = registration.info
    if let widget = registration.owner as? NodeWidget {
      return info.description.replacingOccurrences(
        of: "observed by NodeWidget at ", with: "observed by NodeWidget '\(widget.title)' at ")
    }
    return SurvivorWording.observer(info, owner: registration.owner)
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

  /// Prints the lifecycle report, every figure taken at the same moment, after the scenarios let go
  /// of what they made; returns whether it is clean.
  private func report() async -> Bool {
    let leaks = await ledger.check()
    let registrations =
      (center.registrationSnapshots + mainActorCenter.registrationSnapshots
      + bridge.registrationSnapshots).map(describe)
    heading("Lifecycle report")
    say("objects tracked: \(leaks.trackedCount)")
    say("live instances per type:")
    for (typeName, live, tracked) in ledger.liveCountsByType {
      say("  \(typeName): \(live) live of \(tracked)")
    }
    say("live registrations: \(registrations.count)")
    for registration in registrations { say("  \(registration)") }
    // The leak harness's own report: each survivor with its `track` call and what holds it.
    for line in leaks.description.split(separator: "\n") { say(String(line)) }
    let clean = registrations.isEmpty && !leaks.hasLeaks
    console.line(
      clean
        ? "RESULT: clean. Every object deinitialised and every observer is gone."
        : "RESULT: LEAK. \(leaks.survivors.count) survivor(s), \(registrations.count) live registration(s).")
    return clean
  }
}
