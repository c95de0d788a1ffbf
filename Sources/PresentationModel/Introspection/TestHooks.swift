// The package-level hooks the tests read to check what the public API cannot show: in one place.

extension TypedNotificationCenter {
  /// How many entries the center has visited while rebuilding its observer storage, over its whole
  /// life: the work behind adding and ending registrations beyond O(1) steps. Tests use it to show
  /// that ending registrations never scans the others (the total stays proportional to the number
  /// of registrations, whatever their order).
  package var storageWork: Int {
    state.withLock { state in
      state.channels.values.reduce(state.storageWorkOfRemovedChannels) { $0 + $1.entriesVisited }
    }
  }
}

extension MainActorNotificationCenter {
  /// How many entries the center's channels store, including those of ended registrations not yet
  /// removed: an entry holds its handler until it is removed. Tests use it to show that a
  /// registration ended on another thread leaves the storage once the main queue has run.
  package var storedEntryCount: Int {
    channels.values.reduce(0) { $0 + $1.registrations.count }
  }
}

extension FoundationNotificationBridge {
  /// How many entries the bridge's table stores, including those of ended registrations not yet
  /// detached.
  package var storedEntryCount: Int {
    withTable { $0.entries.count }
  }

  /// Whether the calling thread holds the lock of a bridge's table now (debug builds only; always
  /// `false` in release builds). Tests read it from ``OwnerLoadProbe/onLoad`` to show that no
  /// owner or sender is loaded under the lock.
  package static var isTableLockHeldOnThisThread: Bool {
    #if DEBUG
      holdsTableLock
    #else
      false
    #endif
  }
}
