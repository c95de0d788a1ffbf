/// Every `TypedNotificationCenter` alive in the process, so that diagnostics (the leak harness's
/// report) can look in all of them without being told which ones exist.
///
/// A center adds itself in `init` and removes itself first thing in `deinit`. The registry never
/// retains a center: diagnostics that read one do so under the registry's lock, where the center's
/// `deinit` (blocked on that lock) cannot have progressed past its first line, so its storage is
/// intact. Costs one lock and one dictionary change per center made and per center released,
/// nothing per registration or post.
package enum LiveCenters {
  /// An unretained reference to a center.
  private struct Entry: @unchecked Sendable {
    // @unchecked Sendable: the pointer is only dereferenced under the registry's lock, while the
    // center cannot be deallocated (its deinit first removes this entry, under the same lock).
    let center: Unmanaged<TypedNotificationCenter>
  }

  private static let entries = LockedState<[ObjectIdentifier: Entry]>([:])

  static func insert(_ center: TypedNotificationCenter) {
    let entry = Entry(center: .passUnretained(center))
    entries.withLock { $0[ObjectIdentifier(center)] = entry }
  }

  static func remove(_ center: ObjectIdentifier) {
    _ = entries.withLock { $0.removeValue(forKey: center) }
  }

  /// The live registrations of every center, with their handlers, copied out.
  ///
  /// Lock order: the registry's lock, then each center's; nothing takes them the other way round.
  /// No center is retained, so none is kept alive by a diagnostic. The handlers are retained by the
  /// copies and released by the caller, outside every lock.
  package static func registrationSnapshots() -> [RegistrationSnapshot] {
    let copied = entries.withLock { entries in
      entries.values.flatMap { entry in
        entry.center._withUnsafeGuaranteedRef { center in center.copyLiveHandlers() }
      }
    }
    return copied.compactMap(RegistrationSnapshot.init)
  }
}
