import Foundation
import PresentationModelTesting
import Synchronization
import Testing

/// This package's three centers, used as apps use them, with the leaks the articles describe for
/// Foundation's center: an app-wide center that keeps a handler using its observer, an
/// owner-bound handler that uses `self` instead of its `owner`, a task iterating a center's
/// notifications (each case names its source).
enum Centers {
  struct SyncFinished: TypedNotification {
    let pending: Int
  }

  struct ThemeChanged: MainActorNotification {
    let isDark: Bool
  }

  struct ReachabilityChanged: FoundationNotification {
    static var name: Notification.Name { Notification.Name("EveryObjectCorpusTests.ReachabilityChanged") }
    let isReachable: Bool
    init?(_ notification: Notification) {
      isReachable = notification.userInfo?["isReachable"] as? Bool ?? false
    }
  }

  /// The app's centers, kept for the life of the process.
  enum App {
    static let events = TypedNotificationCenter()
    @MainActor static let ui = MainActorNotificationCenter()
    static let system = FoundationNotificationBridge(NotificationCenter.default)
  }

  // https://oleb.net/blog/2018/01/notificationcenter-removeobserver/: a block-based observer's token
  // must be kept and the block must not capture `self` strongly, or the observer never goes. A badge
  // observes the app-wide center, keeps its token, and its handler uses `self`. Twin: `[weak self]`.
  final class SyncBadge: Sendable {
    let observers = ObserverBag()
    let count = Mutex(0)
    func startObserving(weakly: Bool) {
      if weakly {
        App.events.observe(SyncFinished.self) { [weak self] note in
          self?.count.withLock { $0 = note.pending }
        }
        .store(in: observers)
      } else {
        App.events.observe(SyncFinished.self) { note in
          self.count.withLock { $0 = note.pending }
        }
        .store(in: observers)
      }
    }
  }

  // https://holko.pl/2015/08/05/notification-center/: the observer's block captures the observer.
  // Here the center's owner-bound `observe(_:owner:)`, whose handler is meant to use its `owner`
  // argument, uses `self` instead, on the app's main-actor center. Twin: it uses `owner`.
  @MainActor final class ThemedScreen {
    private(set) var isDark = false
    /// Kept to end the observation early, as the center's documentation allows.
    private(set) var themeObservation: ObserverToken?
    func viewDidLoad(usingOwner: Bool) {
      if usingOwner {
        themeObservation = App.ui.observe(ThemeChanged.self, owner: self) { owner, note in owner.isDark = note.isDark }
      } else {
        themeObservation = App.ui.observe(ThemeChanged.self, owner: self) { _, note in self.isDark = note.isDark }
      }
    }
  }

  // https://pixelper.com/blog/ios-combine-retain-cycles ("Combine Retain Cycles: [weak self]
  // Matters"): a search service subscribes with `sink`, keeps the subscription in its own
  // `cancellables`, and the closure uses `self`: "self → owns → cancellables → contains subscription
  // → captures → self", so `deinit` never runs. Here a main-actor screen keeps its tokens from the
  // app's main-actor center in its `ObserverBag`, and its handler uses `self`. The article's fix,
  // the twin: `[weak self]`.
  @MainActor final class SearchScreen {
    let observers = ObserverBag()
    private(set) var isDark = false
    func viewDidLoad(weakly: Bool) {
      if weakly {
        App.ui.observe(ThemeChanged.self) { [weak self] note in self?.isDark = note.isDark }
          .store(in: observers)
      } else {
        App.ui.observe(ThemeChanged.self) { note in self.isDark = note.isDark }
          .store(in: observers)
      }
    }
  }

  // livekit/client-sdk-swift#876 ("Fix memory leaks in AppStateListener and Room": "Store
  // NotificationCenter observer tokens for proper cleanup … Use [weak self] in all observer
  // closures"): an object that observes system notifications through the bridge over
  // `NotificationCenter.default`, keeps the tokens, and whose handler uses `self`.
  final class ConnectionMonitor: Sendable {
    let observers = ObserverBag()
    let isReachable = Mutex(true)
    func start(weakly: Bool) {
      if weakly {
        App.system.observe(ReachabilityChanged.self) { [weak self] note in
          self?.isReachable.withLock { $0 = note.isReachable }
        }
        .store(in: observers)
      } else {
        App.system.observe(ReachabilityChanged.self) { note in
          self.isReachable.withLock { $0 = note.isReachable }
        }
        .store(in: observers)
      }
    }
  }

  // https://forums.swift.org/t/for-await-loop-wrapped-in-a-task-block/64159: a model whose `init`
  // starts tasks that iterate notifications forever and use `self` ("every time a Model object is
  // instantiated, you create and leak three tasks"); here one, on the app-wide typed center. The
  // reply's fix keeps the task and cancels it; the twin does, and captures `self` weakly.
  final class SyncModel: Sendable {
    let synced = Mutex(0)
    let task = Mutex<Task<Void, Never>?>(nil)
    init(weakly: Bool) {
      let notifications = App.events.notifications(of: SyncFinished.self, bufferingPolicy: .bufferingNewest(1))
      let task =
        weakly
        ? Task { [weak self] in
          for await _ in notifications {
            self?.synced.withLock { $0 += 1 }
          }
        }
        : Task {
          for await _ in notifications {
            self.synced.withLock { $0 += 1 }
          }
        }
      self.task.withLock { $0 = task }
    }
    func cancel() { task.withLock { $0 }?.cancel() }
  }

