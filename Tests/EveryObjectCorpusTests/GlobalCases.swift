import Foundation
import PresentationModelTesting
import Synchronization
import Testing

/// Globals, statics and singletons, from bug reports and articles (each case names its source):
/// what a global holds that the test made is a leak, named by the global; a singleton a test
/// touches first, and Foundation objects kept in globals, are not.
///
/// Each case has globals of its own, so tests running in parallel never share one.
enum Globals {
  // livekit/client-sdk-swift#876 ("Fix memory leaks in AppStateListener and Room"): the app-wide
  // `AppStateListener` singleton keeps every `Room` in its `delegates` until the room removes itself
  // in `cleanUp()`; a room never cleaned up stays.
  protocol AppStateDelegate: AnyObject {
    func appDidEnterBackground()
  }

  final class AppStateListener: @unchecked Sendable {
    // @unchecked Sendable: `delegates` is only touched under `lock`.
    static let shared = AppStateListener()
    private let lock = NSLock()
    private var delegates: [any AppStateDelegate] = []
    func add(delegate: any AppStateDelegate) { lock.withLock { delegates.append(delegate) } }
    func remove(delegate: any AppStateDelegate) {
      let removed = lock.withLock {
        let removed = delegates.filter { $0 === delegate }
        delegates.removeAll { $0 === delegate }
        return removed
      }
      withExtendedLifetime(removed) {}  // released after unlocking
    }
  }

  final class Room: AppStateDelegate {
    private(set) var isConnected = false
    func connect() {
      isConnected = true
      AppStateListener.shared.add(delegate: self)
    }
    func cleanUp() {
      isConnected = false
      AppStateListener.shared.remove(delegate: self)
    }
    func appDidEnterBackground() {}
  }

  // SwiftKickMobile/SwiftMessages#101 ("Is there good possible to remove eventListener from
  // array?"): listeners appended to the static `SwiftMessages.defaultConfig.eventListeners` stay for
  // the life of the app; the maintainers' answer is a single-use copy of the config.
  enum Messages {
    struct Config {
      var eventListeners: [(String) -> Void] = []
    }
    nonisolated(unsafe) static var defaultConfig = Config()
    // nonisolated(unsafe): read and written only under `lock`.
    static let lock = NSLock()
    static func show(config: Config) {
      for listener in config.eventListeners { listener("didShow") }
    }
  }

  final class ToastPresenter {
    private(set) var events: [String] = []
    func showSavedToast() {
      let config = Messages.lock.withLock {
        Messages.defaultConfig.eventListeners.append { event in self.events.append(event) }
        return Messages.defaultConfig
      }
      Messages.show(config: config)
    }
    func showSavedToastWithItsOwnConfig() {
      var config = Messages.lock.withLock { Messages.defaultConfig }
      config.eventListeners = [{ event in self.events.append(event) }]
      Messages.show(config: config)
    }
  }

  // https://www.hackingwithswift.com/articles/175/advanced-coordinator-pattern-tutorial-ios: the
  // app's main coordinator (kept for the life of the app, here in a global) must remove a finished
  // child in `childDidFinish(_:)`; a child never removed stays in `childCoordinators`.
  final class AppCoordinator: @unchecked Sendable {
    // @unchecked Sendable: `childCoordinators` is only touched under `lock`.
    static let main = AppCoordinator()
    private let lock = NSLock()
    private var childCoordinators: [CheckoutCoordinator] = []
    func startCheckout() -> CheckoutCoordinator {
      let child = CheckoutCoordinator()
      lock.withLock { childCoordinators.append(child) }
      return child
    }
    func childDidFinish(_ child: CheckoutCoordinator) {
      let removed = lock.withLock {
        let removed = childCoordinators.filter { $0 === child }
        childCoordinators.removeAll { $0 === child }
        return removed
      }
      withExtendedLifetime(removed) {}
    }
  }

  final class CheckoutCoordinator {
    let cart = Cart()
  }

  final class Cart {
    var items: [String] = []
  }

  // https://www.swiftbysundell.com/articles/caching-in-swift/ opens with a cache that is a plain
  // dictionary and never evicts; here it is a static one, as apps write it, filled by a screen.
  final class Thumbnail {
    let url: URL
    init(url: URL) { self.url = url }
  }

  enum ThumbnailCache {
    nonisolated(unsafe) static var thumbnails: [URL: Thumbnail] = [:]
    // nonisolated(unsafe): only the leak's test touches it, in its own task.
  }

  // A lazily made singleton (`static let shared`, the form Apple's "Managing a Shared Resource Using
  // a Singleton" gives, https://developer.apple.com/documentation/swift/managing-a-shared-resource-using-a-singleton)
  // first touched inside a test: it stays for the life of the process by design, and so do the
  // collaborators it makes in its `init`.
  final class SettingsStore: @unchecked Sendable {
    // @unchecked Sendable: `values` is only touched under `lock`.
    static let shared = SettingsStore()
    let defaults = SettingsDefaults()
    private let lock = NSLock()
    private var values: [String: String] = [:]
    func set(_ value: String, for key: String) { lock.withLock { values[key] = value } }
  }

