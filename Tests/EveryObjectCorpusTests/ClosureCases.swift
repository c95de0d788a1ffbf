import Foundation
import PresentationModelTesting
import Testing

/// Closures kept in properties, arrays and dictionaries, a method passed as a closure, and a
/// recursive closure, from articles and bug reports (each case names its source).
enum Closures {
  // https://www.marisibrothers.com/2017/04/memory-leak-in-swift-assigning-function.html: a view
  // controller assigns its own method to its view's closure property (`customView.onButtonPressed =
  // handleButtonAction`); the fix wraps it in a closure capturing `self` weakly.
  final class View {
    var onButtonPressed: (() -> Void)?
  }

  final class ViewController {
    let customView = View()
    private(set) var presses = 0
    init(weakly: Bool) {
      if weakly {
        customView.onButtonPressed = { [weak self] in self?.handleButtonAction() }
      } else {
        customView.onButtonPressed = handleButtonAction
      }
    }
    func handleButtonAction() { presses += 1 }
  }

  // https://medium.com/@stremsdoerfer/understanding-memory-leaks-in-closures-48207214cba: a view
  // controller's custom view keeps an `onTap` closure that uses `self` and a counter.
  final class CustomView {
    var onTap: (() -> Void)?
  }

  final class TapCounterController {
    let customView = CustomView()
    var timesTapped = 0
    func viewDidLoad(weakly: Bool) {
      if weakly {
        customView.onTap = { [weak self] in self?.timesTapped += 1 }
      } else {
        customView.onTap = { self.timesTapped += 1 }
      }
    }
  }

  // https://tanaschita.com/20221003-memory-management-for-async-await/: "a closure is assigned to a
  // property of a class instance and at the same time the body of that closure captures the instance".
  final class CategoriesModel {
    private var loadCategories: (([String]) -> Void)?
    private(set) var categories: [String] = []
    func update(weakly: Bool) {
      if weakly {
        loadCategories = { [weak self] categories in self?.categories = categories }
      } else {
        loadCategories = { categories in self.categories = categories }
      }
      loadCategories?(["Books"])
    }
  }

  // https://livsycode.com/swift/should-we-use-the-weak-self-with-dispatchqueue-main-async/: a client
  // calls its own service's `getData`, whose completion uses the client; here the service keeps the
  // completion until data arrives (none does in the test).
  final class Service {
    private var completions: [() -> Void] = []
    func getData(_ completion: @escaping () -> Void) { completions.append(completion) }
  }

  final class Client {
    let service = Service()
    private(set) var actions = 0
    func firstAction(weakly: Bool) {
      if weakly {
        service.getData { [weak self] in self?.secondAction() }
      } else {
        service.getData { self.secondAction() }
      }
    }
    private func secondAction() { actions += 1 }
  }

  // https://www.swiftbysundell.com/articles/observers-in-swift-part-2/: closure-based observations
  // kept in dictionaries keyed by UUID; the observer owns the player and its closure uses `self`
  // (the article's observers capture `[weak self]`).
  final class AudioPlayer {
    struct Observations {
      var started: [UUID: (AudioPlayer) -> Void] = [:]
    }
    private var observations = Observations()
    @discardableResult
    func observePlaybackStarted(using closure: @escaping (AudioPlayer) -> Void) -> UUID {
      let id = UUID()
      observations.started[id] = closure
      return id
    }
    func removeObservation(_ id: UUID) { observations.started[id] = nil }
    func play() {
      for closure in observations.started.values { closure(self) }
    }
  }

  final class NowPlayingViewController {
    let player = AudioPlayer()
    private(set) var titleText = ""
    private var observation: UUID?
    func viewDidLoad(weakly: Bool) {
      if weakly {
        observation = player.observePlaybackStarted { [weak self] _ in self?.titleText = "Playing" }
      } else {
        observation = player.observePlaybackStarted { _ in self.titleText = "Playing" }
      }
    }
  }

  // iina/iina#3445 ("Many FileInfo objects leaked"): `FileGroup.flatten()` recurses through a closure
  // kept in a local `var search` that calls itself; the closure's context holds `search` and the
  // `result` it fills, so the FileInfo objects in `result` are never freed. The fix (iina's pull
  // request) replaces the closure with a nested function.
  final class FileInfo {
    let path: String
    init(path: String) { self.path = path }
  }

  final class FileGroup {
    let prefix: String
    var groups: [FileGroup] = []
    var contents: [FileInfo] = []
    init(prefix: String) { self.prefix = prefix }

    func flatten() -> Int {
      var result: [String: [FileInfo]] = [:]
      var search: ((FileGroup) -> Void)!
      search = { group in
        if group.groups.count > 0 {
          for g in group.groups {
            search(g)
          }
        } else {
          result[group.prefix] = group.contents
        }
      }
      search(self)
      return result.count
    }

    func flattenWithANestedFunction() -> Int {
      var result: [String: [FileInfo]] = [:]
      func search(_ group: FileGroup) {
        if group.groups.count > 0 {
          for g in group.groups {
            search(g)
          }
        } else {
          result[group.prefix] = group.contents
        }
      }
      search(self)
      return result.count
    }

