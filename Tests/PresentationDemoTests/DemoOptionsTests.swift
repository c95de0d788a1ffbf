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
    #expect(options.scenarios == [.touchtracker, .nodeeditor, .settingsmenu])
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

  @Test(arguments: ["touchtracker", "settings", "settingsmenu"])
  func leakWithAScenarioThatDeletesNoWidgetIsAnError(scenario: String) throws {
    let message = try #require(Self.parseError(["--leak", "--scenario", scenario]))
    #expect(message.hasPrefix("--leak keeps a deleted NodeEditor widget alive, but "))
    #expect(message.hasSuffix("deletes no widget; use --leak with --scenario nodeeditor or all"))
  }

  @Test(arguments: [["--leak"], ["--leak", "--scenario", "all"], ["--scenario", "nodeeditor", "--leak"]])
  func leakWithTheNodeEditorIsAccepted(arguments: [String]) throws {
    let options = try DemoOptions.parse(arguments)
    #expect(options.leak)
    #expect(options.scenarios.contains(.nodeeditor))
  }

  @Test func settingsIsAnotherNameForTheSettingsMenu() throws {
    #expect(try DemoOptions.parse(["--scenario", "settings"]).scenarios == [.settingsmenu])
    #expect(try DemoOptions.parse(["--scenario", "settingsmenu"]).scenarios == [.settingsmenu])
  }

  @Test(arguments: [
    (["--scenario", "seeds"], "unknown scenario 'seeds'; choose touchtracker, nodeeditor, settingsmenu or all"),
    (["--fade-ms", "0"], "--fade-ms must be a whole number in 1...60000, got '0'"),
    (["--steps"], "--steps needs a value"),
    (["--fast"], "unknown argument '--fast'"),
  ])
  func badValuesSayWhatIsWrong(arguments: [String], expected: String) {
    #expect(Self.parseError(arguments) == expected)
  }

  @Test func theHelpNamesEachExampleAndTheBugItPrevents() {
    for scenario in DemoOptions.Scenario.allCases {
      #expect(DemoOptions.usage.contains("  \(scenario.rawValue)"))
      #expect(DemoOptions.usage.contains(scenario.preventedBug))
    }
    #expect(DemoOptions.usage.contains("TouchTracker, NodeEditor and SettingsMenu"))
    #expect(!DemoOptions.usage.lowercased().contains("seed"))
  }

  /// The real program: a mistake on the command line exits 2 and prints the reason and the usage.
  @Test(.timeLimit(.minutes(1)))
  func theProgramExitsWithTwoOnAnOptionThatCannotApply() throws {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary = directory.appendingPathComponent("presentation-demo")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no \(binary.path)")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["--leak", "--scenario", "settings"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(output.contains("presentation-demo: --leak keeps a deleted NodeEditor widget alive, but SettingsMenu"))
    #expect(output.contains("Usage: presentation-demo"))
  }
}
