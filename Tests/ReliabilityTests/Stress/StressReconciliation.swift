import PresentationTestSupport

/// Checks, after every stress thread finished, that each recorded delivery was allowed and each
/// required delivery happened. Returns one line per violation.
///
/// With tickets from one ``TicketClock`` the rules are exact:
/// - a post delivers to an observer at most once; a one-shot observer is called at most once;
/// - no post that started after a `cancel()` (or token release) returned delivers to that observer,
///   and no delivery happens on the cancelling thread after that point at all;
/// - no delivery happens after the owner's `deinit` began (the handler holds the owner strongly);
/// - an owner-bound handler receives its own owner;
/// - every post that started after `observe` returned and ended before anything began to end the
///   observation was delivered to it (a one-shot observer fired exactly once if there was one);
/// - an async-sequence consumer receives each post once, in posting order per thread, nothing that
///   started after its token was cancelled, and (when stopped by its token) every post made
///   entirely within its lifetime;
/// - every `StressEcho` posted from a handler reached every echo observer exactly once.
struct StressReconciliation {
  let observers: [StressObserver]
  let posts: [Int: StressPost]
  let consumers: [StressConsumer]
  let echoDeliveries: [[StressDelivery]]
  private(set) var violations: [String] = []

  init(
    observers: [StressObserver], posts: [StressPost], consumers: [StressConsumer], echoDeliveries: [[StressDelivery]]
  ) {
    self.observers = observers
    self.posts = Dictionary(uniqueKeysWithValues: posts.map { ($0.ticket, $0) })
    self.consumers = consumers
    self.echoDeliveries = echoDeliveries
  }

  mutating func run() {
    let postsInOrder = posts.values.sorted { $0.ticket < $1.ticket }
    for record in observers { check(record, postsInOrder: postsInOrder) }
    for (index, consumer) in consumers.enumerated() { check(consumer, index: index, postsInOrder: postsInOrder) }
    checkEchoes()
  }

  private mutating func fail(_ message: String) {
    violations.append(message)
  }

  private mutating func check(_ record: StressObserver, postsInOrder: [StressPost]) {
    let name = "observer \(record.id) (\(record.kind), \(record.behavior))"
    let deliveries = record.deliveries.entries
    if record.wrongOwnerCalls > 0 { fail("\(name) was called with another object as its owner") }
    var delivered = Set<Int>()
    for delivery in deliveries where !delivered.insert(delivery.post).inserted {
      fail("\(name) received post \(delivery.post) twice")
    }
    if record.kind.isOneShot && deliveries.count > 1 {
      fail("\(name) is one-shot but was called \(deliveries.count) times")
    }
    let ends = record.ends
    for delivery in deliveries {
      guard let post = posts[delivery.post] else {
        fail("\(name) received post \(delivery.post), which no thread recorded")
        continue
      }
      for end in ends {
        if post.ticket > end.endTicket {
          fail("\(name) received post \(post.ticket), which started after a cancel returned at \(end.endTicket)")
        }
        if delivery.thread == end.thread && delivery.ticket > end.endTicket {
          fail(
            "\(name) was called at \(delivery.ticket) on thread \(end.thread), after that thread's cancel returned at \(end.endTicket)"
          )
        }
      }
      if let death = record.ownerDeathTicket, delivery.ticket > death {
        fail("\(name) was called at \(delivery.ticket), after its owner's deinit at \(death)")
      }
    }
    guard let observed = record.observeEndTicket else {
      fail("\(name) never recorded the end of its observe call")
      return
    }
    // Completeness: posts made entirely while nothing was ending the observation.
    let endingStarts = ends.map(\.startTicket) + [record.ownerReleaseTicket, record.ownerDeathTicket].compactMap { $0 }
    let windowEnd = endingStarts.min() ?? Int.max
    let required = postsInOrder.lazy.filter { $0.ticket > observed && $0.endTicket < windowEnd }
    if record.kind.isOneShot {
      if let first = required.first, deliveries.count != 1 {
        fail(
          "\(name) is one-shot and post \(first.ticket) was made while it was live, but it was called \(deliveries.count) times"
        )
      }
    } else {
      for post in required where !delivered.contains(post.ticket) {
        fail("\(name) missed post \(post.ticket), made entirely while it was live")
      }
    }
  }

  private mutating func check(_ consumer: StressConsumer, index: Int, postsInOrder: [StressPost]) {
    let name = "consumer \(index)"
    let received = consumer.received.entries
    var seen = Set<Int>()
    var lastByPoster: [Int: Int] = [:]
    for ping in received {
      if !seen.insert(ping.post).inserted { fail("\(name) received post \(ping.post) twice") }
      if let last = lastByPoster[ping.poster], last > ping.post {
        fail("\(name) received post \(ping.post) after the later post \(last) of the same thread")
      }
      lastByPoster[ping.poster] = ping.post
    }
    guard let stop = consumer.stop else {
      fail("\(name) was never stopped")
      return
    }
    guard stop.byTokenCancel else { return }
    for ping in received where ping.post > stop.endTicket {
      fail("\(name) received post \(ping.post), which started after its token was cancelled at \(stop.endTicket)")
    }
    for post in postsInOrder
    where post.ticket > consumer.createEndTicket && post.endTicket < stop.startTicket && !seen.contains(post.ticket) {
      fail("\(name) missed post \(post.ticket), made entirely while it was consuming")
    }
  }

  private mutating func checkEchoes() {
    let echoed = observers.filter { $0.behavior == .echo }.flatMap { $0.deliveries.entries.map(\.post) }.sorted()
    for (index, deliveries) in echoDeliveries.enumerated() where deliveries.map(\.post).sorted() != echoed {
      fail("echo observer \(index) received \(deliveries.count) echoes; handlers posted \(echoed.count)")
    }
  }
}
