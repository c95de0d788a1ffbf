import Foundation
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

/// A report attached to a Foundation notification, as an object in its `userInfo`.
final class Report: Sendable {}

struct ReportAttached: FoundationNotification {
  static var name: Notification.Name { Notification.Name("PresentationModelTests.ReportAttached") }
  let report: Report

  init?(_ notification: Notification) {
    guard let report = notification.userInfo?["report"] as? Report else { return nil }
    self.report = report
  }
}

/// Posts a `ReportAttached` carrying a new report that `tracker` tracks.
private func postReport(trackedBy tracker: LeakTracker, to center: NotificationCenter) {
  let report = Report()
  tracker.track(report)
  center.post(name: ReportAttached.name, object: nil, userInfo: ["report": report])
}

@Suite(.timeLimit(.minutes(1))) struct FoundationSequenceTests {
  @Test func deliversInPostingOrderAndRegistersAtOnce() async throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let line = #line + 1
    let trims = bridge.notifications(of: CacheTrimmed.self, bufferingPolicy: .unbounded)
    let registration = try #require(bridge.registrations.first, "registered before iteration starts")
    #expect(registration.delivery == .asyncSequence)
    #expect(registration.line == line)
    #expect(registration.fileID == "PresentationModelTests/FoundationSequenceTests.swift")
    for bytes in 1...4 { postTrimmed(bytes, to: foundation) }
    var received: [Int] = []
    for await trimmed in trims {
      received.append(trimmed.freedBytes)
      if received.count == 4 { break }
    }
    #expect(received == [1, 2, 3, 4])
  }

  @Test func cancellingTheConsumingTaskEndsTheRegistrationAndRemovesItsFoundationObserver() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let trims = bridge.notifications(of: CacheTrimmed.self, bufferingPolicy: .unbounded)
    let consumer = Task {
      var count = 0
      for await _ in trims { count += 1 }
      return count
    }
    postTrimmed(1, to: foundation)
    consumer.cancel()
    _ = await consumer.value
    #expect(!trims.token.isActive)
    await expectNoObservers(in: bridge, timeout: .zero)
  }

  @Test func releasingTheSequenceAndItsIteratorsEndsTheRegistration() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    do {
      let trims = bridge.notifications(of: CacheTrimmed.self, bufferingPolicy: .unbounded)
      var iterator = trims.makeAsyncIterator()
      postTrimmed(5, to: foundation)
      #expect(await iterator.next()?.freedBytes == 5)
      #expect(bridge.observerCount(for: CacheTrimmed.self) == 1)
    }
    await expectNoObservers(in: bridge, timeout: .zero)
  }

  @Test func cancellingTheTokenEndsTheRegistrationAndRemovesItsFoundationObserver() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let reports = LeakTracker()
    do {
      let attached = bridge.notifications(of: ReportAttached.self, bufferingPolicy: .unbounded)
      postReport(trackedBy: reports, to: foundation)
      postReport(trackedBy: reports, to: foundation)
      attached.token.cancel()
      postReport(trackedBy: reports, to: foundation)  // after the end: not buffered
      var iterator = attached.makeAsyncIterator()
      #expect(await iterator.next() != nil, "what was buffered before the cancel is still handed out")
      await expectNoObservers(in: bridge, timeout: .zero)
    }
    // The second report was still buffered as the sequence went. Had the Foundation observer
    // stayed, its block would still hold the stream's continuation, and with it that report.
    await expectReleased(reports)
  }

  @Test func aBridgeThatDeinitialisesFinishesTheSequenceAndRemovesItsFoundationObserver() async throws {
    let foundation = NotificationCenter()
    var bridge: FoundationNotificationBridge? = FoundationNotificationBridge(foundation)
    let reports = LeakTracker()
    do {
      let attached = try #require(bridge).notifications(of: ReportAttached.self, bufferingPolicy: .unbounded)
      postReport(trackedBy: reports, to: foundation)
      bridge = nil
      var received = 0
      for await _ in attached { received += 1 }
      #expect(received == 1, "what was buffered is handed out, then the sequence finishes")
      #expect(!attached.token.isActive)
    }
    do {
      var bridge: FoundationNotificationBridge? = FoundationNotificationBridge(foundation)
      let attached = try #require(bridge).notifications(of: ReportAttached.self, bufferingPolicy: .unbounded)
      postReport(trackedBy: reports, to: foundation)
      postReport(trackedBy: reports, to: foundation)
      bridge = nil
      var iterator = attached.makeAsyncIterator()
      #expect(await iterator.next() != nil)
    }
    await expectReleased(
      reports, "no Foundation observer of the bridge is left to hold the stream and its second report")
  }

  @Test(arguments: [
    (NotificationBufferingPolicy.unbounded, [1, 2, 3, 4, 5]),
    (.bufferingOldest(2), [1, 2]),
    (.bufferingNewest(2), [4, 5]),
  ])
  func theBufferingPolicyDecidesWhatALaggingLoopSees(policy: NotificationBufferingPolicy, expected: [Int]) async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let trims = bridge.notifications(of: CacheTrimmed.self, bufferingPolicy: policy)
    for bytes in 1...5 { postTrimmed(bytes, to: foundation) }
    trims.token.cancel()
    var received: [Int] = []
    for await trimmed in trims { received.append(trimmed.freedBytes) }
    #expect(received == expected)
  }

  @Test func aSenderFilterAndFailedConversionsLetOnlyThatSendersNotificationsThrough() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let cache = Sender()
    let trims = bridge.notifications(of: CacheTrimmed.self, from: cache, bufferingPolicy: .unbounded)
    #expect(bridge.registrations.first?.filtersBySender == true)
    postTrimmed(1, to: foundation)
    postTrimmed(2, to: foundation, object: cache)
    foundation.post(name: CacheTrimmed.name, object: cache, userInfo: nil)  // does not convert: skipped
    postTrimmed(3, to: foundation, object: Sender())
    trims.token.cancel()
    var received: [Int] = []
    for await trimmed in trims { received.append(trimmed.freedBytes) }
    #expect(received == [2])
  }

  @Test func postsFromManyThreadsAllArriveInEachThreadsOrder() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let trims = bridge.notifications(of: CacheTrimmed.self, bufferingPolicy: .unbounded)
    await runOnThreads(4) { thread in
      for value in 0..<100 { postTrimmed(thread * 1000 + value, to: foundation) }
    }
    trims.token.cancel()
    var received: [Int] = []
    for await trimmed in trims { received.append(trimmed.freedBytes) }
    #expect(received.count == 400)
    for thread in 0..<4 {
      let mine = received.filter { $0 / 1000 == thread }
      #expect(mine == mine.sorted(), "posts from one thread arrive in their order")
    }
  }

  @Test func releasingTheSequenceReleasesItsHandlerAndWhatItBuffered() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let reports = LeakTracker()
    do {
      let attached = bridge.notifications(of: ReportAttached.self, bufferingPolicy: .unbounded)
      postReport(trackedBy: reports, to: foundation)
      _ = attached  // released here, the report still buffered
    }
    await expectNoObservers(in: bridge, timeout: .zero)
    await expectReleased(reports, "the buffer went with the registration, its handler and its Foundation observer")
  }

  @Test("Fails on purpose: a forgotten sequence is reported with the line that made it")
  func aForgottenSequenceIsReportedWithTheLineThatMadeIt() async {
    let bridge = FoundationNotificationBridge(NotificationCenter())
    let line = #line + 1
    let forgotten = bridge.notifications(of: CacheTrimmed.self, bufferingPolicy: .bufferingNewest(1))
    await withKnownIssue {
      await expectNoObservers(in: bridge, timeout: .zero)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains(
          "CacheTrimmed observed (token) at PresentationModelTests/FoundationSequenceTests.swift:\(line), async sequence"
        )
      }
    }
    withExtendedLifetime(forgotten) {}
  }
}
