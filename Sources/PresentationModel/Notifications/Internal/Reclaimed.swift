/// What a channel operation removed: values whose release may run user code (handler captures,
/// deinitialisers, the last reference to a storage), to be dropped only after the center's lock is
/// released.
//
// @unchecked Sendable: a `Reclaimed` is built under the lock and handed, whole, to the thread that
// took the lock, which only drops it; no two threads ever access one.
//
// The first four values are kept inline, so that ending one registration (its handler and its
// registration) allocates nothing; more spill into an array.
@usableFromInline
struct Reclaimed: @unchecked Sendable {
  private var inline: (Any?, Any?, Any?, Any?) = (nil, nil, nil, nil)
  private var inlineCount = 0
  private var spilled: [Any] = []

  @usableFromInline init() {}

  /// Holds `value` until the `Reclaimed` is dropped, after unlocking.
  @usableFromInline
  mutating func keep(_ value: Any) {
    switch inlineCount {
    case 0: inline.0 = value
    case 1: inline.1 = value
    case 2: inline.2 = value
    case 3: inline.3 = value
    default:
      spilled.append(value)
      return
    }
    inlineCount += 1
  }
}

extension Reclaimed {
  /// Drops what was kept: call it after the lock is released.
  @usableFromInline consuming func drop() {}
}
