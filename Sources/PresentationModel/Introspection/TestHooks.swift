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
