import Foundation

/// `swift run presentation-demo`: the seed scenarios in a terminal, with a lifecycle report.
@main
struct PresentationDemo {
  /// Async and on the main actor, so the main queue runs while scenarios await: `DispatchQueue.main`
  /// timing (the fades) is real.
  @MainActor
  static func main() async {
    let options: DemoOptions
    do {
      options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      Console().error("presentation-demo: \(error.message)\n\n\(DemoOptions.usage)")
      exit(2)
    }
    if options.showHelp {
      var console = Console()
      console.line(DemoOptions.usage)
      exit(0)
    }
    let clean = await DemoRun(options: options).play()
    exit(clean ? 0 : 1)
  }
}
