import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

/// A page whose deinit reports whether it ran on the main queue: not Sendable, like the pages of
/// the main-actor center's examples.
final class ProbedPage {
  let onDeinit: @Sendable (_ onMainQueue: Bool) -> Void
  init(_ onDeinit: @escaping @Sendable (_ onMainQueue: Bool) -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit(OnMainQueue.isCurrent) }
}

struct ProbedPageOpened: MainActorNotification {
  let page: ProbedPage
}

@Suite(.timeLimit(.minutes(1))) @MainActor struct MainActorSequenceTests {
  @Test func deliversNonSendablePagesInPostingOrderOnTheMainActorAndRegistersAtOnce() async throws {
    let center = MainActorNotificationCenter()
    let line = #line + 1
    let opened = center.notifications(of: PageOpened.self, bufferingPolicy: .unbounded)
    let registration = try #require(center.registrations.first, "registered before iteration starts")
    #expect(registration.delivery == .asyncSequence)
    #expect(registration.fileID == "PresentationModelTests/MainActorSequenceTests.swift")
    #expect(registration.line == line)
    #expect(registration.ownerType == nil)
    for title in ["one", "two", "three"] { center.post(PageOpened(page: Page(title))) }
    var titles: [String] = []
    for await note in opened {
      MainActor.assertIsolated()
      titles.append(note.page.title)
      if titles.count == 3 { break }
    }
    #expect(titles == ["one", "two", "three"])
  }

  @Test func aLoopInATaskSeesPostsMadeWhileItWaits() async {
    let center = MainActorNotificationCenter()
    let opened = center.notifications(of: PageOpened.self, bufferingPolicy: .unbounded)
    let consumer = Task {
      var titles: [String] = []
      for await note in opened.prefix(2) { titles.append(note.page.title) }
      return titles
    }
    await Task.yield()  // the loop may or may not be waiting yet: both must work
    center.post(PageOpened(page: Page("first")))
    center.post(PageOpened(page: Page("second")))
    #expect(await consumer.value == ["first", "second"])
  }

  @Test func cancellingTheConsumingTaskEndsTheRegistration() async {
    let center = MainActorNotificationCenter()
    let opened = center.notifications(of: PageOpened.self, bufferingPolicy: .unbounded)
    let consumer = Task {
      var count = 0
      for await _ in opened { count += 1 }
      return count
    }
    center.post(PageOpened(page: Page("one")))
    consumer.cancel()
    _ = await consumer.value  // the loop ended: the task's cancellation finished the sequence
    #expect(!opened.token.isActive)
    await expectNoObservers(in: center, of: PageOpened.self, timeout: .zero)
  }

  @Test func releasingTheSequenceAndItsIteratorsEndsTheRegistrationAndReleasesWhatItBuffered() async {
    let center = MainActorNotificationCenter()
    let pages = LeakTracker()
    do {
      let opened = center.notifications(of: PageOpened.self, bufferingPolicy: .unbounded)
      let iterator = opened.makeAsyncIterator()
      let page = Page("buffered")
      pages.track(page)
      center.post(PageOpened(page: page))
      center.post(PageOpened(page: Page("taken")))
      #expect(center.observerCount(for: PageOpened.self) == 1)
      _ = iterator  // the iterator and the sequence go here, the first page still buffered
    }
    await expectNoObservers(in: center, timeout: .zero)
    await expectReleased(pages, "the buffered page was released with the sequence")
  }

  @Test func anIteratorKeepsTheRegistrationAliveAfterTheSequenceIsReleased() async {
    let center = MainActorNotificationCenter()
    var iterator = center.notifications(of: PageOpened.self, bufferingPolicy: .unbounded).makeAsyncIterator()
    #expect(center.observerCount(for: PageOpened.self) == 1)
    center.post(PageOpened(page: Page("kept")))
    #expect(await iterator.next()?.page.title == "kept")
  }

  @Test func cancellingTheTokenFinishesTheSequenceAfterWhatItBuffered() async {
    let center = MainActorNotificationCenter()
    let opened = center.notifications(of: PageOpened.self, bufferingPolicy: .unbounded)
    center.post(PageOpened(page: Page("one")))
    center.post(PageOpened(page: Page("two")))
    let token = opened.token
    onAnotherThread { token.cancel() }  // a token may be cancelled on any thread
    center.post(PageOpened(page: Page("after")))
    var titles: [String] = []
    for await note in opened { titles.append(note.page.title) }
    #expect(titles == ["one", "two"])
    await drainMainQueue()  // the handler is released on the main queue
    await expectNoObservers(in: center, timeout: .zero)
  }

  @Test func aCenterThatDeinitialisesFinishesTheSequenceAfterWhatItBuffered() async throws {
    var center: MainActorNotificationCenter? = MainActorNotificationCenter()
    let opened = try #require(center).notifications(of: PageOpened.self, bufferingPolicy: .unbounded)
    try #require(center).post(PageOpened(page: Page("last")))
    let centers = LeakTracker()
    centers.track(try #require(center))
    center = nil
    await expectReleased(centers, "the sequence does not keep its center alive")
    var titles: [String] = []
    for await note in opened { titles.append(note.page.title) }
    #expect(titles == ["last"])
    #expect(!opened.token.isActive)
  }

  @Test(arguments: [
    (NotificationBufferingPolicy.unbounded, [1, 2, 3, 4, 5]),
    (.bufferingOldest(2), [1, 2]),
    (.bufferingNewest(2), [4, 5]),
  ])
  func theBufferingPolicyDecidesWhatALaggingLoopSees(policy: NotificationBufferingPolicy, expected: [Int]) async {
    let center = MainActorNotificationCenter()
    let opened = center.notifications(of: PageOpened.self, bufferingPolicy: policy)
    for index in 1...5 { center.post(PageOpened(page: Page("\(index)"))) }
    opened.token.cancel()
    var received: [Int] = []
    for await note in opened { received.append(Int(note.page.title) ?? 0) }
    #expect(received == expected)
  }

  @Test func aSenderFilterDeliversThatSendersPostsOnly() async {
    let center = MainActorNotificationCenter()
    let editor = Sender()
    let opened = center.notifications(of: PageOpened.self, from: editor, bufferingPolicy: .unbounded)
    #expect(center.registrations.first?.filtersBySender == true)
    center.post(PageOpened(page: Page("anyone")))
    center.post(PageOpened(page: Page("editor")), from: editor)
    center.post(PageOpened(page: Page("someone else")), from: Sender())
    opened.token.cancel()
    var titles: [String] = []
    for await note in opened { titles.append(note.page.title) }
    #expect(titles == ["editor"])
  }

  @Test func whatTheSequenceBufferedIsReleasedOnTheMainQueueWhenItsTokenGoesLastElsewhere() async {
    let center = MainActorNotificationCenter()
    let releasedOnMainQueue = LockedBox<Bool?>(nil)
    _ = OnMainQueue.isCurrent  // tag the main queue before another thread asks
    let token = LockedBox<ObserverToken?>(nil)
    do {
      let opened = center.notifications(of: ProbedPageOpened.self, bufferingPolicy: .unbounded)
      token.withLock { $0 = opened.token }
      center.post(ProbedPageOpened(page: ProbedPage { onMain in releasedOnMainQueue.withLock { $0 = onMain } }))
    }
    // The sequence is gone; the token (held here) keeps the registration and its buffer.
    #expect(releasedOnMainQueue.value == nil)
    onAnotherThread { token.withLock { $0 = nil } }  // the last reference goes on another thread
    await drainMainQueue()
    #expect(releasedOnMainQueue.value == true, "the buffered page was released on the main queue")
    await expectNoObservers(in: center, timeout: .zero)
  }

  /// Region-based isolation lets a fresh sequence be sent to another thread (`Task.detached {
  /// _ = sequence }` compiles); a test cannot make that happen on a thread of its choosing, so this
  /// box stands in for the `sending` hand-over.
  private final class Handoff<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written on the main actor, then, after `onAnotherThread`
    // started its thread (a happens-before edge), only on that thread, while the main actor waits.
    var value: Value?
  }

  @Test(arguments: [false, true])
  func whatTheSequenceBufferedIsReleasedOnTheMainQueueWhenTheSequenceGoesLastElsewhere(
    withAnIterator: Bool
  ) async {
    let center = MainActorNotificationCenter()
    let releasedOnMainQueue = LockedBox<Bool?>(nil)
    _ = OnMainQueue.isCurrent  // tag the main queue before another thread asks
    let sequence = Handoff<MainActorNotificationSequence<ProbedPageOpened>>()
    let iterator = Handoff<MainActorNotificationSequence<ProbedPageOpened>.AsyncIterator>()
    do {
      let opened = center.notifications(of: ProbedPageOpened.self, bufferingPolicy: .unbounded)
      center.post(ProbedPageOpened(page: ProbedPage { onMain in releasedOnMainQueue.withLock { $0 = onMain } }))
      opened.token.cancel()  // the observation ends; what it buffered stays in the sequence
      if withAnIterator { iterator.value = opened.makeAsyncIterator() } else { sequence.value = opened }
    }
    await drainMainQueue()
    #expect(releasedOnMainQueue.value == nil, "the sequence (or its iterator) keeps what it buffered")
    onAnotherThread {  // the last references go on another thread
      sequence.value = nil
      iterator.value = nil
    }
    await drainMainQueue()
    #expect(releasedOnMainQueue.value == true, "the buffered page was released on the main queue")
    await expectNoObservers(in: center, timeout: .zero)
  }

  @Test("Fails on purpose: a forgotten sequence is reported with the line that made it")
  func aForgottenSequenceIsReportedWithTheLineThatMadeIt() async {
    let center = MainActorNotificationCenter()
    let line = #line + 1
    let forgotten = center.notifications(of: PageClosed.self, bufferingPolicy: .bufferingNewest(1))
    await withKnownIssue {
      await expectNoObservers(in: center, timeout: .zero)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains(
          "PageClosed observed (token) at PresentationModelTests/MainActorSequenceTests.swift:\(line), async sequence")
      }
    }
    withExtendedLifetime(forgotten) {}
  }
}
