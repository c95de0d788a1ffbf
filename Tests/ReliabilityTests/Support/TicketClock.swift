import Synchronization

/// A logical clock shared by every thread of a test: each event draws a ticket.
///
/// Every draw is a sequentially consistent read-modify-write of one atomic, so tickets are totally
/// ordered, and an event that drew a smaller ticket on one thread happens-before every event that
/// drew a larger one (the read-modify-write chain synchronises). "Cancel returned at ticket 40, post
/// started at ticket 41" therefore means the post really started after the cancel completed.
final class TicketClock: Sendable {
  private let counter = Atomic<Int>(0)

  func tick() -> Int {
    counter.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
  }
}
