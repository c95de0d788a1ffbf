import Dispatch
import PresentationModel
import Synchronization

/// A block enqueued on the main queue that records whether it ran: whether the main queue made
/// progress while a blocking check waited. Whether the caller runs on the main queue is the core's
/// `MainQueue.isCurrent`, the one place that tells.
final class MainQueueProgress: Sendable {
  private let ran = Atomic<Bool>(false)

  init() {
    DispatchQueue.main.async { [self] in ran.store(true, ordering: .releasing) }
  }

  var hasRun: Bool { ran.load(ordering: .acquiring) }
}
