import PresentationModelTesting
import Testing

// Observer leaks, as a customer writes them: five that leak on purpose, each with a correct twin.
// .ci/harness-consumer-check.sh expects each leaking test to fail naming its own `observe` line
// (the lines marked `observe line N`), and each twin to pass.

struct Refresh: TypedNotification {}

final class ListModel: Sendable {
  func reload() {}
}

/// Keeps the token of its own observation, as view models usually do.
final class DocumentModel: @unchecked Sendable {
  // @unchecked Sendable: `token` is set once, before the object is shared.
  var token: ObserverToken?
  func reload() {}
}

final class Loader: Sendable {
  let list: ListModel
  init(list: ListModel) { self.list = list }
}

/// Observations that live as long as the app, like a long-lived bag in an app delegate.
let appObservations = ObserverBag()

@Suite(.detectsLeaks(timeout: .milliseconds(200))) struct ObserverLeakTests {
  @Test func ownerCapturedWithALocalCenter() {
    let center = TypedNotificationCenter()
    let list = ListModel()
    trackForLeaks(list)
    center.observe(Refresh.self, owner: list) { _, _ in list.reload() }  // observe line 1
  }

  @Test func ownerCapturedWithTheDefaultCenter() {
    let list = ListModel()
    trackForLeaks(list)
    TypedNotificationCenter.default.observe(Refresh.self, owner: list) { _, _ in list.reload() }  // observe line 2
  }

  @Test func tokenHandlerCapturingTheObjectThatStoresTheToken() {
    let document = DocumentModel()
    trackForLeaks(document)
    document.token = TypedNotificationCenter.default.observe(Refresh.self) { _ in document.reload() }  // observe line 3
  }

  @Test func capturedVarHoldingTheObject() {
    let list = ListModel()
    trackForLeaks(list)
    nonisolated(unsafe) var current: ListModel? = list
    let label = "list"
    TypedNotificationCenter.default.observe(Refresh.self) { _ in  // observe line 4
      let reloaded = current
      reloaded?.reload()
      current = reloaded
      _ = label
    }.store(in: appObservations)
  }

  @Test func captureThroughAnotherObject() {
    let list = ListModel()
    trackForLeaks(list)
    let loader = Loader(list: list)
    TypedNotificationCenter.default.observe(Refresh.self) { _ in _ = loader }.store(in: appObservations)  // observe line 5
  }
}

@Suite(.detectsLeaks) struct ObserverTwinTests {
  @Test func ownerArgumentWithALocalCenter() {
    let center = TypedNotificationCenter()
    let list = ListModel()
    trackForLeaks(list)
    center.observe(Refresh.self, owner: list) { list, _ in list.reload() }
  }

  @Test func weakCaptureWithTheDefaultCenter() {
    let list = ListModel()
    trackForLeaks(list)
    TypedNotificationCenter.default.observe(Refresh.self, owner: list) { [weak list] _, _ in list?.reload() }
  }

  @Test func tokenHandlerCapturingTheObjectWeakly() {
    let document = DocumentModel()
    trackForLeaks(document)
    document.token = TypedNotificationCenter.default.observe(Refresh.self) { [weak document] _ in
      document?.reload()
    }
  }

  // These two keep their observation for the app's lifetime on purpose (in `appObservations`), so
  // they check the objects they track only: a test's own trait overrides its suite's.
  @Test(.detectsLeaks(.trackedObjects)) func capturedVarHoldingAnotherObject() {
    let list = ListModel()
    trackForLeaks(list)
    nonisolated(unsafe) var current: ListModel? = ListModel()
    let label = "list"
    TypedNotificationCenter.default.observe(Refresh.self) { _ in
      let reloaded = current
      reloaded?.reload()
      current = reloaded
      _ = label
    }.store(in: appObservations)
  }

  @Test(.detectsLeaks(.trackedObjects)) func captureOfAnObjectThatDoesNotReachIt() {
    let list = ListModel()
    trackForLeaks(list)
    let loader = Loader(list: ListModel())
    TypedNotificationCenter.default.observe(Refresh.self) { _ in _ = loader }.store(in: appObservations)
  }
}
