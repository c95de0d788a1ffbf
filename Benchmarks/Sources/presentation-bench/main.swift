import Foundation

// presentation-bench: TypedNotificationCenter side by side with Foundation and with the floor
// (closures in an array), in one interleaved run. See Performance.md. A package of its own,
// Benchmarks/; from the repository's root:
//
//   swift run -c release --package-path Benchmarks presentation-bench                 full run (timings)
//   swift run -c release --package-path Benchmarks presentation-bench --quick         CI run (under 30 s)
//   swift run -c release --package-path Benchmarks presentation-bench --json          the figures as JSON
//   swift run -c release --package-path Benchmarks presentation-bench --instructions  counted by callgrind
//
// The exit status is non-zero when a figure cannot be produced, or with --enforce when an
// enforced budget row of --instructions is not met; never for slow timings.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == WorkloadChild.flag {
  WorkloadChild.run(Array(arguments.dropFirst()))
}
if arguments.first == EveryObjectCases.timingFlag {
  EveryObjectCases.runTimingChild(Array(arguments.dropFirst()))
}
if arguments.first == "--count-main-actor-allocations" {
  MainActorCases.runAllocationChild(Array(arguments.dropFirst()))
}
if arguments == ["--leak-walk-report-only"] {
  // Only the report budget's reports, to count their instructions under callgrind
  // (`--toggle-collect='*LeakTracker*checkForLeaks*'`): timings here are too noisy to compare.
  print(LeakWalkBudget.reportSeconds())
  exit(0)
}
if arguments == ["--leak-walk"] {
  print(LeakWalkBudget.run())
  exit(0)
}
let usage = """
  usage: presentation-bench [--quick] [--json]
         presentation-bench --instructions [--quick] [--enforce] [--json]
         presentation-bench --leak-walk
         presentation-bench --leak-walk-report-only
    --quick         fewer, shorter rounds (what CI runs); skips allocation counts if valgrind is missing;
                    with --instructions: skips the check at 3 N that each count is exact
    --json          print the figures as JSON on standard output instead of tables
    --instructions  instructions and heap allocations per operation under valgrind's callgrind,
                    bytes per registration, and the instruction budget (needs valgrind)
    --enforce       with --instructions: exit 1 when a budget row listed in InstructionBudget.enforced
                    is not met
    --leak-walk     the leak walk's two budgets (the registration-time check's cost per observe, a
                    report over 10,000 registrations); build in debug, where that check runs
    --leak-walk-report-only
                    only the five reports over 10,000 registrations, for callgrind:
                    valgrind --tool=callgrind --toggle-collect='*LeakTracker*checkForLeaks*' …
  Build in release: swift run -c release --package-path Benchmarks presentation-bench. See Performance.md.

  """
if arguments.contains("--help") || arguments.contains("-h") {
  print(usage, terminator: "")
  exit(0)
}
let unknown = arguments.filter { !["--quick", "--json", "--instructions", "--enforce"].contains($0) }
guard unknown.isEmpty, !arguments.contains("--enforce") || arguments.contains("--instructions") else {
  let complaint =
    unknown.isEmpty ? "--enforce needs --instructions" : "unknown arguments: \(unknown.joined(separator: " "))"
  FileHandle.standardError.write(Data("\(complaint)\n".utf8))
  FileHandle.standardError.write(Data(usage.utf8))
  exit(64)
}
if arguments.contains("--instructions") {
  let result = InstructionRun(quick: arguments.contains("--quick")).run()
  print(arguments.contains("--json") ? ReportPrinter.json(result) : InstructionReport.text(result))
  if arguments.contains("--enforce") {
    for row in result.enforcedRowsNotMet {
      FileHandle.standardError.write(
        Data("presentation-bench: enforced budget row not met: \(row.title): \(InstructionReport.verdict(row))\n".utf8))
    }
    if !result.enforcedRowsNotMet.isEmpty { exit(1) }
  }
  exit(result.missing.isEmpty ? 0 : 1)
}
let configuration = BenchConfiguration(quick: arguments.contains("--quick"))
let result = BenchRun(configuration).run()
if arguments.contains("--json") {
  print(ReportPrinter.json(result))
} else {
  print(ReportPrinter.text(result))
}
exit(result.missing.isEmpty ? 0 : 1)