  // https://swiftwithvincent.com/blog/three-mistakes-to-avoid-with-async-await-in-swift (#02, "Not
  // understanding that Task automatically captures self"): a view model's task listens to
  // notifications that never end, so the view model is never released; here from the app's
  // main-actor center. The article's fix: `[weak self]` and reaching `self` per element.
  @MainActor final class AppearanceViewModel {
    private(set) var isDark = false
    private var task: Task<Void, Never>?
    func listen(weakly: Bool) {
      let themes = App.ui.notifications(of: ThemeChanged.self, bufferingPolicy: .bufferingNewest(1))
      if weakly {
        task = Task { [weak self] in
          for await theme in themes {
            self?.isDark = theme.isDark
          }
        }
      } else {
        task = Task {
          for await theme in themes {
            self.isDark = theme.isDark
          }
        }
      }
    }
    func stopListening() { task?.cancel() }
  }
}

@Suite(.everyObjectRuns) struct CenterCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a handler on the app-wide typed center uses its observer")
  func typedCenterHandlerUsesItsObserver() async throws {
    try await Corpus.expectLeak([
      .object(Centers.SyncBadge.self, heldBy: "the handler of SyncFinished observed (token)"),
      .observer("SyncFinished observed (token)", heldBy: "SyncBadge.observers"),
    ]) {
      let badge = Centers.SyncBadge()
      badge.startObserving(weakly: false)
      Centers.App.events.post(Centers.SyncFinished(pending: 2))
      return Leak(badge) { [weak badge] in badge?.observers.cancelAll() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func typedCenterHandlerCapturesItsObserverWeakly() async {
    let badge = Centers.SyncBadge()
    badge.startObserving(weakly: true)
    Centers.App.events.post(Centers.SyncFinished(pending: 2))
  }

  @Test("Fails on purpose: an owner-bound handler on the main-actor center uses self")
  func mainActorOwnerBoundHandlerUsesSelf() async throws {
    try await Corpus.expectLeak(
      [
        .handlerCapturingItsOwner(Centers.ThemedScreen.self),
        .also(Centers.ThemedScreen.self, heldBy: "the handler of ThemeChanged observed by ThemedScreen"),
        .observer("ThemeChanged observed by ThemedScreen", heldBy: "the handler of"),
      ],
      onMainActor: {
        let screen = Centers.ThemedScreen()
        screen.viewDidLoad(usingOwner: false)
        Centers.App.ui.post(Centers.ThemeChanged(isDark: true))
        return Leak(screen) { @MainActor [weak screen] in screen?.themeObservation?.cancel() }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func mainActorOwnerBoundHandlerUsesItsOwner() async {
    let screen = Centers.ThemedScreen()
    screen.viewDidLoad(usingOwner: true)
    Centers.App.ui.post(Centers.ThemeChanged(isDark: true))
  }

  @Test("Fails on purpose: a handler on the app's main-actor center uses the screen that keeps its token")
  func mainActorHandlerUsesTheScreenKeepingItsToken() async throws {
    try await Corpus.expectLeak(
      [
        .object(Centers.SearchScreen.self, heldBy: "the handler of ThemeChanged observed (token)"),
        .observer("ThemeChanged observed (token)", heldBy: "SearchScreen.observers"),
      ],
      onMainActor: {
        let screen = Centers.SearchScreen()
        screen.viewDidLoad(weakly: false)
        Centers.App.ui.post(Centers.ThemeChanged(isDark: true))
        return Leak(screen) { @MainActor [weak screen] in screen?.observers.cancelAll() }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func mainActorHandlerCapturesTheScreenWeakly() async {
    let screen = Centers.SearchScreen()
    screen.viewDidLoad(weakly: true)
    Centers.App.ui.post(Centers.ThemeChanged(isDark: true))
  }

  @Test("Fails on purpose: a bridge handler over the default center uses its observer")
  func bridgeHandlerUsesItsObserver() async throws {
    try await Corpus.expectLeak([
      .object(Centers.ConnectionMonitor.self, heldBy: "the handler of ReachabilityChanged observed (token)"),
      .observer("ReachabilityChanged observed (token)", heldBy: "ConnectionMonitor.observers"),
    ]) {
      let monitor = Centers.ConnectionMonitor()
      monitor.start(weakly: false)
      return Leak(monitor) { [weak monitor] in monitor?.observers.cancelAll() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func bridgeHandlerCapturesItsObserverWeakly() async {
    let monitor = Centers.ConnectionMonitor()
    monitor.start(weakly: true)
  }

  @Test("Fails on purpose: a task started in init iterates the typed center's notifications")
  func taskIteratingTypedNotifications() async throws {
    try await Corpus.expectLeak([
      .object(Centers.SyncModel.self, heldBy: "Task: …SyncModel.init(weakly:)"),
      .observer("SyncFinished observed (token)", heldBy: "Task"),
    ]) {
      let model = Centers.SyncModel(weakly: false)
      return Leak(model) { [weak model] in model?.cancel() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func taskIteratingTypedNotificationsCapturesWeakly() async {
    let model = Centers.SyncModel(weakly: true)
    model.cancel()
  }

  @Test("Fails on purpose: a view model's task iterates the main-actor center's notifications")
  func taskIteratingMainActorNotifications() async throws {
    try await Corpus.expectLeak(
      [
        .object(
          Centers.AppearanceViewModel.self, heldBy: "Task: …AppearanceViewModel.listen(weakly:)"
        ),
        .observer("ThemeChanged observed (token)", heldBy: "Task"),
      ],
      onMainActor: {
        let viewModel = Centers.AppearanceViewModel()
        viewModel.listen(weakly: false)
        return Leak(viewModel) { @MainActor [weak viewModel] in viewModel?.stopListening() }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func taskIteratingMainActorNotificationsCapturesWeakly() async {
    let viewModel = Centers.AppearanceViewModel()
    viewModel.listen(weakly: true)
    viewModel.stopListening()
  }
}
