internal import Synchronization

// The end path, top to bottom. Every way a registration ends goes through `end()`:
// - by token: `ObserverToken.cancel()`, or the release of the last reference to a token-bound
//   registration's token (`ObserverToken.deinit`);
// - by owner or sender death: a post (Posting.swift) or a pruning pass (Pruning.swift) finds the
//   weak reference `nil`;
// - one-shot: the post that wins `beginEnding()` calls the handler, then `finishEnding()`: the two
//   halves of `end()`, split around the call so that no other post calls it too;
// - center death: `TypedNotificationCenter.deinit` empties its channels, then ends each
//   registration after unlocking (its weak `center` is `nil` by then, so there is nothing to
//   detach);
// - stream termination: the sequence's `onTermination` calls `end()`.
//
// `end()`:
// 1. `beginEnding()` sets the ended state; the first caller wins, and from then on no post calls
//    the handler (posts check the state before each call);
// 2. `finishEnding()` detaches the entry from the center: `detach` → `Channel.tombstone` releases
//    the handler (after unlocking), or defers that to the last post reading the storage;
// 3. then `didEnd()`: a stream finishes its sequence; other centers' registrations detach
//    themselves there.
extension RegistrationCore {
  /// Ends the registration; later calls do nothing.
  ///
  /// Must not be called while the center's lock is held.
  ///
  /// - Returns: Whether this call ended it.
  @usableFromInline
  @discardableResult
  final func end() -> Bool {
    guard beginEnding() else { return false }
    finishEnding()
    return true
  }

  /// Sets the ended state; `true` for the first caller only.
  @inline(__always)
  final func beginEnding() -> Bool {
    !ended.exchange(true, ordering: .acquiringAndReleasing)
  }

  /// Releases the handler and tells the registration it ended; once, after `beginEnding()` won.
  final func finishEnding() {
    if let center { detach(from: center) }
    didEnd()
  }
}

extension TypedNotificationCenter {
  /// Releases the entry of `registration`, which has just ended (after unlocking), or leaves that
  /// to the last post reading the channel's storage.
  func detach(_ registration: RegistrationCore, from key: ObjectIdentifier) {
    let reclaimed = state.withLock { state in
      var reclaimed = Reclaimed()
      guard let channel = state.channels[key] else { return reclaimed }
      if channel.tombstone(registration, into: &reclaimed), channel.count == 0 {
        state.removeChannel(for: key, into: &reclaimed)
      }
      return reclaimed
    }
    reclaimed.drop()
  }

  /// Empties every channel (the center is deinitialising) and ends their registrations.
  func endAll() {
    var registrations: [RegistrationCore] = []
    let reclaimed = state.withLock { state in
      var reclaimed = Reclaimed()
      for channel in state.channels.values {
        registrations += channel.removeAll(into: &reclaimed)
        reclaimed.keep(channel)  // so that emptying the table below releases none of them
      }
      state.channels = ChannelTable()
      return reclaimed
    }
    reclaimed.drop()
    // Streams finish their sequences; the others only take the ended state.
    for registration in registrations { registration.end() }
  }
}
