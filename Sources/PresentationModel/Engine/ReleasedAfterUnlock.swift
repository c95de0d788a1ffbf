/// What an engine removed from its storage while it was exclusive: objects whose release may run
/// user code (an entry holding a handler and its captures, the last reference to a storage), to be
/// released only once the storage is no longer exclusive: after unlocking, or after the change on
/// the main actor ended. Every change of an engine's storage releases what it removes through one
/// of these.
///
/// `drop()` releases on the calling thread; `dropOnMainQueue()` on the main queue, for what may
/// hold main-actor state (the main-actor center's entries).
//
// The first four objects are kept inline, so that ending one registration (its entry) allocates
// nothing; more spill into an array. They are kept as `AnyObject`, which needs no type metadata:
// the end path runs unspecialised (it starts from a token), and boxing a generic entry in `Any`
// would look up its metadata on every ending.
struct ReleasedAfterUnlock {
  private var inline: (AnyObject?, AnyObject?, AnyObject?, AnyObject?) = (nil, nil, nil, nil)
  private var inlineCount = 0
  private var spilled: [AnyObject] = []

  /// Holds `object` until the value is dropped.
  mutating func keep(_ object: AnyObject) {
    switch inlineCount {
    case 0: inline.0 = object
    case 1: inline.1 = object
    case 2: inline.2 = object
    case 3: inline.3 = object
    default:
      spilled.append(object)
      return
    }
    inlineCount += 1
  }

  /// Drops what was kept, on this thread: call it after the exclusive section.
  consuming func drop() {}

  /// Drops what was kept on the main queue: at once when already there, otherwise in a block
  /// enqueued there.
  consuming func dropOnMainQueue() {
    guard inlineCount > 0, !MainQueue.isCurrent else { return }
    MainActorReleased.release(self)
  }
}
