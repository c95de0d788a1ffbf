import Dispatch
import Foundation
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

/// Regression tests for what the observation layer under the three centers guarantees on each:
/// main-actor handlers released on the main queue whichever thread ends them, no owner loaded
/// while a channel is rebuilt, traps that name their center.
@Suite(.timeLimit(.minutes(1))) @MainActor struct ObservationLayerTests {
  /// The bridge's main-actor forms, each registered with a handler that holds `probe`; returns the
  /// token and what to post to reach the handler.
  enum BridgeMainActorForm: String, CaseIterable, Sendable {
    case tokenBound = "observeOnMainActor(_:_:)"
    case ownerBound = "observeOnMainActor(_:owner:_:)"
    case mainActorMessage = "observe(_:owner:_:) with a MainActorMessage"
  }

  /// A main-actor handler (which may hold non-Sendable state) cancelled on another thread is
  /// released on the main queue, on every main-actor form of the bridge. (It used to be released
  /// by the Foundation center on the cancelling thread, with the block that held it.)
  @Test(arguments: BridgeMainActorForm.allCases)
  func bridgeMainActorHandlerCancelledOnAnotherThreadIsReleasedOnTheMainQueue(form: BridgeMainActorForm) async throws {
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let owner = MainActorTitles()
    let sendableOwner = SendableOwner()
    let released = LockedBox<Bool?>(nil)
    var calls = 0
    _ = OnMainQueue.isCurrent  // tag the main queue before another thread asks
    var probe: DeinitProbe? = DeinitProbe { released.withLock { $0 = OnMainQueue.isCurrent } }
    let token: ObserverToken
    switch form {
    case .tokenBound:
      token = bridge.observeOnMainActor(CacheTrimmed.self) { [probe] _ in withExtendedLifetime(probe) { calls += 1 } }
      postTrimmed(1, to: foundation)
    case .ownerBound:
      token = bridge.observeOnMainActor(CacheTrimmed.self, owner: sendableOwner) { [probe] _, _ in
        withExtendedLifetime(probe) { calls += 1 }
      }
      postTrimmed(1, to: foundation)
    case .mainActorMessage:
      token = bridge.observe(DocumentSaved.self, owner: owner) { [probe] _, _ in
        withExtendedLifetime(probe) { calls += 1 }
      }
      foundation.post(DocumentSaved(title: "one"))
    }
    probe = nil  // the handler holds the only reference
    #expect(calls == 1)
    onAnotherThread { token.cancel() }
    await drainMainQueue()
    #expect(released.value == true, "the handler was released on the main queue")
    #expect(bridge.registrations.isEmpty)
    withExtendedLifetime((owner, sendableOwner)) {}
  }

  /// An owner released while the main-actor center rebuilds a channel: its `deinit` registers a
  /// new observer. The rebuild loads no owner (the owner's `deinit` would run inside it, and the
  /// rebuilt entries would drop the new registration); the sweep after it does, and the new
  /// registration receives posts.
  @Test(.enabled(if: OwnerLoadProbe.isCompiledIn, "the probe exists in debug builds only"))
  func anOwnerWhoseDeinitRegistersDuringAMainActorSweepKeepsThatRegistration() throws {
    let center = MainActorNotificationCenter()
    let received = LockedBox(0)
    let registeredInDeinit = LockedBox<ObserverToken?>(nil)
    let held = LockedBox<Registrar?>(Registrar(center: center, received: received, keep: registeredInDeinit))
    let targetID = try #require(held.value.map(ObjectIdentifier.init))
    center.observe(PageOpened.self, owner: try #require(held.value)) { _, _ in }
    var keepers: [RecentPages] = []
    // Let go of the test's reference to the target at the moment the center loads it.
    let releaseTarget: @Sendable (AnyObject) -> Void = { loaded in
      guard ObjectIdentifier(loaded) == targetID else { return }
      let taken = held.withLock { held in
        defer { held = nil }
        return held
      }
      _ = taken  // released after the box's lock; the center's own load is the last one
    }
    OwnerLoadProbe.$onLoad.withValue(releaseTarget) {
      // Enough owner-bound registrations to reach the sweep threshold (32 entries).
      for _ in 0..<40 {
        let keeper = RecentPages()
        keepers.append(keeper)
        center.observe(PageOpened.self, owner: keeper) { _, _ in }
      }
    }
    #expect(held.value == nil, "the center loaded the owner")
    let token = try #require(registeredInDeinit.value, "the owner's deinit registered")
    #expect(token.isActive)
    center.post(PageOpened(page: Page("after")))
    #expect(received.value == 1, "the registration made in the deinit receives posts")
    #expect(center.observerCount(for: PageOpened.self) == keepers.count + 1)
  }

  #if DEBUG
    /// The main-actor center's recursion trap names the main-actor center, not the typed one.
    @Test func unboundedRecursionOnTheMainActorCenterStopsWithAMessageNamingIt() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await MainActor.run {
          let center = MainActorNotificationCenter()
          let token = center.observe(PageClosed.self) { _ in center.post(PageClosed()) }
          center.post(PageClosed())
          withExtendedLifetime(token) {}
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("MainActorNotificationCenter: posts of PageClosed nested more than 100 deep"))
      #expect(!message.contains("TypedNotificationCenter"), "stderr was: \(message)")
    }
  #endif
}

private final class SendableOwner: Sendable {}

/// An owner whose deinit registers a new observer on the center that held it, and keeps its token.
@MainActor
private final class Registrar {
  let center: MainActorNotificationCenter
  let received: LockedBox<Int>
  let keep: LockedBox<ObserverToken?>

  init(center: MainActorNotificationCenter, received: LockedBox<Int>, keep: LockedBox<ObserverToken?>) {
    self.center = center
    self.received = received
    self.keep = keep
  }

  deinit {
    // assumeIsolated: the center releases its load of the owner on the main actor.
    MainActor.assumeIsolated {
      let received = received
      // The same type as the channel being swept: a rebuild in progress would drop it.
      let token = center.observe(PageOpened.self) { _ in received.withLock { $0 += 1 } }
      keep.withLock { $0 = token }
    }
  }
}
