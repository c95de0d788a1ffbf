import Foundation

/// `swift run presentation-demo`: the four example scenarios in a terminal, with a lifecycle report.
@main
struct PresentationDemo {
  /// On the main actor, pumping the main run loop (and so the main queue) while the scenarios
  /// await, so `DispatchQueue.main` timing (the fades) is real. Not `async`: an async `main` parks
  /// the main thread in `dispatch_main()`, which valgrind 3.19 cannot run.
  @MainActor
  static func main() {
    let options: DemoOptions
    do {
      options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      // One line: the mistake, and where the usage is. The usage itself would bury it.
      Console().error("presentation-demo: \(error.message); see --help")
      exit(2)
    }
    if options.showHelp {
      var console = Console()
      console.line(DemoOptions.usage)
      exit(0)
    }
    var clean: Bool?
    Task { @MainActor in clean = await DemoRun(options: options).play() }
    while clean == nil { _ = RunLoop.main.run(mode: .default, before: .now.addingTimeInterval(0.01)) }
    exit(clean == true ? 0 : 1)
  }
}
