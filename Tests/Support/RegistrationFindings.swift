package import PresentationModel

/// Runs `body` with the findings of the debug-build registration checks (an owner-bound handler
/// capturing its owner, a temporary sender filter) collected instead of printed to standard error:
/// for tests that make such registrations on purpose, and check what was found.
package func collectingRegistrationFindings<Result>(
  _ body: () throws -> Result
) rethrows -> (result: Result, findings: [RegistrationDiagnostics.Finding]) {
  let findings = LockedLog<RegistrationDiagnostics.Finding>()
  let record: @Sendable (RegistrationDiagnostics.Finding) -> Void = { findings.record($0) }
  let result = try RegistrationDiagnostics.$reporter.withValue(record) { try body() }
  return (result, findings.entries)
}
