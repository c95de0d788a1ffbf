/// What a ``TypedNotificationCenter`` guards with its lock: its channels, one per notification
/// type, and the bookkeeping behind `storageWork`.
@usableFromInline
struct CenterState {
  @usableFromInline var channels = ChannelTable()
  /// Entries visited by rebuilds of channels that have since been removed; see `storageWork`.
  var storageWorkOfRemovedChannels = 0

  /// Removes the channel of `key`; the channel itself is handed to `released`, to be released
  /// after unlocking.
  mutating func removeChannel(for key: ObjectIdentifier, into released: inout ReleasedAfterUnlock) {
    guard let channel = channels.remove(key) else { return }
    storageWorkOfRemovedChannels += channel.entriesVisited
    released.keep(channel)
  }
}
