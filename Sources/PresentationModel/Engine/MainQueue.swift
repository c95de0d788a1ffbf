internal import Dispatch
internal import Foundation

/// The main queue, where the main actor runs: whether the caller is on it, and the hop to it that
/// every center and the bridge use (an ending that releases main-actor state, a main-actor delivery
/// of a post made elsewhere), and diagnostics too.
///
/// `Thread.isMainThread` alone does not tell: on Linux the main queue (and with it the main actor)
/// may be drained by a thread other than the process's first one, as under `swift test`. The main
/// queue is therefore tagged with a queue-specific value the first time this is asked.
@usableFromInline
package enum MainQueue {
  private static let key = DispatchSpecificKey<UInt8>()

  private static let tagged: Bool = {
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return true
  }()

  /// Whether the caller runs on the main queue (or on the main thread, which may be draining it).
  @usableFromInline package static var isCurrent: Bool {
    guard tagged else { return false }
    return DispatchQueue.getSpecific(key: key) != nil || Thread.isMainThread
  }

  /// Runs `body` on the main actor: at once when the caller is on the main queue, otherwise in a
  /// block enqueued there.
  static func runOnMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    // assumeIsolated: a block on the main queue runs on the main actor's executor; and `isCurrent`
    // means this runs on the main queue (or on the main thread), which the main actor's isolation
    // check accepts.
    guard isCurrent else { return DispatchQueue.main.async { MainActor.assumeIsolated(body) } }
    MainActor.assumeIsolated(body)
  }

  /// Whether a post runs on the main queue, asked at most once per post (`known` keeps the
  /// answer): it cannot change during the post, and asking costs a dispatch look-up.
  @inlinable @inline(__always)
  static func isCurrent(rememberedIn known: inout Bool?) -> Bool {
    if let known { return known }
    let current = isCurrent
    known = current
    return current
  }
}
