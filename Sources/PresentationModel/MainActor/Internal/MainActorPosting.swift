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
    // A loop, not `withUnsafeBufferPointer`: a closure formed here (main-actor code) and passed as
    // a nonisolated function would check its isolation at run time on every post.
    for index in snapshot.indices {
      Self.deliver(notification, senderID: senderID, to: snapshot[index])
    }
    channel.readers -= 1
    if channel.readers == 0 && channel.needsSweep { channel.sweepAfterReaders() }
  }

  @inlinable @inline(__always)
  static func deliver<N: MainActorNotification>(
    _ notification: N, senderID: ObjectIdentifier?, to entry: borrowing MainActorEntry<N>
  ) {
    // unowned(unsafe): the snapshot the caller iterates keeps the registration alive.
    unowned(unsafe) let registration = entry.registration
    guard !registration.hasEnded else { return }
    let flags = registration.flags
    if flags == [.hasOwner, .mainActor] {
      // unsafeDowncast: every registration with an owner is an `OwnedRegistration`
      // (`Registration.make`); the final class lets the owner be read without a dynamic dispatch.
      guard let owner = unsafeDowncast(registration, to: OwnedRegistration<N>.self).owner else {
        registration.end()  // The owner deinitialised: this registration is over.
        return
      }
      if case .owned(let body)? = entry.handler { body(owner, notification) }
      return
    }
    if flags == [.endsWithToken, .mainActor],
      case .plain(let body)? = entry.handler
    {
      body(notification)
      return
    }
    if let handler = entry.handler {
      deliverSlowPath(notification, senderID: senderID, registration: registration, handler: handler)
    }
  }

  /// Sender filters and one-shot observers.
  @usableFromInline
  static func deliverSlowPath<N: MainActorNotification>(
    _ notification: N, senderID: ObjectIdentifier?, registration: RegistrationCore, handler: MainActorHandler<N>
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
    switch handler {
    case .plain(let body): body(notification)
    case .owned(let body): body(owner.unsafelyUnwrapped, notification)
    }
    if isOneShot { registration.finishEnding() }
  }
}
