import Foundation
import PresentationModelTesting
import Testing

/// Foundation keeping a block or object that uses an object: block observers, operations,
/// `NSCache`, a `Thread` (each case names its source).
enum Foundations {
  // omaralbeik/making-mvc-great-again#3 ("Fixing observer not being released": "Notification
  // closures were strongly capturing references to the observer thus causing retain cycles"): a
  // screen observes the keyboard through `NotificationCenter.default` with a block that uses `self`,
  // and keeps the token to remove it in `deinit`, which never runs. Twin: `[weak self]`.
  static let keyboardWillShow = Notification.Name("EveryObjectCorpusTests.keyboardWillShow")

  final class KeyboardAwareScreen: @unchecked Sendable {
    // @unchecked Sendable: `bottomInset` is written by the observer block, which the test never runs.
    private var token: (any NSObjectProtocol)?
    private(set) var bottomInset = 0.0
    func viewDidLoad(weakly: Bool) {
      token =
        weakly
        ? NotificationCenter.default.addObserver(forName: keyboardWillShow, object: nil, queue: nil) {
          [weak self] _ in self?.bottomInset = 300
        }
        : NotificationCenter.default.addObserver(forName: keyboardWillShow, object: nil, queue: nil) { _ in
          self.bottomInset = 300
        }
    }
    func stopObserving() {
      if let token { NotificationCenter.default.removeObserver(token) }
      token = nil
    }
    deinit { stopObserving() }
  }

  // Apple, NotificationCenter.addObserver(forName:object:queue:using:)
  // (https://developer.apple.com/documentation/foundation/notificationcenter/addobserver(forname:object:queue:using:)):
  // the center keeps the block until the observer is removed. A document model posts on a private
  // center; the editor that owns the model observes it with a block that uses the editor.
  static let documentDidChange = Notification.Name("EveryObjectCorpusTests.documentDidChange")

  final class DocumentModel {
    let events = NotificationCenter()
    var text = "" {
      didSet { events.post(name: documentDidChange, object: self) }
    }
  }

  final class DocumentEditor: @unchecked Sendable {
    // @unchecked Sendable: `changes` is written by the observer block, on the posting thread, which
    // is the test's.
    let document = DocumentModel()
    private var token: (any NSObjectProtocol)?
    private(set) var changes = 0
    func open(weakly: Bool) {
      token =
        weakly
        ? document.events.addObserver(forName: documentDidChange, object: nil, queue: nil) { [weak self] _ in
          self?.changes += 1
        }
        : document.events.addObserver(forName: documentDidChange, object: nil, queue: nil) { _ in
          self.changes += 1
        }
    }
    func close() {
      if let token { document.events.removeObserver(token) }
      token = nil
    }
  }

  // Apple, Operation.completionBlock (https://developer.apple.com/documentation/foundation/operation/completionblock):
  // the operation keeps its completion block, set to nil only once it begins executing. An import
  // operation whose completion block reads the operation's own result, and which is cancelled
  // before any queue runs it. Twin: `[unowned operation]`.
  final class ImportOperation: Operation, @unchecked Sendable {
    // @unchecked Sendable: `importedCount` and `summary` are written by `main` and the completion
    // block, which the test never runs.
    private(set) var importedCount = 0
    var summary = ""
    override func main() { importedCount = 42 }
  }

  // Apple Developer Forums, "Why is [weak self] or [unowned self] not needed in Operation Queue?"
  // (https://developer.apple.com/forums/thread/95036): a manager that owns an `OperationQueue` adds
  // blocks using `self` with no cycle, because the queue lets each block go once it ran. A
  // suspended queue never runs them: here the manager pauses its queue while syncing is off.
  final class SyncManager: @unchecked Sendable {
    // @unchecked Sendable: `synced` is written by the queue's operations, which never run in the test.
    let queue = OperationQueue()
    private var synced = 0
    func pause() { queue.isSuspended = true }
    func resume() { queue.isSuspended = false }
    func addTask(weakly: Bool) {
      if weakly {
        queue.addOperation { [weak self] in self?.synced += 1 }
      } else {
        queue.addOperation { self.synced += 1 }
      }
    }
  }

  // https://www.swiftbysundell.com/articles/caching-in-swift/: a cache wrapping `NSCache`; here it
  // is the app-wide one in a static, and an entry the test made stays in it.
  final class CachedArticle {
    let title: String
    init(title: String) { self.title = title }
  }

  enum ArticleCache {
    nonisolated(unsafe) static let shared = NSCache<NSString, CachedArticle>()
    // nonisolated(unsafe): NSCache is thread-safe ("You can add, remove, and query items in the
    // cache from different threads without having to lock the cache yourself", its documentation).
  }

