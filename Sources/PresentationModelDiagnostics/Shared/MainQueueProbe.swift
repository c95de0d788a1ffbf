import Dispatch
import Foundation
import Synchronization

/// A block enqueued on the main queue that records whether it ran: whether the main queue made
/// progress while a blocking check waited.
final class MainQueueProbe: Sendable {
  private static let key = DispatchSpecificKey<UInt8>()
  private static let tagged: Bool = {
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return true
  }()

  /// Whether the caller runs on the main queue (or, on the main thread, may be draining it).
  static var isOnMainQueue: Bool {
    guard tagged else { return false }
    return DispatchQueue.getSpecific(key: key) != nil || Thread.isMainThread
  }

  private let ran = Atomic<Bool>(false)

  init() {
    DispatchQueue.main.async { [self] in ran.store(true, ordering: .releasing) }
  }

  var hasRun: Bool { ran.load(ordering: .acquiring) }
}
