/// The engine of every center and bridge alive in the process, so that diagnostics (the leak
/// harness's report) can look in all of them without being told which ones exist.
///
/// An engine adds itself when its center is made, and removes itself first thing in the center's
/// `deinit`. The set holds engines weakly and never holds a center: a diagnostic must not keep a
/// center alive, even for a moment (a test may be checking that it deallocates). Costs one lock and
/// one dictionary change per center made and per center released, nothing per registration or post.
package enum LiveRegistries {
  private static let engines = LockedState<[ObjectIdentifier: WeakReference]>([:])

  static func insert(_ engine: Engine) {
    engines.withLock { $0[ObjectIdentifier(engine)] = WeakReference(engine) }
  }

  static func remove(_ engine: Engine) {
    _ = engines.withLock { $0.removeValue(forKey: ObjectIdentifier(engine)) }
  }

  /// The engines alive now, for the leak harness's copies (`withRegistrationSnapshots`, in
  /// `PresentationModelDiagnostics`).
  package static var live: [Engine] { engines.withLock { $0.values.compactMap { $0.object as? Engine } } }
}
