import Foundation
import Testing

@testable import presentation_demo

@Suite struct DemoOptionsTests {
  private static func parseError(_ arguments: [String]) -> String? {
    do {
      _ = try DemoOptions.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func noArgumentsPlayEveryScenarioAtTheDefaultPace() throws {
    let options = try DemoOptions.parse([])
    #expect(options.scenarios == [.touchtracker, .nodeeditor, .settingsmenu, .syncstatus])
    #expect(options.fadeMilliseconds == 600 && options.steps == 12)
    #expect(!options.leak && !options.showHelp)
  }

  @Test func slowMakesTheFadeLongEnoughToWatch() throws {
    let options = try DemoOptions.parse(["--slow", "--scenario", "nodeeditor"])
    #expect(options.fadeMilliseconds == 4_000 && options.steps == 40)
    #expect(options.scenarios == [.nodeeditor])
  }

  @Test(arguments: [["--slow", "--fade-ms", "100"], ["--steps", "3", "--slow"]])
  func slowWithAnExplicitFadeIsAnError(arguments: [String]) throws {
    let message = try #require(Self.parseError(arguments))
    #expect(message.hasPrefix("--slow sets the fade's length and steps; give either --slow or --"))
  }

  @Test(arguments: [
    (["--leak", "--leak"], "--leak"),
    (["--scenario", "nodeeditor", "--scenario", "settings"], "--scenario"),
    (["--fade-ms", "100", "--fade-ms", "200"], "--fade-ms"),
    (["--steps", "2", "--steps", "2"], "--steps"),
    (["--slow", "--slow"], "--slow"),
    (["-h", "--help"], "--help"),
  ])
  func aRepeatedOptionIsAnError(arguments: [String], option: String) throws {
    let message = try #require(Self.parseError(arguments))
    #expect(message == "\(option) is given twice; give each option once")
  }

  @Test(arguments: ["touchtracker", "settings", "settingsmenu", "syncstatus"])
  func leakWithAScenarioThatDeletesNoWidgetIsAnError(scenario: String) throws {
    let message = try #require(Self.parseError(["--leak", "--scenario", scenario]))
    #expect(message.hasPrefix("--leak keeps a deleted NodeEditor widget alive, but "))
    #expect(message.hasSuffix("fades no widget; use --leak with --scenario nodeeditor or all"))
  }

  @Test(arguments: [["--leak"], ["--leak", "--scenario", "all"], ["--scenario", "nodeeditor", "--leak"]])
  func leakWithTheNodeEditorIsAccepted(arguments: [String]) throws {
    let options = try DemoOptions.parse(arguments)
    #expect(options.leak)
    #expect(options.scenarios.contains(.nodeeditor))
  }

  /// The one rule `--help` states: each option that acts on the NodeEditor's fades is refused,
  /// the same way, in every scenario where nothing fades (before, `--leak` was refused there and
  /// `--slow`, `--fade-ms` and `--steps` were silently ignored).
  @Test(
    arguments: [["--leak"], ["--slow"], ["--fade-ms", "100"], ["--steps", "3"]],
    ["touchtracker", "settings", "syncstatus"])
  func everyFadeOptionIsRefusedWhereNothingFades(option: [String], scenario: String) throws {
    let message = try #require(Self.parseError(option + ["--scenario", scenario]))
    let name = option[0]
    let action = try #require(DemoOptions.fadeOptions.first { $0.option == name }?.action)
    let example = try DemoOptions.parse(["--scenario", scenario]).scenarios[0].exampleName
    #expect(
      message == "\(name) \(action), but \(example) fades no widget; use \(name) with --scenario nodeeditor or all")
  }

  @Test(arguments: [["--leak"], ["--slow"], ["--fade-ms", "100"], ["--steps", "3"]], ["nodeeditor", "all"])
  func everyFadeOptionIsAcceptedWithTheNodeEditor(option: [String], scenario: String) throws {
    let options = try DemoOptions.parse(["--scenario", scenario] + option)
    #expect(options.scenarios.contains(.nodeeditor))
  }

  @Test func theHelpStatesTheRuleForOptionsThatCannotApply() {
    #expect(DemoOptions.usage.hasSuffix(DemoOptions.rule))
    for (option, _) in DemoOptions.fadeOptions {
      #expect(DemoOptions.rule.contains(option))
    }
    #expect(DemoOptions.rule.contains("refused (exit 2)"))
  }

  @Test func aValueMayFollowItsOptionAfterAnEqualsSign() throws {
    let options = try DemoOptions.parse(["--scenario=NodeEditor", "--fade-ms=300", "--steps=5", "--leak"])
    #expect(options.scenarios == [.nodeeditor])
    #expect(options.fadeMilliseconds == 300 && options.steps == 5 && options.leak)
    #expect(try DemoOptions.parse(["--scenario=settings"]).scenarios == [.settingsmenu])
  }

  @Test(arguments: [
    (["--leak=yes"], "--leak takes no value, got '--leak=yes'"),
    (["--slow="], "--slow takes no value, got '--slow='"),
    (["--help=me"], "--help takes no value, got '--help=me'"),
    (["--scenario="], "--scenario needs a value"),
    (["--fade-ms=abc"], "--fade-ms must be a whole number in 1...60000, got 'abc'"),
    (["--steps=2", "--steps", "3"], "--steps is given twice; give each option once"),
    (
      ["--scenario=seeds"], "unknown scenario 'seeds'; choose touchtracker, nodeeditor, settingsmenu, syncstatus or all"
    ),
  ])
  func badValuesAfterAnEqualsSignSayWhatIsWrong(arguments: [String], expected: String) {
    #expect(Self.parseError(arguments) == expected)
  }

  /// `--help` writes the names as the examples do (NodeEditor); any case is accepted.
  @Test(arguments: ["NodeEditor", "NODEEDITOR", "nodeEditor"])
  func scenarioNamesIgnoreCase(name: String) throws {
    #expect(try DemoOptions.parse(["--scenario", name]).scenarios == [.nodeeditor])
  }

  @Test func allAndSettingsIgnoreCaseToo() throws {
    #expect(try DemoOptions.parse(["--scenario", "All"]).scenarios == DemoOptions.Scenario.allCases)
    #expect(try DemoOptions.parse(["--scenario", "Settings"]).scenarios == [.settingsmenu])
    #expect(try DemoOptions.parse(["--scenario", "SettingsMenu"]).scenarios == [.settingsmenu])
  }

  @Test func settingsIsAnotherNameForTheSettingsMenu() throws {
    #expect(try DemoOptions.parse(["--scenario", "settings"]).scenarios == [.settingsmenu])
    #expect(try DemoOptions.parse(["--scenario", "settingsmenu"]).scenarios == [.settingsmenu])
  }

  @Test(arguments: [
    (
      ["--scenario", "seeds"],
      "unknown scenario 'seeds'; choose touchtracker, nodeeditor, settingsmenu, syncstatus or all"
    ),
    (["--fade-ms", "0"], "--fade-ms must be a whole number in 1...60000, got '0'"),
    (["--steps"], "--steps needs a value"),
    (["--fast"], "unknown argument '--fast'"),
  ])
  func badValuesSayWhatIsWrong(arguments: [String], expected: String) {
    #expect(Self.parseError(arguments) == expected)
  }

  @Test func theHelpNamesEachExampleAndTheBugItPrevents() {
    for scenario in DemoOptions.Scenario.allCases {
      #expect(DemoOptions.usage.contains("  \(scenario.exampleName)"))
      #expect(DemoOptions.usage.contains(scenario.preventedBug))
      #expect(DemoOptions.usage.contains("(\(scenario.centers))"))
    }
    #expect(DemoOptions.usage.contains("TouchTracker, NodeEditor, SettingsMenu and\nSyncStatus"))
    #expect(DemoOptions.usage.contains("through FoundationNotificationBridge into MainActorNotificationCenter"))
    #expect(!DemoOptions.usage.lowercased().contains("seed"))
  }

  /// Runs the built demo with `arguments`: its exit status, standard output and standard error.
  private static func runDemo(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary = directory.appendingPathComponent("presentation-demo")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no \(binary.path)")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Standard output first, to its end: the demo writes at most a line to standard error, far less
    // than a pipe holds, so it cannot block on it meanwhile.
    let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, outputText, errorText)
  }

