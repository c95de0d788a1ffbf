import Foundation

// presentation-bench: TypedNotificationCenter side by side with Foundation and with the floor
// (closures in an array), in one interleaved run. See Docs/Performance.md.
//
//   swift run -c release presentation-bench            full run
//   swift run -c release presentation-bench --quick    CI run (under 30 seconds)
//   swift run -c release presentation-bench --json     the same figures as JSON on stdout
//
// The exit status is non-zero only when a figure cannot be produced, never for slow timings.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--count-allocations" {
  AllocationCounter.runChild(Array(arguments.dropFirst()))
}
if arguments.first == "--count-main-actor-allocations" {
  MainActorCases.runAllocationChild(Array(arguments.dropFirst()))
}
let usage = """
  usage: presentation-bench [--quick] [--json]
    --quick  fewer, shorter rounds (what CI runs); skips allocation counts if valgrind is missing
    --json   print the figures as JSON on standard output instead of tables
  Build in release: swift run -c release presentation-bench. See Docs/Performance.md.

  """
if arguments.contains("--help") || arguments.contains("-h") {
  print(usage, terminator: "")
  exit(0)
}
let unknown = arguments.filter { !["--quick", "--json"].contains($0) }
guard unknown.isEmpty else {
  FileHandle.standardError.write(Data("unknown arguments: \(unknown.joined(separator: " "))\n".utf8))
  FileHandle.standardError.write(Data(usage.utf8))
  exit(64)
}
let configuration = BenchConfiguration(quick: arguments.contains("--quick"))
let result = BenchRun(configuration).run()
if arguments.contains("--json") {
  print(ReportPrinter.json(result))
} else {
  print(ReportPrinter.text(result))
}
exit(result.missing.isEmpty ? 0 : 1)
