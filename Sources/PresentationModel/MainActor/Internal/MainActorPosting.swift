internal import Dispatch

// The main-actor post path: `post` → `deliver` (count in, copy the entries) → `deliver(_:senderID:to:)`
// for each entry → count out, sweep what ended meanwhile.
extension MainActorNotificationCenter {
  // Inlinable so that it is specialised for `N` where it is called, as the posting-thread center's.
  @inlinable @inline(__always)
  func deliver<N: MainActorNotification>(_ notification: N, senderID: ObjectIdentifier?) {
    guard let erased = channels[ObjectIdentifier(N.self)] else { return }
    let channel = unsafeDowncast(erased, to: MainActorChannel<N>.self)
    #if DEBUG
      RecursionGuard.enter(
        N.self, in: "MainActorNotificationCenter", limit: TypedNotificationCenter.maximumNestedPostDepth)
      defer { RecursionGuard.leave() }
    #endif
    channel.readers += 1
    // A copy: observers added or swept during the delivery do not change what this post visits.
    let snapshot = channel.entries
    Self.deliver(notification, senderID: senderID, to: snapshot, count: snapshot.count)
    channel.readers -= 1
    if channel.readers == 0 && channel.needsSweep { channel.sweepAfterReaders() }
  }

  /// Calls each of the first `count` entries at `entries` in order. Called by the main-actor
  /// `deliver` only, so it runs on the main actor (it is nonisolated only so that the closure
  /// below carries no isolation, see ``MainActorPlainEntry``).
  ///
  /// `entries` is the snapshot's storage, passed as a pointer (the implicit conversion of an array
  /// argument, valid for the call): a loop over the array itself would copy each entry out (a
  /// retain and a release).
  @inlinable @inline(__always)
  nonisolated static func deliver<N: MainActorNotification>(
    _ notification: N, senderID: ObjectIdentifier?, to entries: UnsafePointer<MainActorEntry<N>?>, count: Int
  ) {
    for index in 0..<count {
      // The entry is read as a raw pointer and used through an unretained, guaranteed reference:
      // the snapshot holds a strong reference to it for the whole post, and nothing mutates the
      // snapshot. Its handler, a `let`, is then called without retaining its context.
      guard let raw = UnsafeRawPointer(entries + index).load(as: UnsafeRawPointer?.self) else {
        continue  // a tombstone
      }
      Unmanaged<MainActorEntry<N>>.fromOpaque(raw)._withUnsafeGuaranteedRef { entry in
        deliver(notification, senderID: senderID, to: entry)
      }
    }
  }

  @inlinable @inline(__always)
  nonisolated static func deliver<N: MainActorNotification>(
    _ notification: N, senderID: ObjectIdentifier?, to entry: MainActorEntry<N>
  ) {
    // unowned(unsafe): the snapshot the caller iterates keeps the entry, and it the registration.
    unowned(unsafe) let registration = entry.registration
    guard !registration.hasEnded else { return }
    let flags = registration.flags
    if flags == [.hasOwner, .mainActor] {
      // unsafeDowncast: every registration with an owner is an `OwnedRegistration`
      // (`Registration.make`) and its entry a `MainActorOwnedEntry` (`MainActorEntry.make`); the
      // final classes let both be read without a dynamic dispatch.
      guard let owner = unsafeDowncast(registration, to: OwnedRegistration<N>.self).owner else {
        registration.end()  // The owner deinitialised: this registration is over.
        return
      }
      unsafeDowncast(entry, to: MainActorOwnedEntry<N>.self).handler(owner, notification)
      return
    }
    if flags == [.endsWithToken, .mainActor] {
      // unsafeDowncast: an entry without `hasOwner` is a `MainActorPlainEntry`.
      unsafeDowncast(entry, to: MainActorPlainEntry<N>.self).handler(notification)
      return
    }
    deliverSlowPath(notification, senderID: senderID, registration: registration, entry: entry)
  }

  /// Sender filters and one-shot observers.
  @usableFromInline
  nonisolated static func deliverSlowPath<N: MainActorNotification>(
    _ notification: N, senderID: ObjectIdentifier?, registration: RegistrationCore, entry: MainActorEntry<N>
  ) {
    guard registration.admitsDelivery() else { return }
    if registration.flags.contains(.hasSender) {
      guard let sender = registration.sender, let senderID, senderID == ObjectIdentifier(sender) else { return }
    }
    var owner: AnyObject?
    if registration.flags.contains(.hasOwner) {
      owner = registration.ownerForDelivery()
      guard owner != nil else { return }
    }
    let isOneShot = registration.flags.contains(.oneShot)
    // A one-shot ends before its call, so a post from inside its handler does not call it again.
    if isOneShot { guard registration.beginEnding() else { return } }
    if let owner {
      unsafeDowncast(entry, to: MainActorOwnedEntry<N>.self).handler(owner, notification)
    } else {
      unsafeDowncast(entry, to: MainActorPlainEntry<N>.self).handler(notification)
    }
    if isOneShot { registration.finishEnding() }
  }
}
