internal import Dispatch

extension MainActorNotificationCenter {
  func register<N: MainActorNotification>(
    owner: AnyObject?, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int,
    handler: MainActorHandler<N>
  ) -> ObserverToken {
    #if DEBUG
      SenderCheck.check(sender, fileID: fileID, line: line)
    #endif
    let registration = MainActorRegistration<N>(
      center: self, owner: owner, sender: sender, flags: flags, fileID: fileID, line: line)
    let token = ObserverToken(registration: registration)
    // An owner already deinitialising cannot be referenced weakly: the weak load is nil at once.
    if registration.startsDead {
      registration.end()
      return token
    }
    var garbage: [Any] = []
    let key = ObjectIdentifier(N.self)
    let channel: MainActorChannel<N>
    if let existing = channels[key] {
      channel = unsafeDowncast(existing, to: MainActorChannel<N>.self)
    } else {
      channel = MainActorChannel<N>()
      channels[key] = channel
    }
    channel.append(registration, handler: handler, into: &garbage)
    garbage = []  // released after every mutation is over
    return token
  }

  /// Releases the entry of `registration`, which has just ended.
  func detach<N: MainActorNotification>(_ registration: MainActorRegistration<N>) {
    let key = ObjectIdentifier(N.self)
    guard let existing = channels[key] else { return }
    let channel = unsafeDowncast(existing, to: MainActorChannel<N>.self)
    var garbage: [Any] = []
    channel.tombstone(registration, into: &garbage)
    if channel.isEmpty && channel.readers == 0, let removed = channels.removeValue(forKey: key) {
      garbage.append(removed)
    }
    garbage = []  // released after every mutation is over
  }
}

/// The channels of a center that is deinitialising, on their way to the main actor.
//
// @unchecked Sendable: made in the center's deinit, which holds the only remaining reference to
// the channels, and then touched by exactly one thread at a time: the deinitialising thread reads
// it (marking registrations ended, which is atomic), then hands it whole to the main queue, which
// releases it. Nothing else can reach the channels any more.
final class Doomed: @unchecked Sendable {
  var channels: [ObjectIdentifier: AnyMainActorChannel]

  init(channels: [ObjectIdentifier: AnyMainActorChannel]) {
    self.channels = channels
  }

  @MainActor
  func release() {
    var garbage: [Any] = []
    for channel in channels.values { channel.endAll(into: &garbage) }
    let released = channels
    channels = [:]
    garbage = []
    _ = released
  }
}
