// An app's own SwiftUI views using the package's `onNotification` modifiers, as
// Docs/Notifications.md shows them. .ci/check-uikit-faces.sh type-checks this module against the
// SwiftUI stub (.ci/swiftui-stub); nothing here runs on Linux.
import Foundation
import Observation
import PresentationModel
import SwiftUI

struct DocumentClosed: MainActorNotification {
  let title: String
}

struct LowMemory: FoundationNotification {
  static var name: Notification.Name { Notification.Name("LowMemory") }
  init?(_ notification: Notification) {}
}

/// Observes the main-actor center while it is on screen.
struct RecentsView: View {
  @State private var closed: [String] = []

  var body: some View {
    Text(closed.joined(separator: ", "))
      .onNotification(DocumentClosed.self) { note in closed.append(note.title) }
  }
}

/// Observes a Foundation notification through the bridge while it is on screen, and a main-actor
/// one from one sender only.
struct ThumbnailsView: View {
  let bridge: FoundationNotificationBridge
  let center: MainActorNotificationCenter
  let library: AnyObject
  @State private var purged = 0
  @State private var lastClosed = ""

  var body: some View {
    Text("\(purged) purges, last closed: \(lastClosed)")
      .onNotification(LowMemory.self, in: bridge) { _ in purged += 1 }
      .onNotification(DocumentClosed.self, in: center, from: library) { note in lastClosed = note.title }
  }
}

/// The `@Observable` recipe of Docs/Notifications.md in a view: the model owns its observations
/// (bound to it as owner), and the view owns the model in its state, so the observations end when
/// SwiftUI discards the view's state.
@MainActor @Observable
final class LibraryModel {
  var openTitles: [String] = ["Notes", "Plans"]
  var thumbnailsPurged = 0

  init(center: MainActorNotificationCenter, bridge: FoundationNotificationBridge) {
    center.observe(DocumentClosed.self, owner: self) { model, note in
      model.openTitles.removeAll { $0 == note.title }
    }
    bridge.observeOnMainActor(LowMemory.self, owner: self) { model, _ in
      model.thumbnailsPurged += 1
    }
  }
}

struct LibraryView: View {
  @State private var model = LibraryModel(center: .default, bridge: .default)

  var body: some View {
    Text(model.openTitles.joined(separator: ", "))
  }
}
