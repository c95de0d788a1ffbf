internal import Dispatch
internal import Foundation

/// Tells whether the caller runs on the main actor's queue without trapping.
///
/// `Thread.isMainThread` alone is not enough: on Linux the main queue (and with it the main actor)
/// may be drained by a thread other than the process's first one, as under `swift test`. The main
/// queue is therefore tagged with a queue-specific value the first time this is asked.
enum MainQueue {
  private static let key = DispatchSpecificKey<UInt8>()

  private static let tagged: Bool = {
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return true
  }()

  static var isCurrent: Bool {
    guard tagged else { return false }
    return DispatchQueue.getSpecific(key: key) != nil || Thread.isMainThread
  }
}
