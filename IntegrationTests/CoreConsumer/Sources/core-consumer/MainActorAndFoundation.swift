import Foundation
import PresentationModel

// Issue 11's outside check: main-actor notifications with nothing Sendable, and a Foundation
// notification observed with an owner.

/// A plain model class: not Sendable, used on the main actor.
final class RecentDocuments {
  var items: [String] = []
}

/// A non-Sendable payload.
final class DocumentThumbnail {
  let title: String
  init(title: String) { self.title = title }
}

struct DocumentOpened: MainActorNotification {
  let thumbnail: DocumentThumbnail
}

/// A Foundation notification read as a typed value.
struct FreedMemory: FoundationNotification {
  static var name: Notification.Name { Notification.Name("CoreConsumer.FreedMemory") }
  let bytes: Int

  init?(_ notification: Notification) {
    guard let bytes = notification.userInfo?["bytes"] as? Int else { return nil }
    self.bytes = bytes
  }
}

final class MemoryMeter: Sendable {
  let log = LockedLog()
}

/// Sendable, so the posting-thread handler may record into it.
final class LockedLog: @unchecked Sendable {
  // @unchecked Sendable: every access goes through `lock`.
  private let lock = NSLock()
  private var entries: [Int] = []
  func append(_ value: Int) { lock.withLock { entries.append(value) } }
  var values: [Int] { lock.withLock { entries } }
}

@MainActor
func checkMainActorNotifications() -> Bool {
  let center = MainActorNotificationCenter()
  var recents: RecentDocuments? = RecentDocuments()
  weak let weakRecents = recents
  var handlerCalls = 0  // local state the owner-bound handler mutates
  center.observe(DocumentOpened.self, owner: recents!) { recents, note in
    recents.items.append(note.thumbnail.title)
    handlerCalls += 1
  }
  center.post(DocumentOpened(thumbnail: DocumentThumbnail(title: "Notes")))
  let items = recents?.items ?? []
  let before = center.observerCount(for: DocumentOpened.self)
  recents = nil
  let after = center.observerCount(for: DocumentOpened.self)
  center.post(DocumentOpened(thumbnail: DocumentThumbnail(title: "Later")))
  print(
    "main actor: items \(items), handler calls \(handlerCalls), observers before \(before), after \(after), "
      + "owner deallocated \(weakRecents == nil)")
  return items == ["Notes"] && handlerCalls == 1 && before == 1 && after == 0 && weakRecents == nil
}

func checkFoundationBridge() -> Bool {
  var meter: MemoryMeter? = MemoryMeter()
  let log = meter!.log
  FoundationNotificationBridge.default.observe(FreedMemory.self, owner: meter!) { meter, freed in
    meter.log.append(freed.bytes)
  }
  NotificationCenter.default.post(name: FreedMemory.name, object: nil, userInfo: ["bytes": 4_096])
  let received = log.values
  meter = nil
  NotificationCenter.default.post(name: FreedMemory.name, object: nil, userInfo: ["bytes": 8_192])
  let afterRelease = log.values
  let left = FoundationNotificationBridge.default.observerCount(for: FreedMemory.self)
  print("foundation: received \(received), after the owner went \(afterRelease), observers left \(left)")
  return received == [4_096] && afterRelease == [4_096] && left == 0
}
