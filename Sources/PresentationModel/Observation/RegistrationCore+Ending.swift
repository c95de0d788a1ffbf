internal import Synchronization

// The end path, top to bottom, the same for every center. Every way a registration ends goes
// through `end()`:
// - by token: `ObserverToken.cancel()`, or the release of the last reference to a token-bound
//   registration's token (`ObserverToken.deinit`);
// - by owner or sender death: a delivery finds the weak reference `nil`, or a sweep does
//   (`ObservationRegistry.endDeadRegistrations(of:)`);
// - one-shot: the delivery that wins `beginEnding()` calls the handler, then `finishEnding()`: the
//   two halves of `end()`, split around the call so that no other post calls it too;
// - center death: the center takes its storage and ends each registration after releasing it (its
//   weak `registry` is `nil` by then, so there is nothing to detach);
// - stream termination: the sequence's `onTermination` calls `end()`.
//
// `end()`:
// 1. `beginEnding()` sets the ended state; the first caller wins, and from then on no delivery
//    calls the handler (each checks the state before each call);
// 2. `finishEnding()` detaches the registration from its registry (`ObservationRegistry.detach`),
//    which releases the handler after unlocking (on the main queue when it may hold main-actor
//    state), or defers that to the last post reading the storage;
// 3. then `didEnd()`: a stream finishes its sequence.
extension RegistrationCore {
  /// Ends the registration; later calls do nothing.
  ///
  /// Must not be called while a center's storage is locked or being rebuilt.
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
  @usableFromInline @inline(__always)
  final func beginEnding() -> Bool {
    !ended.exchange(true, ordering: .acquiringAndReleasing)
  }

  /// Releases the handler and tells the registration it ended; once, after `beginEnding()` won.
  @usableFromInline
  final func finishEnding() {
    registry?.detach(self)
    didEnd()
  }
}

// What a delivery asks of its registration, on every center's slow path (sender filters, owners,
// one-shots): the fast paths of the typed and main-actor centers read the same state inline.
extension RegistrationCore {
  /// Whether a delivery may go ahead: not ended, and its sender filter (if any) alive. Ends the
  /// registration when the sender died, since the filter can never match again.
  final func admitsDelivery() -> Bool {
    guard !hasEnded else { return false }
    if flags.contains(.hasSender) {
      let loaded = sender
      #if DEBUG
        if let loaded { OwnerLoadProbe.loaded(loaded) }
      #endif
      guard loaded != nil else {
        end()
        return false
      }
    }
    return true
  }

  /// The owner, if a delivery may go ahead and the owner is alive; otherwise ends the registration
  /// (when the owner or the sender died) and returns `nil`.
  final func ownerForDelivery() -> AnyObject? {
    guard admitsDelivery() else { return nil }
    guard let owner else {
      end()  // The owner deinitialised: this registration is over.
      return nil
    }
    #if DEBUG
      OwnerLoadProbe.loaded(owner)
    #endif
    return owner
  }
}
