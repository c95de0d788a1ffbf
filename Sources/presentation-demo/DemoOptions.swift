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

    /// Whether the scenario deletes widgets with a fade, what `--leak`, `--slow`, `--fade-ms` and
    /// `--steps` act on: only the NodeEditor does.
    var fadesWidgets: Bool { self == .nodeeditor }
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

    Options (write a value as --scenario nodeeditor or --scenario=nodeeditor):
      --scenario <name>  touchtracker, nodeeditor, settingsmenu (or settings), syncstatus or all, in
                         any case (default: all)
      --leak             keep one deleted NodeEditor widget alive on purpose, to see what a failing
                         report looks like
      --slow             fade over \(slowFadeMilliseconds / 1_000) s in \(slowSteps) steps, slow enough to watch
      --fade-ms <n>      how long a widget takes to fade out, in milliseconds, 1...60000 (default: 600)
      --steps <n>        how many opacity steps a fade takes, 1...1000 (default: 12)
      -h, --help         show this help
    \(rule)
    """

  /// The one rule for options that cannot apply, as `--help` states it.
  static let rule = """
    Each option may be given once, and must have something to act on: --leak, --slow, --fade-ms
    and --steps act on the NodeEditor's fades, so with only other scenarios they are refused (exit 2).
    """

  /// The options that act on the NodeEditor's fades, and what each does there, for the error that
  /// refuses one without the NodeEditor.
  static let fadeOptions: [(option: String, action: String)] = [
    ("--leak", "keeps a deleted NodeEditor widget alive"),
    ("--slow", "slows the NodeEditor's fades"),
    ("--fade-ms", "sets how long the NodeEditor's fades take"),
    ("--steps", "sets how many steps the NodeEditor's fades take"),
  ]

  /// A mistake on the command line, described for the person who made it.
  struct ParseError: Error, Equatable {
    let message: String
  }

  /// Parses `arguments` (without the program name). A value follows its option as the next
  /// argument or after `=` (`--fade-ms=300`).
  static func parse(_ arguments: [String]) throws(ParseError) -> DemoOptions {
    var options = DemoOptions()
    var remaining = arguments[...]
    var seen: Set<String> = []
    while let argument = remaining.popFirst() {
      var option = argument == "-h" ? "--help" : argument
      var inlineValue: String?
      if option.hasPrefix("--"), let equals = option.firstIndex(of: "=") {
        inlineValue = String(option[option.index(after: equals)...])
        option = String(option[..<equals])
      }
      guard seen.insert(option).inserted else {
        throw ParseError(message: "\(option) is given twice; give each option once")
      }
      func value() throws(ParseError) -> String {
        if let inlineValue {
          guard !inlineValue.isEmpty else { throw ParseError(message: "\(option) needs a value") }
          return inlineValue
        }
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
          throw ParseError(message: "\(option) needs a value")
        }
        return value
      }
      func number(in range: ClosedRange<Int>) throws(ParseError) -> Int {
        let text = try value()
        guard let number = Int(text), range.contains(number) else {
          throw ParseError(
            message: "\(option) must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
      }
      func flag() throws(ParseError) {
        if let inlineValue { throw ParseError(message: "\(option) takes no value, got '\(option)=\(inlineValue)'") }
      }
      switch option {
      case "--help":
        try flag()
        options.showHelp = true
      case "--leak":
        try flag()
        options.leak = true
      case "--slow":
        try flag()
        options.fadeMilliseconds = slowFadeMilliseconds
        options.steps = slowSteps
      case "--fade-ms":
        options.fadeMilliseconds = try number(in: 1...60_000)
      case "--steps":
        options.steps = try number(in: 1...1_000)
      case "--scenario":
        let name = try value()
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
    // The one rule: an option must have something to act on in the scenarios chosen.
    if !options.scenarios.contains(where: \.fadesWidgets) {
      for (option, action) in fadeOptions where seen.contains(option) {
        let names = options.scenarios.map(\.exampleName).joined(separator: ", ")
        throw ParseError(
          message: "\(option) \(action), but \(names) fades no widget; use \(option) with --scenario nodeeditor or all")
      }
    }
    return options
  }
}