    static func movies() -> FileGroup {
      let movies = FileGroup(prefix: "Movies")
      let episode = FileGroup(prefix: "Movies/Episode")
      episode.contents = [FileInfo(path: "Episode 1.mkv"), FileInfo(path: "Episode 2.mkv")]
      movies.groups = [episode]
      return movies
    }
  }
}

@Suite(.everyObjectRuns) struct ClosureCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a method assigned to a view's closure property")
  func methodAssignedToAClosureProperty() async throws {
    try await Corpus.expectLeak([
      .object(Closures.ViewController.self, heldBy: "View.onButtonPressed"),
      .also(Closures.View.self, heldBy: "ViewController.customView"),
    ]) {
      let controller = Closures.ViewController(weakly: false)
      controller.customView.onButtonPressed?()
      return Leak(controller) { [weak controller] in controller?.customView.onButtonPressed = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func aClosureCallingTheMethodWeakly() async {
    let controller = Closures.ViewController(weakly: true)
    controller.customView.onButtonPressed?()
  }

  @Test("Fails on purpose: a subview's onTap closure using the controller")
  func onTapUsingTheController() async throws {
    try await Corpus.expectLeak([
      .object(
        Closures.TapCounterController.self,
        heldBy: "CustomView.onTap (a closure that captures it)|customView.onTap (a closure that captures it)"),
      .also(Closures.CustomView.self, heldBy: "TapCounterController.customView"),
    ]) {
      let controller = Closures.TapCounterController()
      controller.viewDidLoad(weakly: false)
      controller.customView.onTap?()
      return Leak(controller) { [weak controller] in controller?.customView.onTap = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func onTapCapturingTheControllerWeakly() async {
    let controller = Closures.TapCounterController()
    controller.viewDidLoad(weakly: true)
    controller.customView.onTap?()
  }

  @Test("Fails on purpose: a closure property of the object it uses")
  func closurePropertyUsingItsObject() async throws {
    try await Corpus.expectLeak([
      .object(Closures.CategoriesModel.self, heldBy: "CategoriesModel.loadCategories (a closure that captures it)")
    ]) {
      let model = Closures.CategoriesModel()
      model.update(weakly: false)
      return Leak(model) { [weak model] in model?.update(weakly: true) }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func closurePropertyCapturingItsObjectWeakly() async {
    let model = Closures.CategoriesModel()
    model.update(weakly: true)
  }

  @Test("Fails on purpose: a completion kept by the client's own service")
  func completionKeptByTheClientsService() async throws {
    try await Corpus.expectLeak([
      .object(Closures.Client.self, heldBy: "Service.completions[0]|Client.service.completions[0]"),
      .also(Closures.Service.self, heldBy: "Client.service"),
    ]) {
      let client = Closures.Client()
      client.firstAction(weakly: false)
      return Leak(client) { [weak client] in client?.service.removeAllCompletions() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func completionCapturingTheClientWeakly() async {
    let client = Closures.Client()
    client.firstAction(weakly: true)
  }

  @Test("Fails on purpose: an observation closure kept in a dictionary by UUID")
  func observationClosureInADictionary() async throws {
    try await Corpus.expectLeak([
      .object(Closures.NowPlayingViewController.self, heldBy: "observations.started[some UUID]"),
      .also(Closures.AudioPlayer.self, heldBy: "NowPlayingViewController.player"),
    ]) {
      let controller = Closures.NowPlayingViewController()
      controller.viewDidLoad(weakly: false)
      controller.player.play()
      return Leak(controller) { [weak controller] in controller?.stopObserving() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func observationClosureCapturingWeakly() async {
    let controller = Closures.NowPlayingViewController()
    controller.viewDidLoad(weakly: true)
    controller.player.play()
  }

  @Test("Fails on purpose: a recursive closure kept in the var it calls")
  func recursiveClosureInAVar() async throws {
    try await Corpus.expectLeak([
      .object(
        Closures.FileInfo.self, heldBy: "a closure kept in a var that it captures itself"),
      .also(Closures.FileInfo.self, heldBy: "a closure kept in a var that it captures itself"),
    ]) {
      let movies = Closures.FileGroup.movies()
      _ = movies.flatten()
      let first = movies.groups[0].contents[0]
      let second = movies.groups[0].contents[1]
      // Nothing can reach the closure to undo it: the objects stay until the process ends (under
      // AddressSanitizer, LeakSanitizer reports them at exit: 5 allocations, 256 bytes).
      return Leak.permanent(first, second)
    }
  }

  @Test(.detectsLeaks(.everyObject)) func recursionThroughANestedFunction() async {
    let movies = Closures.FileGroup.movies()
    _ = movies.flattenWithANestedFunction()
  }
}

extension Closures.Service {
  func removeAllCompletions() {
    let removed = completions
    completions.removeAll()
    withExtendedLifetime(removed) {}
  }
}

extension Closures.NowPlayingViewController {
  func stopObserving() {
    if let observation { player.removeObservation(observation) }
  }
}
