import Foundation
import Observation
import PresentationModel
import PresentationModelTesting
import Testing

// The recipe of Notifications.md, run: an @Observable model whose observations of a
// main-actor notification and of a Foundation notification end with it.

struct ShelfChanged: MainActorNotification {
  let titles: [String]
}

struct ShelfReset: FoundationNotification {
  static var name: Notification.Name { Notification.Name("PresentationModelTests.ShelfReset") }
  init?(_ notification: Notification) {}
}

@MainActor @Observable
final class ShelfModel {
  var titles: [String] = []

  init(center: MainActorNotificationCenter, bridge: FoundationNotificationBridge) {
    center.observe(ShelfChanged.self, owner: self) { model, note in model.titles = note.titles }
    bridge.observeOnMainActor(ShelfReset.self, owner: self) { model, _ in model.titles = [] }
  }
}

@Suite(.timeLimit(.minutes(1))) @MainActor struct ObservableRecipeTests {
  @Test(.detectsLeaks) func observableModelsObservationsEndWithIt() async {
    let center = MainActorNotificationCenter()
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    do {
      let model = ShelfModel(center: center, bridge: bridge)
      center.post(ShelfChanged(titles: ["Notes"]))
      #expect(model.titles == ["Notes"])
      foundation.post(name: ShelfReset.name, object: nil)
      #expect(model.titles.isEmpty)
      #expect(center.registrations.count == 1)
      #expect(bridge.registrations.count == 1)
      trackForLeaks(model)
    }
    await expectNoObservers(in: center)
    await expectNoObservers(in: bridge)
  }
}
