import Dispatch
import Foundation
import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing

/// A page of a document: a plain class, deliberately not Sendable.
final class Page {
  var title: String
  init(_ title: String) { self.title = title }
}

/// A main-actor notification with a non-Sendable payload.
struct PageOpened: MainActorNotification {
  let page: Page
}

struct PageClosed: MainActorNotification {}

/// A non-Sendable owner used only on the main actor.
final class RecentPages {
  var titles: [String] = []
}

/// Runs its closure when it deinitialises: shows when what a handler captured is released.
final class DeinitProbe: Sendable {
  let onDeinit: @Sendable () -> Void
  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}

/// Tells whether the caller runs on the main queue (where the main actor runs), without trapping.
enum OnMainQueue {
  private static let key = DispatchSpecificKey<UInt8>()
  private static let tagged: Bool = {
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return true
  }()

  static var isCurrent: Bool { tagged && DispatchQueue.getSpecific(key: key) != nil }
}

@Suite(.timeLimit(.minutes(1))) @MainActor struct MainActorCenterTests {
  @Test func nonSendableOwnerPayloadAndHandlerStateWork() throws {
    let center = MainActorNotificationCenter()
    var recents: RecentPages? = RecentPages()
    var seenByToken = 0  // local state mutated by the handler
    center.observe(PageOpened.self, owner: try #require(recents)) { recents, note in
      recents.titles.append(note.page.title)
    }
    let token = center.observe(PageOpened.self) { _ in seenByToken += 1 }
    center.post(PageOpened(page: Page("one")))
    #expect(recents?.titles == ["one"], "delivered before post returned")
    #expect(seenByToken == 1)
    #expect(center.observerCount(for: PageOpened.self) == 2)
    let tracker = LeakTracker()
    tracker.track(try #require(recents))
    recents = nil
    expectReleased(tracker, "the center does not retain the owner")
    #expect(center.observerCount(for: PageOpened.self) == 1)
    token.cancel()
    center.post(PageOpened(page: Page("two")))
    #expect(seenByToken == 1)
    #expect(center.observerCount(for: PageOpened.self) == 0)
  }

  @Test func observersRunInRegistrationOrder() {
    let center = MainActorNotificationCenter()
    let recents = RecentPages()
    var log: [String] = []
    let first = center.observe(PageClosed.self) { _ in log.append("a") }
    center.observe(PageClosed.self, owner: recents) { _, _ in log.append("b") }
    let third = center.observe(PageClosed.self) { _ in log.append("c") }
    let fourth = center.observe(PageClosed.self) { _ in log.append("d") }
    third.cancel()
    let fifth = center.observe(PageClosed.self) { _ in log.append("e") }
    center.post(PageClosed())
    #expect(log == ["a", "b", "d", "e"])
    withExtendedLifetime([first, fourth, fifth]) {}
  }

  @Test func nestedPostIsDeliveredCompletelyBeforeTheOuterContinues() {
    let center = MainActorNotificationCenter()
    var log: [String] = []
    let outer = center.observe(PageOpened.self) { note in
      log.append("outer \(note.page.title)")
      center.post(PageClosed())
      log.append("outer done")
    }
    let inner1 = center.observe(PageClosed.self) { _ in log.append("closed 1") }
    let inner2 = center.observe(PageClosed.self) { _ in log.append("closed 2") }
    center.post(PageOpened(page: Page("p")))
    #expect(log == ["outer p", "closed 1", "closed 2", "outer done"])
    withExtendedLifetime([outer, inner1, inner2]) {}
  }

  @Test func observerAddedDuringADeliveryDoesNotGetThatDelivery() {
    let center = MainActorNotificationCenter()
    var log: [String] = []
    var added: [ObserverToken] = []
    let adder = center.observe(PageClosed.self) { _ in
      log.append("adder")
      added.append(center.observe(PageClosed.self) { _ in log.append("added") })
    }
    center.post(PageClosed())
    #expect(log == ["adder"])
    center.post(PageClosed())
    #expect(log == ["adder", "adder", "added"])
    withExtendedLifetime(adder) {}
  }

  @Test func observerCancelledOrWhoseOwnerDiedDuringADeliveryIsNotCalledAfterwards() throws {
    let center = MainActorNotificationCenter()
    var log: [String] = []
    var victim: RecentPages? = RecentPages()
    var later: ObserverToken?
    let killer = center.observe(PageClosed.self) { _ in
      log.append("killer")
      later?.cancel()
      victim = nil
    }
    center.observe(PageClosed.self, owner: try #require(victim)) { _, _ in log.append("owner-bound") }
    later = center.observe(PageClosed.self) { _ in log.append("later") }
    center.post(PageClosed())
    #expect(log == ["killer"])
    #expect(center.observerCount(for: PageClosed.self) == 1)
    withExtendedLifetime(killer) {}
  }

  @Test func oneShotFiresOnceEvenWhenItsHandlerPostsTheSameType() {
    let center = MainActorNotificationCenter()
    var calls = 0
    let token = center.observeOnce(PageClosed.self) { _ in
      calls += 1
      center.post(PageClosed())
    }
    center.post(PageClosed())
    center.post(PageClosed())
    #expect(calls == 1)
    #expect(!token.isActive)
    let recents = RecentPages()
    center.observeOnce(PageOpened.self, owner: recents) { recents, note in recents.titles.append(note.page.title) }
    center.post(PageOpened(page: Page("x")))
    center.post(PageOpened(page: Page("y")))
    #expect(recents.titles == ["x"])
    #expect(center.registrations.isEmpty)
  }

  @Test func senderFilterDeliversOnlyPostsFromThatSenderAndEndsWithIt() async throws {
    let center = MainActorNotificationCenter()
    var left: RecentPages? = RecentPages()
    let right = RecentPages()
    var log: [String] = []
    let token = center.observe(PageClosed.self, from: try #require(left) as RecentPages) { _ in log.append("left") }
    center.post(PageClosed(), from: try #require(left))
    center.post(PageClosed(), from: right)
    center.post(PageClosed())
    #expect(log == ["left"])
    left = nil
    #expect(!token.isActive, "the sender is not retained; its death ends the filtered observation")
    await expectNoObservers(in: center, of: PageClosed.self, timeout: .zero)
  }

  @Test func registrationsNameTheObserveCall() throws {
    let center = MainActorNotificationCenter()
    let recents = RecentPages()
    center.observe(PageOpened.self, owner: recents) { _, _ in }
    let line = #line - 1
    let token = center.observe(PageClosed.self) { _ in }
    let registrations = center.registrations
    try #require(registrations.count == 2)
    #expect(
      registrations.map(\.description) == [
        "PageClosed observed (token) at PresentationModelTests/MainActorCenterTests.swift:\(line + 2), main actor",
        "PageOpened observed by RecentPages at PresentationModelTests/MainActorCenterTests.swift:\(line), main actor",
      ])
    #expect(token.info.delivery == .mainActor)
    token.cancel()
  }

  @Test func bagAndSetEndMainActorObservations() async throws {
    let center = MainActorNotificationCenter()
    let recents = RecentPages()
    var bag: ObserverBag? = ObserverBag()
    center.observe(PageClosed.self) { _ in }.store(in: try #require(bag))
    center.observe(PageClosed.self, owner: recents) { _, _ in }.store(in: try #require(bag))
    var tokens = Set<ObserverToken>()
    center.observe(PageClosed.self) { _ in }.store(in: &tokens)
    #expect(center.observerCount(for: PageClosed.self) == 3)
    bag = nil
    tokens.removeAll()
    await expectNoObservers(in: center, timeout: .zero)
  }

  @Test func cancelFromAnotherThreadStopsDeliveryAtOnceAndReleasesTheHandlerOnTheMainActor() async {
    let center = MainActorNotificationCenter()
    let releasedOnMainQueue = LockedBox<Bool?>(nil)
    var calls = 0
    let probe = DeinitProbe { releasedOnMainQueue.withLock { $0 = OnMainQueue.isCurrent } }
    let token = center.observe(PageClosed.self) { _ in
      withExtendedLifetime(probe) { calls += 1 }
    }
    _ = consume probe  // the handler holds the only reference
    _ = OnMainQueue.isCurrent  // tag the main queue before another thread asks
    onAnotherThread { token.cancel() }
    #expect(!token.isActive)
    center.post(PageClosed())
    #expect(calls == 0, "cancelled on another thread: no post after cancel returned calls the handler")
    #expect(center.observerCount(for: PageClosed.self) == 0)
    await drainMainQueue()
    #expect(releasedOnMainQueue.value == true, "the handler was released on the main queue")
  }

  @Test func tokenReleasedOnAnotherThreadEndsTheObservation() async {
    let center = MainActorNotificationCenter()
    var calls = 0
    let box = LockedBox<ObserverToken?>(center.observe(PageClosed.self) { _ in calls += 1 })
    onAnotherThread {
      var token = box.withLock { token in
        defer { token = nil }
        return token
      }
      #expect(token?.isActive == true)
      token = nil  // the last reference, released on this thread
    }
    center.post(PageClosed())
    #expect(calls == 0)
    await drainMainQueue()
    #expect(center.registrations.isEmpty)
  }

  @Test func tokensOutlivingTheirCenterAreInactiveAndHarmless() async throws {
    var center: MainActorNotificationCenter? = MainActorNotificationCenter()
    let handler = LeakTracker()
    let probe = HandlerCapture(trackedBy: handler)
    let token = try #require(center).observe(PageClosed.self) { _ in withExtendedLifetime(probe) {} }
    _ = consume probe
    let centers = LeakTracker()
    centers.track(try #require(center))
    center = nil
    await expectReleased(centers, "the tokens do not keep their center alive")
    #expect(!token.isActive)
    token.cancel()
    await drainMainQueue()
    await expectReleased(handler, "the center's handlers were released")
  }

  @Test func endingOneAmongManyKeepsTheOthersInOrder() async {
    let center = MainActorNotificationCenter()
    var log: [Int] = []
    var tokens = (0..<100).map { index in center.observe(PageClosed.self) { _ in log.append(index) } }
    for index in stride(from: 0, to: 100, by: 3).reversed() { tokens.remove(at: index) }
    center.post(PageClosed())
    #expect(log == (0..<100).filter { $0 % 3 != 0 })
    #expect(center.observerCount(for: PageClosed.self) == 66)
    tokens.removeAll()
    await expectNoObservers(in: center, of: PageClosed.self, timeout: .zero)
  }
}
