import Dispatch
import Foundation
import PresentationModel
import SyncStatusExample

extension DemoRun {
  /// A Foundation notification, posted to `NotificationCenter.default` from a background queue,
  /// reaches main-actor UI through the bridge and the main-actor center, and each observation ends
  /// with its owner.
  func playSyncStatus() async {
    introduce(.syncstatus, "NotificationCenter → FoundationNotificationBridge → MainActorNotificationCenter → UI")
    let engine = SyncEngine(notificationCenter: bridge.notificationCenter)
    var relay: SyncStatusRelay? = ledger.track(SyncStatusRelay(bridge: bridge, center: mainActorCenter))
    var badge: SyncBadge? = ledger.track(SyncBadge(center: mainActorCenter))
    say("open the sync panel: badge shows '\(badge?.text ?? "")'")
    say("observers: \(describeObservers())")

    await syncInBackground(engine, changedItems: 3)
    say("the engine posts SyncEngineDidFinish (3 items) from a background queue → badge shows '\(badge?.text ?? "")'")
    engine.finishSync(changedItems: 1)
    say("the engine posts again, on the main thread: delivered before post returns → '\(badge?.text ?? "")'")

    badge = nil
    say("close the sync panel: the badge deinitialises; observers: \(describeObservers())")
    engine.finishSync(changedItems: 2)
    say("the engine posts again: the relay counts sync \(relay?.syncCount ?? 0) and updates nobody")

    relay = nil
    say("close the window: the relay deinitialises; observers: \(describeObservers())")
    await syncInBackground(engine, changedItems: 4)
    say("the engine posts again: no observer is left in NotificationCenter to receive it")
  }

  /// The observers each layer has now.
  private func describeObservers() -> String {
    "bridge \(bridge.registrations.count), main-actor center \(mainActorCenter.registrations.count)"
  }

  /// Posts from a background queue, then lets the main queue run what the post enqueued there.
  private func syncInBackground(_ engine: SyncEngine, changedItems: Int) async {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        engine.finishSync(changedItems: changedItems)
        // Enqueued after the bridge's delivery, so the main queue runs that first.
        DispatchQueue.main.async { continuation.resume() }
      }
    }
  }
}
