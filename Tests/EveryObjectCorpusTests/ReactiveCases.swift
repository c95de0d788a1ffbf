import Foundation
import PresentationModelTesting
import Testing

/// Subscriptions that keep their owners, in the style of the reactive and binding libraries apps
/// use (RxSwift, ReactiveKit/Bond, Signals, EmitterKit, the MVVM `Box`), each reduced to the part
/// that holds the closure, from their documentation, issues and articles (each case names its
/// source).
enum Reactive {
  // http://adamborek.com/memory-managment-rxswift/ ("Memory management in RxSwift – DisposeBag"):
  // a subject keeps each subscriber's closure until the subscription is disposed, and a dispose bag
  // disposes when it deinitialises. A screen that owns its view model and its bag, and whose
  // `onNext` uses `self`, never deinitialises, so neither does the bag. Twin: `[weak self]`.
  final class Disposable {
    private var dispose: (() -> Void)?
    init(_ dispose: @escaping () -> Void) { self.dispose = dispose }
    func callAsFunction() {
      dispose?()
      dispose = nil
    }
    func disposed(by bag: DisposeBag) { bag.insert(self) }
  }

  final class DisposeBag {
    private var disposables: [Disposable] = []
    func insert(_ disposable: Disposable) { disposables.append(disposable) }
    deinit { for disposable in disposables { disposable() } }
  }

  final class PublishSubject<Element> {
    private var observers: [UUID: (Element) -> Void] = [:]
    func subscribe(onNext: @escaping (Element) -> Void) -> Disposable {
      let id = UUID()
      observers[id] = onNext
      return Disposable { [weak self] in self?.observers[id] = nil }
    }
    func onNext(_ element: Element) {
      for observer in observers.values { observer(element) }
    }
    /// Removes every observer; what they hold is released after the dictionary is changed (a
    /// release runs `deinit`s that may come back here).
    func removeAllObservers() {
      let removed = observers
      observers.removeAll()
      withExtendedLifetime(removed) {}
    }
  }

  final class SearchViewModel {
    let results = PublishSubject<[String]>()
  }

  final class SearchViewController {
    let viewModel = SearchViewModel()
    let disposeBag = DisposeBag()
    private(set) var rows: [String] = []
    func viewDidLoad(weakly: Bool) {
      if weakly {
        viewModel.results.subscribe(onNext: { [weak self] in self?.rows = $0 }).disposed(by: disposeBag)
      } else {
        viewModel.results.subscribe(onNext: { self.rows = $0 }).disposed(by: disposeBag)
      }
    }
  }

