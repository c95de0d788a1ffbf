internal import Dispatch

/// What a center removed from its storage while it was locked or being rebuilt: objects and values
/// whose release may run user code (an entry holding a handler and its captures, a registration,
/// the last reference to a storage or a channel), to be dropped only after the center unlocked
/// (the typed center, the bridge) or the rebuild ended (the main-actor center). Every center
/// releases what it removes through one of these.
///
/// `drop()` releases on the calling thread; `dropOnMainQueue()` on the main queue, for what may
/// hold main-actor state (the main-actor center's handlers, the bridge's main-actor handlers).
//
// @unchecked Sendable: a `ReleasedAfterUnlock` is built inside the critical section and handed,
// whole, to the thread that entered it, which only drops it (or hands it, whole, to the main
// queue); no two threads ever access one.
//
// The first four objects are kept inline, so that ending one registration of the typed center (its
// entry) allocates nothing; more spill into an array. They are kept as `AnyObject`, which needs no
// type metadata: the end path runs unspecialised (it starts from a token), and boxing a generic
// entry in `Any` would look up its metadata on every ending. Values that are not objects (the
// main-actor center's handlers and entry arrays) go into `values`.
@usableFromInline
struct ReleasedAfterUnlock: @unchecked Sendable {
  private var inline: (AnyObject?, AnyObject?, AnyObject?, AnyObject?) = (nil, nil, nil, nil)
  private var inlineCount = 0
  private var spilled: [AnyObject] = []
  private var values: [Any] = []

  @usableFromInline init() {}

  /// Holds `object` until the value is dropped.
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

  /// Holds `value`, which is not an object (a closure, an array of entries), until the value is
  /// dropped.
  mutating func keep(value: Any) {
    values.append(value)
  }
}

extension ReleasedAfterUnlock {
  /// Drops what was kept, on this thread: call it after the critical section.
  @usableFromInline consuming func drop() {}

  /// Drops what was kept on the main queue: at once when already there, otherwise in a block
  /// enqueued there.
  consuming func dropOnMainQueue() {
    guard !MainQueue.isCurrent else { return }
    // The block holds a copy, so the last release of everything kept happens on the main queue.
    let released = self
    DispatchQueue.main.async { _ = released }
  }

  /// Makes the last release of `value` happen on the main queue, for the `deinit` of an object
  /// that holds what may hold main-actor state: the block enqueued here retains `value` before the
  /// `deinit` releases its own reference. Nothing to do when already there.
  static func releaseOnMainQueue(_ value: Any) {
    guard !MainQueue.isCurrent else { return }
    var released = ReleasedAfterUnlock()
    released.keep(value: value)
    released.dropOnMainQueue()
  }
}

/// A value that may hold main-actor state (a main-actor handler), that other threads may hold and
/// release: its last release happens on the main queue whichever thread releases the box. The
/// bridge's Foundation blocks hold their main-actor handlers in one (Foundation releases a block on
/// whichever thread removes or last posts to it), and diagnostics copy main-actor handlers out in
/// one.
final class MainActorReleased<Value>: MainActorReleasedValue, @unchecked Sendable {
  // @unchecked Sendable: `value` is immutable; it is called only on the main actor (by the code
  // that boxed it, which knows its isolation), read elsewhere only by diagnostics (which scan it and
  // never call it), and released on the main queue only (see deinit).
  let value: Value

  init(_ value: Value) {
    self.value = value
  }

  var anyValue: Any { value }

  deinit {
    ReleasedAfterUnlock.releaseOnMainQueue(value)
  }
}

/// The value of a ``MainActorReleased`` box, whatever its type: what diagnostics scan.
protocol MainActorReleasedValue: AnyObject {
  var anyValue: Any { get }
}
