import PresentationModel
import PresentationTestSupport
import Synchronization

/// The shared state of one stress run: the clock, every observer's bookkeeping, and the list of
/// observers that any thread (or handler) may cancel.
///
/// Handlers capture the world, so the world holds the center weakly: otherwise center → channel →
/// registration → handler → world → center would be a cycle and the center could never go.
final class StressWorld: Sendable {
  struct Cancellable: Sendable {
    let record: StressObserver
    let token: ObserverToken
  }

  weak let center: (any RandomStressCenter)?
  let clock = TicketClock()
  let observers = LockedLog<StressObserver>()
  let owners = LockedLog<WeakStressOwner>()
  let results = LockedLog<StressThreadResult>()
  let echoDeliveries: [LockedLog<StressDelivery>]
  private let cancellable = LockedState<[Cancellable]>([])
  private let nextID = Atomic<Int>(0)

  init(center: any RandomStressCenter, echoObserverCount: Int) {
    self.center = center
    self.echoDeliveries = (0..<echoObserverCount).map { _ in LockedLog() }
  }

  func makeID() -> Int {
    nextID.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  func addCancellable(_ record: StressObserver, _ token: ObserverToken) {
    cancellable.withLock { $0.append(Cancellable(record: record, token: token)) }
  }

  /// Cancels the cancellable observer picked by `choice`, recording the completed cancel.
  func cancel(chosenBy choice: UInt64, onThread thread: Int) {
    let victim = cancellable.withLock { list in
      list.isEmpty ? nil : list[Int(choice % UInt64(list.count))]
    }
    guard let victim else { return }
    let start = clock.tick()
    victim.token.cancel()
    victim.record.ended(StressEnd(thread: thread, startTicket: start, endTicket: clock.tick()))
  }

  /// Breaks the test's own references to tokens so that the center can be checked for garbage.
  func releaseCancellables() {
    cancellable.withLock { $0.removeAll() }
  }

  // MARK: Handlers

  func handle(_ ping: StressPing, by record: StressObserver) {
    record.deliveries.record(StressDelivery(post: ping.post, thread: ping.poster, ticket: clock.tick()))
    switch record.behavior {
    case .record:
      break
    case .echo:
      center?.postNote(StressEcho(post: ping.post, poster: ping.poster))
    case .cancelOther:
      cancel(chosenBy: mix(UInt64(ping.post), UInt64(record.id)), onThread: ping.poster)
    }
  }

  func handle(_ ping: StressPing, by record: StressObserver, owner: StressOwner) {
    if owner.id != record.id { record.calledWithWrongOwner() }
    handle(ping, by: record)
  }

  func handleEcho(_ echo: StressEcho, observer index: Int) {
    echoDeliveries[index].record(StressDelivery(post: echo.post, thread: echo.poster, ticket: clock.tick()))
  }
}

/// A cheap deterministic hash of two numbers, to pick a victim without sharing a random generator.
func mix(_ first: UInt64, _ second: UInt64) -> UInt64 {
  var generator = SeededGenerator(seed: first &* 0x9E37_79B9_7F4A_7C15 ^ second)
  return generator.next()
}