  // DeclarativeHub/ReactiveKit#189 ("Retain cycle caused by placing property in singleton"): a
  // singleton keeps an observable property; a screen observes it and disposes in its own bag, but the
  // observer closure uses the screen, so the screen (and its bag) never go while the singleton
  // lives. Twin: `[weak self]`.
  /// Thread-safe, as ReactiveKit's `Property` is: observers are kept and called outside user code's
  /// reach of the lock.
  final class Property<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` and `observers` are only touched under `lock`; observers are
    // called, added and released outside it.
    private let lock = NSLock()
    private var value: Value
    private var observers: [UUID: (Value) -> Void] = [:]
    init(_ value: Value) { self.value = value }
    func observeNext(with observer: @escaping (Value) -> Void) -> Disposable {
      let id = UUID()
      let current = lock.withLock {
        observers[id] = observer
        return value
      }
      observer(current)
      return Disposable { [weak self] in self?.removeObserver(id) }
    }
    private func removeObserver(_ id: UUID) {
      let removed = lock.withLock { observers.removeValue(forKey: id) }
      withExtendedLifetime(removed) {}  // released after unlocking
    }
  }

  final class AccountSingleton: Sendable {
    static let instance = AccountSingleton()
    let userName = Property<String?>(nil)
  }

  final class AccountScreen {
    let bag = DisposeBag()
    private(set) var title = ""
    init(weakly: Bool) {
      if weakly {
        AccountSingleton.instance.userName.observeNext { [weak self] name in self?.title = name ?? "" }
          .disposed(by: bag)
      } else {
        AccountSingleton.instance.userName.observeNext { name in self.title = name ?? "" }.disposed(by: bag)
      }
    }
  }

  // https://www.zacsweers.dev/disposables-can-cause-memory-leaks/: a long-lived view model adds each
  // subscription's disposable to a composite it clears only in `onCleared()`; a disposable keeps its
  // consumer, which captures the screen, "until onCleared() is called", even once the single has
  // completed. Here the view model is the app's, for the life of the process. Twin: the screen keeps
  // the subscription in its own bag (the article's fix binds it to the screen's scope), its consumer
  // capturing the screen weakly (Swift has no collector to free the bag's cycle).
  final class CompositeDisposable: @unchecked Sendable {
    // @unchecked Sendable: `disposables` is only touched under `lock`.
    private let lock = NSLock()
    private var disposables: [Disposable] = []
    func add(_ disposable: Disposable) { lock.withLock { disposables.append(disposable) } }
    func clear() {
      let cleared = lock.withLock {
        defer { disposables.removeAll() }
        return disposables
      }
      for disposable in cleared { disposable() }
    }
  }

  struct Taco {}

  /// `Single.just(value).subscribe(consumer)`: delivers at once; the disposable keeps the consumer.
  static func just<Value>(_ value: Value, subscribe consumer: @escaping (Value) -> Void) -> Disposable {
    consumer(value)
    return Disposable { withExtendedLifetime(consumer) {} }
  }

  final class TacoViewModel: Sendable {
    static let app = TacoViewModel()
    let compositeDisposable = CompositeDisposable()
  }

  final class TacoScreen {
    let bag = DisposeBag()
    private(set) var log: [String] = []
    func loadTaco() {
      let disposable = Reactive.just(Taco()) { _ in self.log.append("Taco created in \(self)") }
      TacoViewModel.app.compositeDisposable.add(disposable)
    }
    func loadTacoInItsOwnScope() {
      let disposable = Reactive.just(Taco()) { [weak self] _ in self?.log.append("Taco created") }
      disposable.disposed(by: bag)
    }
  }

  // artman/Signals, README.md: `networkLoader.onProgress.listen(self) { … }` is "fire-and-forget: if
  // your listener is deallocated, the Signal removes the listener". A closure that uses the
  // listener keeps it from ever deallocating; the screen here owns the loader. Twin: the closure
  // captures `[unowned self]`.
  final class Signal<Value> {
    private struct Listener {
      weak var observer: AnyObject?
      let callback: (Value) -> Void
    }
    private var listeners: [Listener] = []
    func listen(_ observer: AnyObject, callback: @escaping (Value) -> Void) {
      listeners.append(Listener(observer: observer, callback: callback))
    }
    func fire(_ value: Value) {
      listeners.removeAll { $0.observer == nil }
      for listener in listeners { listener.callback(value) }
    }
    func removeAllListeners() {
      let removed = listeners
      listeners.removeAll()
      withExtendedLifetime(removed) {}
    }
  }

  final class NetworkLoader {
    let onProgress = Signal<Float>()
  }

  final class DownloadScreen {
    let networkLoader = NetworkLoader()
    private(set) var progress: Float = 0
    func viewDidLoad(unowned: Bool) {
      if unowned {
        networkLoader.onProgress.listen(self) { [unowned self] progress in self.progress = progress }
      } else {
        networkLoader.onProgress.listen(self) { progress in self.progress = progress }
      }
      networkLoader.onProgress.fire(0.5)
    }
  }

  // aleclarson/emitter-kit#27 ("You should always retain a list of listeners"): `event.on { … }`
  // returns a listener the caller keeps in `listeners`; its closure here uses the object that keeps
  // it. Twin: `[unowned self]`.
  final class EventListener {
    let handler: (String) -> Void
    init(_ handler: @escaping (String) -> Void) { self.handler = handler }
  }

  final class Event {
    private struct WeakListener {
      weak var listener: EventListener?
    }
    private var listeners: [WeakListener] = []
    func on(_ handler: @escaping (String) -> Void) -> EventListener {
      let listener = EventListener(handler)
      listeners.append(WeakListener(listener: listener))
      return listener
    }
    func emit(_ value: String) {
      for entry in listeners { entry.listener?.handler(value) }
    }
  }

  final class SomeTemporaryClass {
    var listeners: [EventListener] = []
    private(set) var received: [String] = []
    init(someEvent: Event, unowned: Bool) {
      if unowned {
        listeners.append(someEvent.on { [unowned self] in self.received.append($0) })
      } else {
        listeners.append(someEvent.on { self.received.append($0) })
      }
    }
  }

  // https://www.kodeco.com/6733535-ios-mvvm-tutorial-refactoring-from-mvc: the tutorial's binding
  // `Box<T>` keeps one `listener`; a view controller that owns its view model binds a box with a
  // closure that uses `self`. Twin: `[weak self]`, as the tutorial writes it.
  final class Box<T> {
    typealias Listener = (T) -> Void
    var listener: Listener?
    var value: T {
      didSet { listener?(value) }
    }
    init(_ value: T) { self.value = value }
    func bind(listener: Listener?) {
      self.listener = listener
      listener?(value)
    }
  }

  final class WeatherViewModel {
    let locationName = Box("Loading...")
  }

  final class WeatherViewController {
    let viewModel = WeatherViewModel()
    private(set) var cityLabel = ""
    func viewDidLoad(weakly: Bool) {
      if weakly {
        viewModel.locationName.bind { [weak self] in self?.cityLabel = $0 }
      } else {
        viewModel.locationName.bind { self.cityLabel = $0 }
      }
    }
  }
}

@Suite(.everyObjectRuns) struct ReactiveCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: an onNext closure uses the screen that owns the bag")
  func rxSubscriptionUsesItsScreen() async throws {
    try await Corpus.expectLeak([
      .object(Reactive.SearchViewController.self, heldBy: "PublishSubject<Array<String>>.observers|results.observers"),
      .also(Reactive.SearchViewModel.self, heldBy: "SearchViewController.viewModel"),
      .also(Reactive.PublishSubject<[String]>.self, heldBy: "SearchViewModel.results"),
      .also(Reactive.DisposeBag.self, heldBy: "SearchViewController.disposeBag"),
      .also(Reactive.Disposable.self, heldBy: "DisposeBag.disposables[0]"),
    ]) {
      let controller = Reactive.SearchViewController()
      controller.viewDidLoad(weakly: false)
      controller.viewModel.results.onNext(["Swift"])
      return Leak(controller) { [weak controller] in controller?.viewModel.results.removeAllObservers() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func rxSubscriptionCapturesItsScreenWeakly() async {
    let controller = Reactive.SearchViewController()
    controller.viewDidLoad(weakly: true)
    controller.viewModel.results.onNext(["Swift"])
  }

  @Test("Fails on purpose: an observer of a singleton's property uses its screen")
  func singletonPropertyObserverUsesItsScreen() async throws {
    // The app made its singleton before this test, as an app does at launch (when the test makes it,
    // it and what its initialiser made are the singleton's own, not leaks: EveryObjectTraitTests
    // covers that), so the case does not depend on which test touches it first.
    _ = Reactive.AccountSingleton.instance
    try await Corpus.expectLeak([
      .object(Reactive.AccountScreen.self, heldBy: "AccountSingleton.instance"),
      .also(Reactive.DisposeBag.self, heldBy: "AccountScreen.bag"),
      .also(Reactive.Disposable.self, heldBy: "DisposeBag.disposables[0]"),
    ]) {
      let screen = Reactive.AccountScreen(weakly: false)
      return Leak(screen) { [weak screen] in screen?.bag.disposeAll() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func singletonPropertyObserverCapturesItsScreenWeakly() async {
    _ = Reactive.AccountScreen(weakly: true)
  }

  @Test("Fails on purpose: a completed subscription's disposable kept in the app's composite")
  func disposableKeptInALongLivedComposite() async throws {
    // The app made its singleton before this test, as an app does at launch (when the test makes it,
    // it and what its initialiser made are the singleton's own, not leaks: EveryObjectTraitTests
    // covers that), so the case does not depend on which test touches it first.
    _ = Reactive.TacoViewModel.app
    try await Corpus.expectLeak([
      // The leak is the subscription's disposable, which the app-wide view model's composite
      // (made by its initialiser, so the singleton's own) keeps; the disposable holds the screen.
      .object(Reactive.Disposable.self, heldBy: "the global Reactive.TacoViewModel.app, through")
    ]) {
      let screen = Reactive.TacoScreen()
      screen.loadTaco()
      return Leak(screen) { Reactive.TacoViewModel.app.compositeDisposable.clear() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func disposableKeptInTheScreensOwnBag() async {
    let screen = Reactive.TacoScreen()
    screen.loadTacoInItsOwnScope()
  }

  @Test("Fails on purpose: a fire-and-forget signal listener whose closure uses the listener")
  func signalListenerClosureUsesTheListener() async throws {
    try await Corpus.expectLeak([
      .object(Reactive.DownloadScreen.self, heldBy: "Signal<Float>.listeners[0]|onProgress.listeners[0]"),
      .also(Reactive.NetworkLoader.self, heldBy: "DownloadScreen.networkLoader"),
      .also(Reactive.Signal<Float>.self, heldBy: "NetworkLoader.onProgress"),
    ]) {
      let screen = Reactive.DownloadScreen()
      screen.viewDidLoad(unowned: false)
      return Leak(screen) { [weak screen] in screen?.networkLoader.onProgress.removeAllListeners() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func signalListenerClosureCapturesTheListenerUnowned() async {
    let screen = Reactive.DownloadScreen()
    screen.viewDidLoad(unowned: true)
  }

  @Test("Fails on purpose: an event listener kept by the object its closure uses")
  func eventListenerKeptByTheObjectItUses() async throws {
    try await Corpus.expectLeak([
      .object(
        Reactive.SomeTemporaryClass.self,
        heldBy: "EventListener.handler (a closure that captures it)|listeners[0].handler (a closure that captures it)"),
      .also(Reactive.EventListener.self, heldBy: "SomeTemporaryClass.listeners[0]"),
    ]) {
      let someEvent = Reactive.Event()
      let temp = Reactive.SomeTemporaryClass(someEvent: someEvent, unowned: false)
      someEvent.emit("hello")
      return Leak(temp) { [weak temp] in temp?.listeners.removeAll() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func eventListenerClosureCapturesTheObjectUnowned() async {
    let someEvent = Reactive.Event()
    _ = Reactive.SomeTemporaryClass(someEvent: someEvent, unowned: true)
    someEvent.emit("hello")
  }

  @Test("Fails on purpose: a binding box's listener uses the controller that owns the box")
  func boxListenerUsesItsController() async throws {
    try await Corpus.expectLeak([
      .object(
        Reactive.WeatherViewController.self,
        heldBy: "Box<String>.listener (a closure that captures it)|locationName.listener (a closure that captures it)"),
      .also(Reactive.WeatherViewModel.self, heldBy: "WeatherViewController.viewModel"),
      .also(Reactive.Box<String>.self, heldBy: "WeatherViewModel.locationName"),
    ]) {
      let controller = Reactive.WeatherViewController()
      controller.viewDidLoad(weakly: false)
      controller.viewModel.locationName.value = "Lisbon"
      return Leak(controller) { [weak controller] in controller?.viewModel.locationName.bind(listener: nil) }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func boxListenerCapturesItsControllerWeakly() async {
    let controller = Reactive.WeatherViewController()
    controller.viewDidLoad(weakly: true)
    controller.viewModel.locationName.value = "Lisbon"
  }
}

extension Reactive.DisposeBag {
  /// Disposes everything in the bag now.
  func disposeAll() {
    let disposed = disposables
    disposables.removeAll()
    for disposable in disposed { disposable() }
  }
}
