/// A registration and the handler its center calls, copied out for diagnostics (which keep only
/// the live ones, asked after the copy). What the leak harness reads of it is in
/// `PresentationModelDiagnostics` (`RegistrationSnapshot+Reading.swift`).
package struct RegistrationSnapshot: Sendable {
  package let registration: Registration
  /// A `@Sendable` closure, or a ``MainActorReleased`` box around one that may hold main-actor
  /// state.
  package let copied: any Sendable

  init(_ registration: Registration, handler: any Sendable) {
    self.registration = registration
    self.copied = handler
  }
}
