import Dispatch
import Foundation
import Synchronization

/// A block enqueued on the main queue that records whether it ran: whether the main queue made
/// progress while a blocking check waited.
final class MainQueueProbe: Sendable {
  /// A queue-specific key set on the main queue the first time it is read, so that a caller can
  /// tell it runs there even when the main queue is drained by a thread other than the first one
  /// (as under `swift test` on Linux).
  private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// Whether the caller runs on the main queue (or, on the main thread, may be draining it).
  static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) != nil || Thread.isMainThread }

  private let ran = Atomic<Bool>(false)

  init() {
    DispatchQueue.main.async { [self] in ran.store(true, ordering: .releasing) }
  }

  var hasRun: Bool { ran.load(ordering: .acquiring) }
}