  final class SettingsDefaults: Sendable {
    let theme = "light"
  }

  // Foundation objects kept in globals, as apps keep formatters, caches and queues: none of them is
  // the test process's own class.
  static let dateFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
  }()
  nonisolated(unsafe) static var decoder = JSONDecoder()
  // nonisolated(unsafe): set once by the test of that case and never read elsewhere.
  nonisolated(unsafe) static let imageData = NSCache<NSString, NSData>()
  // nonisolated(unsafe): NSCache is thread-safe ("You can add, remove, and query items in the cache
  // from different threads without having to lock the cache yourself", its documentation).
  static let operations = OperationQueue()
  static let lock = NSLock()
}

@Suite(.everyObjectRuns) struct GlobalCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a room left in the app-state singleton's delegates")
  func roomLeftInASingletonRegistry() async throws {
    try await Corpus.expectLeak([.object(Globals.Room.self, heldBy: "AppStateListener.shared")]) {
      let room = Globals.Room()
      room.connect()
      return Leak(room) { [weak room] in room?.cleanUp() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func roomCleanedUpLeavesTheSingleton() async {
    let room = Globals.Room()
    room.connect()
    room.cleanUp()
  }

  @Test("Fails on purpose: a listener appended to a static default config")
  func listenerInAStaticConfig() async throws {
    try await Corpus.expectLeak([
      .object(Globals.ToastPresenter.self, heldBy: "Messages.defaultConfig")
    ]) {
      let presenter = Globals.ToastPresenter()
      presenter.showSavedToast()
      return Leak(presenter) {
        let removed = Globals.Messages.lock.withLock {
          defer { Globals.Messages.defaultConfig.eventListeners.removeAll() }
          return Globals.Messages.defaultConfig.eventListeners
        }
        withExtendedLifetime(removed) {}  // released after unlocking
      }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func listenerInASingleUseConfig() async {
    let presenter = Globals.ToastPresenter()
    presenter.showSavedToastWithItsOwnConfig()
  }

  @Test("Fails on purpose: a child coordinator never removed from the app's coordinator")
  func childCoordinatorNeverRemoved() async throws {
    // The app made its singleton before this test, as an app does at launch (when the test makes it,
    // it and what its initialiser made are the singleton's own, not leaks: EveryObjectTraitTests
    // covers that), so the case does not depend on which test touches it first.
    _ = Globals.AppCoordinator.main
    try await Corpus.expectLeak([
      .object(Globals.CheckoutCoordinator.self, heldBy: "AppCoordinator.main"),
      .also(Globals.Cart.self, heldBy: "CheckoutCoordinator.cart"),
    ]) {
      let checkout = Globals.AppCoordinator.main.startCheckout()
      checkout.cart.items = ["Book"]
      return Leak(checkout) { [weak checkout] in
        if let checkout { Globals.AppCoordinator.main.childDidFinish(checkout) }
      }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func childCoordinatorRemovedWhenItFinishes() async {
    let checkout = Globals.AppCoordinator.main.startCheckout()
    checkout.cart.items = ["Book"]
    Globals.AppCoordinator.main.childDidFinish(checkout)
  }

  @Test("Fails on purpose: a static dictionary cache that never evicts")
  func staticDictionaryCache() async throws {
    try await Corpus.expectLeak([
      .object(Globals.Thumbnail.self, heldBy: "ThumbnailCache.thumbnails")
    ]) {
      let url = URL(string: "https://example.com/cover.png")!
      let thumbnail = Globals.Thumbnail(url: url)
      Globals.ThumbnailCache.thumbnails[url] = thumbnail
      return Leak(thumbnail) { Globals.ThumbnailCache.thumbnails.removeAll() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func cacheKeptByTheScreenThatFillsIt() async {
    let url = URL(string: "https://example.com/cover.png")!
    var thumbnails: [URL: Globals.Thumbnail] = [:]
    let thumbnail = Globals.Thumbnail(url: url)
    thumbnails[url] = thumbnail
  }

  /// The rule: a singleton first touched in a test is not a leak, nor what its `init` makes.
  @Test(.detectsLeaks(.everyObject)) func singletonFirstTouchedInATestPasses() async {
    weak var settings: Globals.SettingsStore?
    Globals.SettingsStore.shared.set("dark", for: "theme")
    settings = Globals.SettingsStore.shared
    #expect(settings != nil, "The singleton outlives the test (so the trait saw a survivor and let it be)")
  }

  /// Foundation's classes are not the test process's own: kept in globals, they pass.
  @Test(.detectsLeaks(.everyObject)) func foundationObjectsKeptInGlobalsPass() async {
    _ = Globals.dateFormatter.string(from: Date(timeIntervalSince1970: 0))
    Globals.decoder = JSONDecoder()
    Globals.imageData.setObject(NSData(data: Data([1, 2, 3])), forKey: "cover")
    Globals.operations.maxConcurrentOperationCount = 1
    Globals.lock.withLock {}
  }
}
