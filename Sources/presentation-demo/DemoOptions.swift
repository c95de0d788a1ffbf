/// The demo's command line, parsed.
struct DemoOptions: Equatable {
  enum Scenario: String, CaseIterable {
    case touchtracker
    case nodeeditor
    case settings
  }

  var scenarios: [Scenario] = Scenario.allCases
  var fadeMilliseconds = 600
  var steps = 12
  var leak = false
  var showHelp = false

  static let usage = """
    Usage: presentation-demo [options]

    Plays the seed scenarios of PresentationModel with real Dispatch timing, then prints a lifecycle
    report: live instances per type, live observer registrations with the line that made them, and
    survivors. Exits 0 when nothing leaked, 1 when something did, 2 on bad arguments.

    Options:
      --scenario <name>  touchtracker, nodeeditor, settings or all (default: all)
      --fade-ms <n>      how long a widget takes to fade out, in milliseconds, 1...60000 (default: 600)
      --steps <n>        how many opacity steps a fade takes, 1...1000 (default: 12)
      --leak             keep one deleted widget alive on purpose, to see what a failing report looks like
      -h, --help         show this help
    """

  /// A mistake on the command line, described for the person who made it.
  struct ParseError: Error, Equatable {
    let message: String
  }

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(ParseError) -> DemoOptions {
    var options = DemoOptions()
    var remaining = arguments[...]
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
      switch argument {
      case "-h", "--help":
        options.showHelp = true
      case "--leak":
        options.leak = true
      case "--fade-ms":
        options.fadeMilliseconds = try number(for: argument, in: 1...60_000)
      case "--steps":
        options.steps = try number(for: argument, in: 1...1_000)
      case "--scenario":
        let name = try value(for: argument)
        if name == "all" {
          options.scenarios = Scenario.allCases
        } else if let scenario = Scenario(rawValue: name) {
          options.scenarios = [scenario]
        } else {
          throw ParseError(message: "unknown scenario '\(name)'; choose touchtracker, nodeeditor, settings or all")
        }
      default:
        throw ParseError(message: "unknown argument '\(argument)'")
      }
    }
    return options
  }
}