  /// The real program with `--leak`: every figure of the report is taken at one moment, so they
  /// agree, and the survivor's line says what holds it, in the leak harness's words.
  @Test(.timeLimit(.minutes(1)))
  func theLeakReportNamesWhatHoldsTheSurvivor() throws {
    let run = try Self.runDemo(["--leak", "--scenario", "NodeEditor", "--fade-ms", "10", "--steps", "2"])
    #expect(run.status == 1)
    let report = try #require(run.output.components(separatedBy: "== Lifecycle report").last)
    #expect(report.contains("  NodeWidget: 1 live of 4\n"))
    #expect(
      report.contains(
        "  live registrations: 1\n    NodeTypeChanged observed (token) at presentation_demo/DemoRun+NodeEditor.swift:"))
    #expect(report.contains("  1 of 7 tracked objects still alive after "))
    #expect(report.contains("  - NodeEditorExample.NodeWidget (tracked at presentation_demo/DemoRun+NodeEditor.swift:"))
    #if !canImport(ObjectiveC)  // where the harness can read closure captures
      #expect(
        report.contains(
          "- the handler of NodeTypeChanged observed (token) at presentation_demo/DemoRun+NodeEditor.swift:"))
    #endif
    #expect(report.contains("RESULT: LEAK. 1 survivor(s), 1 live registration(s)."))
  }

  /// The real program: a fade is one line when the output is not a terminal (here a pipe), not
  /// one line per opacity step (before: 36 of the demo's 109 lines).
  @Test(.timeLimit(.minutes(1)))
  func eachFadeIsOneLine() throws {
    let run = try Self.runDemo(["--scenario=nodeeditor", "--fade-ms=20", "--steps=4"])
    #expect(run.status == 0)
    let lines = run.output.split(separator: "\n")
    #expect(!lines.contains { $0.contains("opacity") && !$0.contains("faded out") })
    // The step count is not checked: a fade on the real main queue applies the steps already due at
    // once when a step runs late (a loaded machine ran 2 of 4 for one widget), so it ends on time.
    let fades = lines.filter { $0.contains("faded out") }.map { line in
      (1...4).reduce(String(line)) { text, count in
        text.replacingOccurrences(of: "in \(count) step\(count == 1 ? "" : "s") ", with: "in … steps ")
      }
    }
    #expect(
      fades.sorted()
        == ["a", "b", "sum"].map { "  widget of '\($0)' faded out in … steps (opacity 0.00) and was disposed" })
  }

  /// The real program with `--leak`: the deleted widget that lives on and the widget still on the
  /// canvas observe from the same lines; the listing tells them apart by each widget's title.
  @Test(.timeLimit(.minutes(1)))
  func theLeakListingNamesEachOwner() throws {
    let run = try Self.runDemo(["--leak", "--scenario=nodeeditor", "--fade-ms=10", "--steps=2"])
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex { $0.hasPrefix("  registrations owned by NodeWidget: 4 (expected 2)") })
    let listed = Array(lines[(start + 1)...].prefix { $0.hasPrefix("    ") && $0.contains(" observed by ") })
    #expect(listed.count == 4)
    #expect(Set(listed).count == listed.count, "identical lines: \(listed)")
    #expect(listed.filter { $0.contains("observed by NodeWidget 'sum (multiply)' at ") }.count == 2)
    #expect(listed.filter { $0.contains("observed by NodeWidget 'out (output)' at ") }.count == 2)
  }

  /// The real program: the one rule, with an option that was silently ignored before.
  @Test(.timeLimit(.minutes(1)))
  func theProgramExitsWithTwoOnAFadeOptionWhereNothingFades() throws {
    let run = try Self.runDemo(["--slow", "--scenario=syncstatus"])
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(
      run.errors
        == "presentation-demo: --slow slows the NodeEditor's fades, but SyncStatus fades no widget; "
        + "use --slow with --scenario nodeeditor or all; see --help\n")
  }

  @Test(.timeLimit(.minutes(1)))
  func aCleanRunExitsWithZero() throws {
    let run = try Self.runDemo(["--fade-ms", "10", "--steps", "2"])
    #expect(run.status == 0)
    #expect(run.output.contains("  live registrations: 0\n  No leaks among "))
    #expect(run.output.hasSuffix("RESULT: clean. Every object deinitialised and every observer is gone.\n"))
  }

  /// The real program: a mistake on the command line exits 2 and prints one line, the reason and
  /// where the usage is, not the usage itself.
  @Test(.timeLimit(.minutes(1)))
  func theProgramExitsWithTwoOnAnOptionThatCannotApply() throws {
    let run = try Self.runDemo(["--leak", "--scenario", "settings"])
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.errors.hasPrefix("presentation-demo: --leak keeps a deleted NodeEditor widget alive, but SettingsMenu"))
    #expect(run.errors.hasSuffix("; see --help\n"))
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(!run.errors.contains("Usage:"))
  }
}
