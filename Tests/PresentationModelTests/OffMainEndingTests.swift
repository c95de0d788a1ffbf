import Foundation
import PresentationModel
import PresentationTestSupport
import Testing

/// A main-actor registration ended on another thread (its token cancelled there, or the last
/// reference to its token or to the bag holding it released there) is detached once the main queue
/// has run: its entry leaves the center's storage, and its handler, with what it captured, is
/// released on the main queue. The center is kept alive throughout: its own deinit would release
/// every handler on the main queue and hide a registration that was never detached.
@Suite(.timeLimit(.minutes(1))) @MainActor struct OffMainEndingTests {
  enum Form: String, CaseIterable, Sendable {
    case token = "observe(_:)"
    case owner = "observe(_:owner:)"
    case onceToken = "observeOnce(_:)"
    case onceOwner = "observeOnce(_:owner:)"

    var hasOwner: Bool { self == .owner || self == .onceOwner }
  }

  enum Ending: String, CaseIterable, Sendable {
    /// `cancel()` on another thread.
    case cancel
    /// The last reference to the token released on another thread (ends token-bound forms only).
    case tokenReleased
    /// The last reference to an `ObserverBag` holding the token released on another thread.
    case bagReleased
  }

  /// Every form with every ending that ends it.
  nonisolated static let endings: [(Form, Ending)] = Form.allCases.flatMap { form in
    Ending.allCases.filter { !(form.hasOwner && $0 == .tokenReleased) }.map { (form, $0) }
  }

  @Test("a main-actor registration ended on another thread is detached on the main queue", arguments: endings)
  func mainActorCenterRegistrationEndedOnAnotherThreadIsDetachedOnTheMainQueue(form: Form, ending: Ending) async {
    let center = MainActorNotificationCenter()
    let owner = RecentPages()
    let releasedOnMainQueue = LockedBox<Bool?>(nil)
    _ = OnMainQueue.isCurrent  // tag the main queue before another thread asks
    var probe: DeinitProbe? = DeinitProbe { releasedOnMainQueue.withLock { $0 = OnMainQueue.isCurrent } }
    weak let weakProbe = probe
    var calls = 0
    let token: ObserverToken =
      switch form {
      case .token: center.observe(PageClosed.self) { [probe] _ in withExtendedLifetime(probe) { calls += 1 } }
      case .owner:
        center.observe(PageClosed.self, owner: owner) { [probe] _, _ in withExtendedLifetime(probe) { calls += 1 } }
      case .onceToken:
        center.observeOnce(PageClosed.self) { [probe] _ in withExtendedLifetime(probe) { calls += 1 } }
      case .onceOwner:
        center.observeOnce(PageClosed.self, owner: owner) { [probe] _, _ in withExtendedLifetime(probe) { calls += 1 } }
      }
    probe = nil  // the handler holds the only reference
    #expect(center.storedEntryCount == 1)
    #expect(weakProbe != nil)
    let ended = Self.endOnAnotherThread(consume token, by: ending)
    #expect(ended, "\(form), \(ending): the token was inactive before it was ended")
    center.post(PageClosed())
    #expect(calls == 0, "\(form), \(ending): called after it ended on another thread")
    await drainMainQueue()  // the detach was enqueued before this
    #expect(weakProbe == nil, "\(form), \(ending): the handler's captures were released once the main queue ran")
    #expect(releasedOnMainQueue.value == true, "\(form), \(ending): the handler was released on the main queue")
    #expect(center.storedEntryCount == 0, "\(form), \(ending): the center's storage still holds the entry")
    #expect(center.observerCount(for: PageClosed.self) == 0)
    withExtendedLifetime((center, owner)) {}
  }

  /// The same endings on the bridge's main-actor forms. The bridge detaches on the ending thread
  /// and its Foundation block holds the handler in a box that releases it on the main queue.
  @Test(
    "a bridge main-actor registration ended on another thread is detached and its handler released on the main queue",
    arguments: [Form.token, .owner], Ending.allCases)
  func bridgeMainActorRegistrationEndedOnAnotherThreadIsDetached(form: Form, ending: Ending) async {
    guard !(form.hasOwner && ending == .tokenReleased) else { return }
    let foundation = NotificationCenter()
    let bridge = FoundationNotificationBridge(foundation)
    let owner = BridgeOwner()
    let releasedOnMainQueue = LockedBox<Bool?>(nil)
    _ = OnMainQueue.isCurrent  // tag the main queue before another thread asks
    var probe: DeinitProbe? = DeinitProbe { releasedOnMainQueue.withLock { $0 = OnMainQueue.isCurrent } }
    weak let weakProbe = probe
    let calls = LockedBox(0)
    let token: ObserverToken =
      form.hasOwner
      ? bridge.observeOnMainActor(CacheTrimmed.self, owner: owner) { [probe] _, _ in
        withExtendedLifetime(probe) { calls.withLock { $0 += 1 } }
      }
      : bridge.observeOnMainActor(CacheTrimmed.self) { [probe] _ in
        withExtendedLifetime(probe) { calls.withLock { $0 += 1 } }
      }
    probe = nil  // the handler holds the only reference
    #expect(bridge.storedEntryCount == 1)
    let ended = Self.endOnAnotherThread(consume token, by: ending)
    #expect(ended, "\(form), \(ending): the token was inactive before it was ended")
    postTrimmed(1, to: foundation)
    #expect(calls.value == 0, "\(form), \(ending): called after it ended on another thread")
    #expect(bridge.storedEntryCount == 0, "\(form), \(ending): the bridge's table still holds the entry")
    await drainMainQueue()  // a release off the main queue was enqueued before this
    #expect(weakProbe == nil, "\(form), \(ending): the handler's captures were released once the main queue ran")
    #expect(releasedOnMainQueue.value == true, "\(form), \(ending): the handler was released on the main queue")
    withExtendedLifetime((bridge, owner)) {}
  }

  /// Hands `object` to another thread and drops the last reference there, after the box's lock.
  private static func releaseOnAnotherThread<Object: AnyObject & Sendable>(_ object: consuming Object) {
    let box = LockedBox<Object?>(consume object)
    onAnotherThread {
      let taken = box.withLock { object in
        defer { object = nil }
        return object
      }
      _ = taken  // the last reference, released on this thread after the box's lock
    }
  }

  /// Hands `token` to another thread, which ends it by `ending`; the caller keeps no reference when
  /// the ending releases one. Returns whether the token was active just before.
  private static func endOnAnotherThread(_ token: consuming ObserverToken, by ending: Ending) -> Bool {
    let wasActive = token.isActive
    switch ending {
    case .cancel:
      onAnotherThread { [token] in token.cancel() }
      #expect(!token.isActive)
    case .tokenReleased:
      releaseOnAnotherThread(token)
    case .bagReleased:
      let bag = ObserverBag()
      token.store(in: bag)
      _ = consume token
      releaseOnAnotherThread(bag)
    }
    return wasActive
  }
}

private final class BridgeOwner: Sendable {}
