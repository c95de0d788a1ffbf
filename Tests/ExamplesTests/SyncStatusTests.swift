import Dispatch
import Foundation
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import SyncStatusExample
import Testing

/// Lets the main queue run everything enqueued on it so far.
private func drainMainQueue() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.main.async { continuation.resume() }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct SyncStatusTests {
  let notificationCenter = NotificationCenter()
  let ui = MainActorNotificationCenter()

  @Test func aFoundationPostOnTheMainActorReachesTheBadgeBeforeItReturns() {
    let bridge = FoundationNotificationBridge(notificationCenter)
    let relay = SyncStatusRelay(bridge: bridge, center: ui)
    let badge = SyncBadge(center: ui)
    #expect(badge.text == "not synced yet")

    SyncEngine(notificationCenter: notificationCenter).finishSync(changedItems: 3)

    #expect(badge.text == "3 changes synced")
    #expect(relay.syncCount == 1)
  }

  @Test func aFoundationPostFromAnotherThreadReachesTheBadgeOnTheMainQueue() async {
    let bridge = FoundationNotificationBridge(notificationCenter)
    let relay = SyncStatusRelay(bridge: bridge, center: ui)
    let badge = SyncBadge(center: ui)
    let engine = SyncEngine(notificationCenter: notificationCenter)

    onAnotherThread { engine.finishSync(changedItems: 1) }
    #expect(badge.text == "not synced yet", "converted on the posting thread, enqueued for the main actor")
    await drainMainQueue()

    #expect(badge.text == "1 change synced")
    #expect(relay.syncCount == 1)
  }

  @Test func aPostWithoutTheFigureIsSkipped() {
    let bridge = FoundationNotificationBridge(notificationCenter)
    let relay = SyncStatusRelay(bridge: bridge, center: ui)
    let badge = SyncBadge(center: ui)

    notificationCenter.post(name: SyncEngine.didFinishNotification, object: nil, userInfo: ["changed": "3"])

    #expect(badge.text == "not synced yet")
    #expect(relay.syncCount == 0)
  }

  @Test func everyBadgeIsUpdatedInTheOrderItObserved() {
    let bridge = FoundationNotificationBridge(notificationCenter)
    let relay = SyncStatusRelay(bridge: bridge, center: ui)
    let badges = (0..<5).map { _ in SyncBadge(center: ui) }
    var order: [Int] = []
    let tokens = (0..<5).map { index in ui.observe(SyncStatusChanged.self) { _ in order.append(index) } }

    SyncEngine(notificationCenter: notificationCenter).finishSync(changedItems: 2)

    #expect(badges.allSatisfy { $0.text == "2 changes synced" })
    #expect(order == [0, 1, 2, 3, 4])
    #expect(bridge.registrations.count == 1, "one Foundation observer, whatever the number of views")
    #expect(relay.syncCount == 1)
    for token in tokens { token.cancel() }
  }

  @Test(.detectsLeaks) func closingThePanelEndsTheBadgesObservation() async {
    let bridge = FoundationNotificationBridge(notificationCenter)
    let relay = SyncStatusRelay(bridge: bridge, center: ui)
    do {
      let badge = SyncBadge(center: ui)
      #expect(ui.observerCount(for: SyncStatusChanged.self) == 1)
      trackForLeaks(badge)
    }
    await expectNoObservers(in: ui)

    SyncEngine(notificationCenter: notificationCenter).finishSync(changedItems: 4)
    #expect(relay.syncCount == 1, "the relay still relays, to nobody")
    #expect(bridge.registrations.count == 1)
  }

  @Test(.detectsLeaks) func closingTheWindowEndsTheRelaysFoundationObserver() async {
    let bridge = FoundationNotificationBridge(notificationCenter)
    var seen: [Int] = []
    let tap = ui.observe(SyncStatusChanged.self) { status in seen.append(status.changedItems) }
    do {
      let relay = SyncStatusRelay(bridge: bridge, center: ui)
      SyncEngine(notificationCenter: notificationCenter).finishSync(changedItems: 5)
      #expect(bridge.observerCount(for: SyncFinished.self) == 1)
      trackForLeaks(relay)
    }
    await expectNoObservers(in: bridge)

    SyncEngine(notificationCenter: notificationCenter).finishSync(changedItems: 6)
    #expect(seen == [5], "nothing relays once the relay is gone")
    tap.cancel()
    await expectNoObservers(in: ui)
  }
}
