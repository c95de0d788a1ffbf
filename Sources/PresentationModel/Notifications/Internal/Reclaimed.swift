/// What a channel operation removed: objects whose release may run user code (an entry holding a
/// handler and its captures, a registration, the last reference to a storage), to be dropped only
/// after the center's lock is released.
//
// @unchecked Sendable: a `Reclaimed` is built under the lock and handed, whole, to the thread that
// took the lock, which only drops it; no two threads ever access one.
//
// The first four objects are kept inline, so that ending one registration (its entry) allocates
// nothing; more spill into an array. They are kept as `AnyObject`, which needs no type metadata:
// the end path runs unspecialised (it starts from a token), and boxing a generic entry in `Any`
// would look up its metadata on every ending.
@usableFromInline
struct Reclaimed: @unchecked Sendable {
  private var inline: (AnyObject?, AnyObject?, AnyObject?, AnyObject?) = (nil, nil, nil, nil)
  private var inlineCount = 0
  private var spilled: [AnyObject] = []

  @usableFromInline init() {}

  /// Holds `object` until the `Reclaimed` is dropped, after unlocking.
  @usableFromInline
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
}

extension Reclaimed {
  /// Drops what was kept: call it after the lock is released.
  @usableFromInline consuming func drop() {}
}
