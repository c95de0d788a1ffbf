import Foundation

/// The demo's command line, parsed.
struct DemoOptions: Equatable {
  enum Scenario: String, CaseIterable {
    case touchtracker
    case nodeeditor
    case settingsmenu
    case syncstatus

    /// The example's own name, as its guide and its target spell it.
    var exampleName: String {
      switch self {
      case .touchtracker: "TouchTracker"
      case .nodeeditor: "NodeEditor"
      case .settingsmenu: "SettingsMenu"
      case .syncstatus: "SyncStatus"
      }
    }

    /// The bug the example's design rules out, in one line.
    var preventedBug: String {
      switch self {
      case .touchtracker:
        "a menu still offering Delete after its selected line is gone"
      case .nodeeditor:
        "a deleted node's widget and its observers outliving the fade"
      case .settingsmenu:
        "an open menu that closes or shows stale check marks when a setting changes"
      case .syncstatus:
        "a closed panel's badge still updated by a NotificationCenter post it observed"
      }
    }

    /// The centers the example shows.
    var centers: String {
      switch self {
      case .touchtracker, .nodeeditor, .settingsmenu: "TypedNotificationCenter"
      case .syncstatus: "NotificationCenter through FoundationNotificationBridge into MainActorNotificationCenter"
      }
    }

    /// Whether `--leak` has something to leak here: only the NodeEditor deletes a widget.
    var hasLeakPath: Bool { self == .nodeeditor }
  }

  /// How `--slow` fades: long enough, in steps fine enough, for a person to watch.
  static let slowFadeMilliseconds = 4_000
  static let slowSteps = 40

  var scenarios: [Scenario] = Scenario.allCases
  var fadeMilliseconds = 600
  var steps = 12
  var leak = false
  var showHelp = false

  static let usage = """
    Usage: presentation-demo [options]

    Plays the four examples of PresentationModel, TouchTracker, NodeEditor, SettingsMenu and
    SyncStatus, with real Dispatch timing, then prints a lifecycle report: live instances per
    type, live observer registrations with the line that made them, and survivors with what holds
    each, in the words of the leak harness. Exits 0 when nothing leaked, 1 when something did, 2 on
    bad arguments.

    What each example prevents, and the centers it uses:
    \(Scenario.allCases.map { "  \($0.exampleName.padding(toLength: 14, withPad: " ", startingAt: 0))\($0.preventedBug)\n  \("".padding(toLength: 14, withPad: " ", startingAt: 0))(\($0.centers))" }.joined(separator: "\n"))

    Options:
      --scenario <name>  touchtracker, nodeeditor, settingsmenu (or settings), syncstatus or all, in
                         any case (default: all)
      --slow             fade over \(slowFadeMilliseconds / 1_000) s in \(slowSteps) steps, slow enough to watch
      --fade-ms <n>      how long a widget takes to fade out, in milliseconds, 1...60000 (default: 600)
      --steps <n>        how many opacity steps a fade takes, 1...1000 (default: 12)
      --leak             keep one deleted NodeEditor widget alive on purpose, to see what a failing
                         report looks like (needs the nodeeditor scenario)
      -h, --help         show this help
    Each option may be given once.
    """

  /// A mistake on the command line, described for the person who made it.
  struct ParseError: Error, Equatable {
    let message: String
  }

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(ParseError) -> DemoOptions {
    var options = DemoOptions()
    var remaining = arguments[...]
    var seen: Set<String> = []
    func value(for flag: String) throws(ParseError) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw ParseError(message: "\(flag) needs a value")
      }
      return value
    }
    func number(for flag: String, in range: ClosedRange<Int>) throws(ParseError) -> Int {
      let text = try value(for: flag)
      guard let number = Int(text), range.contains(number) else {
        throw ParseError(
          message: "\(flag) must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
      }
      return number
    }
    while let argument = remaining.popFirst() {
      let option = argument == "-h" ? "--help" : argument
      guard seen.insert(option).inserted else {
        throw ParseError(message: "\(option) is given twice; give each option once")
      }
      switch option {
      case "--help":
        options.showHelp = true
      case "--leak":
        options.leak = true
      case "--slow":
        options.fadeMilliseconds = slowFadeMilliseconds
        options.steps = slowSteps
      case "--fade-ms":
        options.fadeMilliseconds = try number(for: argument, in: 1...60_000)
      case "--steps":
        options.steps = try number(for: argument, in: 1...1_000)
      case "--scenario":
        let name = try value(for: argument)
        let key = name.lowercased()
        if key == "all" {
          options.scenarios = Scenario.allCases
        } else if let scenario = Scenario(rawValue: key == "settings" ? "settingsmenu" : key) {
          options.scenarios = [scenario]
        } else {
          throw ParseError(
            message: "unknown scenario '\(name)'; choose touchtracker, nodeeditor, settingsmenu, syncstatus or all")
        }
      default:
        throw ParseError(message: "unknown argument '\(argument)'")
      }
    }
    if seen.contains("--slow") {
      for conflicting in ["--fade-ms", "--steps"] where seen.contains(conflicting) {
        throw ParseError(message: "--slow sets the fade's length and steps; give either --slow or \(conflicting)")
      }
    }
    if options.leak, !options.scenarios.contains(where: \.hasLeakPath) {
      let names = options.scenarios.map(\.exampleName).joined(separator: ", ")
      throw ParseError(
        message: "--leak keeps a deleted NodeEditor widget alive, but \(names) deletes no widget; "
          + "use --leak with --scenario nodeeditor or all")
    }
    return options
  }
}
