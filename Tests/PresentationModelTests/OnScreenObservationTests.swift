import Foundation
import PresentationModel
import PresentationModelTesting
import Testing

// OnScreenObservation, the logic of SwiftUI's `onNotification` modifier, driven as SwiftUI drives
// it: start on appear, perform on each update, stop on disappear.

private struct Shown: MainActorNotification {
  let value: Int
}

private struct Synced: FoundationNotification {
  static var name: Notification.Name { Notification.Name("OnScreenObservationTests.Synced") }
  let value: Int
  init?(_ notification: Notification) {
    guard let value = notification.userInfo?["value"] as? Int else { return nil }
    self.value = value
  }
}

@MainActor
private final class Poster {}

@Suite(.timeLimit(.minutes(1))) @MainActor struct OnScreenObservationTests {
  let center = MainActorNotificationCenter()

  @Test func observesFromStartToStop() {
    let observation = OnScreenObservation<Shown>()
    var seen: [Int] = []
    observation.perform { seen.append($0.value) }
    center.post(Shown(value: 1))
    #expect(!observation.isObserving)

    observation.start(in: center)
    center.post(Shown(value: 2))
    #expect(observation.isObserving)

    observation.stop()
    center.post(Shown(value: 3))

    #expect(seen == [2])
    #expect(!observation.isObserving)
    #expect(center.registrations.isEmpty)
  }

  @Test func theLatestActionIsCalled() {
    let observation = OnScreenObservation<Shown>()
    var calls: [String] = []
    observation.perform { _ in calls.append("first") }
    observation.start(in: center)
    observation.perform { _ in calls.append("second") }  // the view updated
    center.post(Shown(value: 1))
    #expect(calls == ["second"])
    observation.stop()
  }

  @Test func startingTwiceKeepsTheFirstRegistrationAndStoppingTwiceIsHarmless() {
    let observation = OnScreenObservation<Shown>()
    var calls: [String] = []
    observation.perform { _ in calls.append("observation") }
    observation.start(in: center)
    let later = center.observe(Shown.self) { _ in calls.append("later") }
    observation.start(in: center)  // appears again without having disappeared
    #expect(center.observerCount(for: Shown.self) == 2)
    center.post(Shown(value: 1))
    #expect(calls == ["observation", "later"], "still the first registration, so still first in order")
    observation.stop()
    observation.stop()
    #expect(center.observerCount(for: Shown.self) == 1)
    later.cancel()
  }

  @Test func aViewThatAppearsAgainObservesAgain() {
    let observation = OnScreenObservation<Shown>()
    var seen: [Int] = []
    observation.perform { seen.append($0.value) }
    observation.start(in: center)
    observation.stop()
    observation.start(in: center)
    center.post(Shown(value: 7))
    #expect(seen == [7])
    observation.stop()
  }

  @Test func theRegistrationNamesTheLineThatStartedIt() throws {
    let observation = OnScreenObservation<Shown>()
    let line = #line + 1
    observation.start(in: center)
    let registration = try #require(center.registrations.first)
    #expect(registration.fileID == #fileID)
    #expect(registration.line == line)
    #expect(registration.ownerType == nil, "token-bound: the observation ends it")
    observation.stop()
  }

  @Test func aSenderFiltersThePosts() {
    let observation = OnScreenObservation<Shown>()
    let mine = Poster()
    let other = Poster()
    var seen: [Int] = []
    observation.perform { seen.append($0.value) }
    observation.start(in: center, from: mine)
    center.post(Shown(value: 1), from: other)
    center.post(Shown(value: 2), from: mine)
    center.post(Shown(value: 3))
    #expect(seen == [2])
    observation.stop()
  }

  @Test(.detectsLeaks) func releasingAStartedObservationEndsItsRegistration() async {
    do {
      let observation = OnScreenObservation<Shown>()
      observation.perform { _ in }
      observation.start(in: center)
      trackForLeaks(observation)  // the handler holds it weakly: no cycle through the center
    }
    await expectNoObservers(in: center)
  }

  @Test(.detectsLeaks) func observesAFoundationNotificationThroughTheBridge() async {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let observation = OnScreenObservation<Synced>()
    var seen: [Int] = []
    observation.perform { seen.append($0.value) }
    observation.start(in: bridge)
    foundation.post(name: Synced.name, object: nil, userInfo: ["value": 1])
    #expect(seen == [1], "posted on the main actor: delivered before post returns")
    #expect(bridge.registrations.map(\.delivery) == [.mainActor])

    observation.stop()
    foundation.post(name: Synced.name, object: nil, userInfo: ["value": 2])
    #expect(seen == [1])
    await expectNoObservers(in: bridge)
  }
}