  // Apple, Thread.init(block:) (https://developer.apple.com/documentation/foundation/thread/init(block:)):
  // the thread keeps its block until it exits. A log writer runs a thread that waits for work and
  // uses `self`; nothing tells it to stop. Twin: `[weak self]`, and the thread told to stop.
  final class LogWriter: @unchecked Sendable {
    // @unchecked Sendable: `written` is only touched by the writer thread.
    let wake = DispatchSemaphore(value: 0)
    private var written = 0
    func start(weakly: Bool) {
      let wake = self.wake
      let thread =
        weakly
        ? Thread { [weak self] in
          wake.wait()
          self?.written += 1
        }
        : Thread {
          wake.wait()
          self.written += 1
        }
      thread.start()
    }
  }
}

@Suite(.everyObjectRuns) struct FoundationCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a NotificationCenter block observer that uses self")
  func blockObserverUsesSelf() async throws {
    try await Corpus.expectLeak([
      .object(
        Foundations.KeyboardAwareScreen.self,
        heldBy: "a NotificationCenter block observer…KeyboardAwareScreen.viewDidLoad(weakly:)")
    ]) {
      let screen = Foundations.KeyboardAwareScreen()
      screen.viewDidLoad(weakly: false)
      return Leak(screen) { [weak screen] in screen?.stopObserving() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func blockObserverCapturesSelfWeakly() async {
    let screen = Foundations.KeyboardAwareScreen()
    screen.viewDidLoad(weakly: true)
  }

  @Test("Fails on purpose: a block observer on the owned model's private center")
  func blockObserverOnAnOwnedCenter() async throws {
    try await Corpus.expectLeak([
      .object(
        Foundations.DocumentEditor.self,
        heldBy: "a NotificationCenter block observer…DocumentEditor.open(weakly:)|DocumentEditor.document.events"),
      .also(Foundations.DocumentModel.self, heldBy: "DocumentEditor.document"),
    ]) {
      let editor = Foundations.DocumentEditor()
      editor.open(weakly: false)
      editor.document.text = "Hello"
      return Leak(editor) { [weak editor] in editor?.close() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func blockObserverOnAnOwnedCenterCapturesWeakly() async {
    let editor = Foundations.DocumentEditor()
    editor.open(weakly: true)
    editor.document.text = "Hello"
  }

  @Test("Fails on purpose: an operation's completion block uses the operation")
  func completionBlockUsesItsOperation() async throws {
    try await Corpus.expectLeak([
      .object(Foundations.ImportOperation.self, heldBy: "ImportOperation.completionBlock|ImportOperation.__completion")
    ]) {
      let operation = Foundations.ImportOperation()
      operation.completionBlock = { operation.summary = "imported \(operation.importedCount)" }
      operation.cancel()
      return Leak(operation) { [weak operation] in operation?.completionBlock = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func completionBlockCapturesItsOperationUnowned() async {
    let operation = Foundations.ImportOperation()
    operation.completionBlock = { [unowned operation] in
      operation.summary = "imported \(operation.importedCount)"
    }
    operation.cancel()
  }

  @Test("Fails on purpose: operations waiting on a suspended queue their manager owns")
  func operationsOnASuspendedQueue() async throws {
    try await Corpus.expectLeak([
      .object(
        Foundations.SyncManager.self, heldBy: "SyncManager.queue|SyncManager.addTask(weakly:)")
    ]) {
      let manager = Foundations.SyncManager()
      manager.pause()
      manager.addTask(weakly: false)
      return Leak(manager) { [weak manager] in manager?.resume() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func operationsOnASuspendedQueueCaptureWeakly() async {
    let manager = Foundations.SyncManager()
    manager.pause()
    manager.addTask(weakly: true)
    let queue = manager.queue
    // The manager went with its queue suspended; resumed, the queue runs its operation and lets
    // it go (a suspended OperationQueue is never freed on Linux, with what it holds).
    queue.isSuspended = false
  }

  @Test("Fails on purpose: an entry left in an app-wide NSCache")
  func entryLeftInAGlobalNSCache() async throws {
    try await Corpus.expectLeak([
      .object(Foundations.CachedArticle.self, heldBy: "ArticleCache.shared")
    ]) {
      let article = Foundations.CachedArticle(title: "Caching in Swift")
      Foundations.ArticleCache.shared.setObject(article, forKey: "caching-in-swift")
      return Leak(article) { Foundations.ArticleCache.shared.removeObject(forKey: "caching-in-swift") }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func entryInACacheTheScreenOwns() async {
    let cache = NSCache<NSString, Foundations.CachedArticle>()
    let article = Foundations.CachedArticle(title: "Caching in Swift")
    cache.setObject(article, forKey: "caching-in-swift")
  }

  @Test("Fails on purpose: a thread's block waits forever and uses its object")
  func threadBlockUsesItsObject() async throws {
    try await Corpus.expectLeak([
      .object(Foundations.LogWriter.self, heldBy: "Thread…LogWriter.start(weakly:)")
    ]) {
      let writer = Foundations.LogWriter()
      writer.start(weakly: false)
      let wake = writer.wake
      return Leak(writer) { wake.signal() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func threadBlockCapturesItsObjectWeakly() async {
    let writer = Foundations.LogWriter()
    writer.start(weakly: true)
    let wake = writer.wake
    wake.signal()
  }
}
