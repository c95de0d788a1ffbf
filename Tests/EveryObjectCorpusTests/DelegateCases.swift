import Foundation
import PresentationModelTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Delegates, parents and children, coordinators and linked structures, from Q&A, articles,
/// Apple's documentation and a published data-structure library (each case names its source).
enum Delegates {
  // https://stackoverflow.com/questions/30056526/swift-delegation-when-to-use-weak-pointer-on-delegate:
  // a view's data source declared strong; the controller that owns the view is its data source.
  protocol ListDataSource: AnyObject {
    func numberOfRows() -> Int
  }

  final class ListView {
    var dataSource: (any ListDataSource)?
    func reloadData() -> Int { dataSource?.numberOfRows() ?? 0 }
  }

  final class WeakListView {
    weak var dataSource: (any ListDataSource)?
    func reloadData() -> Int { dataSource?.numberOfRows() ?? 0 }
  }

  final class InboxController: ListDataSource {
    let listView = ListView()
    func viewDidLoad() {
      listView.dataSource = self
      _ = listView.reloadData()
    }
    func numberOfRows() -> Int { 3 }
  }

  final class FixedInboxController: ListDataSource {
    let listView = WeakListView()
    func viewDidLoad() {
      listView.dataSource = self
      _ = listView.reloadData()
    }
    func numberOfRows() -> Int { 3 }
  }

  // Apple, URLSession.init(configuration:delegate:delegateQueue:)
  // (https://developer.apple.com/documentation/foundation/urlsession/init(configuration:delegate:delegatequeue:)):
  // "The session object keeps a strong reference to the delegate until your app exits or explicitly
  // invalidates the session. If you don't invalidate the session, your app leaks memory until it
  // exits." A downloader that owns its session and is its delegate; the twin invalidates it.
  final class Downloader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: the session calls its delegate on its own queue; this one keeps no state
    // the delegate methods touch.
    private(set) var session: URLSession!
    override init() {
      super.init()
      session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
    }
    func cancel() { session.invalidateAndCancel() }
  }

  // https://www.hackingwithswift.com/articles/175/advanced-coordinator-pattern-tutorial-ios: a child
  // coordinator's `parentCoordinator` (the article makes it `weak`) and the parent's
  // `childCoordinators`; here it is strong.
  protocol Coordinator: AnyObject {
    var childCoordinators: [any Coordinator] { get set }
    func start()
  }

  final class MainCoordinator: Coordinator {
    var childCoordinators: [any Coordinator] = []
    func start() {}
    func buySubscription() {
      let child = BuyCoordinator()
      child.parentCoordinator = self
      childCoordinators.append(child)
      child.start()
    }
    func buySubscriptionWithAWeakParent() {
      let child = FixedBuyCoordinator()
      child.parentCoordinator = self
      childCoordinators.append(child)
      child.start()
    }
  }

  final class BuyCoordinator: Coordinator {
    var childCoordinators: [any Coordinator] = []
    var parentCoordinator: MainCoordinator?
    func start() {}
  }

  final class FixedBuyCoordinator: Coordinator {
    var childCoordinators: [any Coordinator] = []
    weak var parentCoordinator: MainCoordinator?
    func start() {}
  }

  // kodecocodes/swift-algorithm-club, Tree/Tree.swift: `TreeNode<T>` keeps `parent` strong next to
  // `children` (Tree/README.markdown draws the cycles); the twin makes `parent` weak.
  final class TreeNode<T> {
    var value: T
    var parent: TreeNode?
    var children = [TreeNode<T>]()
    init(value: T) { self.value = value }
    func addChild(node: TreeNode<T>) {
      children.append(node)
      node.parent = self
    }
  }

  final class WeakParentTreeNode<T> {
    var value: T
    weak var parent: WeakParentTreeNode?
    var children = [WeakParentTreeNode<T>]()
    init(value: T) { self.value = value }
    func addChild(node: WeakParentTreeNode<T>) {
      children.append(node)
      node.parent = self
    }
  }

  // kodecocodes/swift-algorithm-club, Linked List/LinkedList.swift: the doubly linked list's node
  // keeps `weak var previous`; here `previous` is strong (the twin is the published node).
  final class LinkedListNode<T> {
    var value: T
    var next: LinkedListNode?
    var previous: LinkedListNode?
    init(value: T) { self.value = value }
  }

  final class PublishedLinkedListNode<T> {
    var value: T
    var next: PublishedLinkedListNode?
    weak var previous: PublishedLinkedListNode?
    init(value: T) { self.value = value }
  }

  // FBRetainCycleDetector, FBRetainCycleDetectorTests.mm,
  // testThatDetectorWillNotFindCycleInCommonDelegationPattern: a controller owns a helper whose
  // delegate is the controller. A multicast variant (a chat connection that keeps every listener
  // strongly in an array, as its delegates): the screen that owns the connection listens to it.
  protocol ConnectionListener: AnyObject {
    func connectionDidReceive(_ message: String)
  }

  final class ChatConnection {
    private var listeners: [any ConnectionListener] = []
    func add(_ listener: any ConnectionListener) { listeners.append(listener) }
    func removeAll() {
      let removed = listeners
      listeners.removeAll()
      withExtendedLifetime(removed) {}
    }
    func receive(_ message: String) {
      for listener in listeners { listener.connectionDidReceive(message) }
    }
  }

  final class WeakChatConnection {
    private struct WeakListener {
      weak var listener: (any ConnectionListener)?
    }
    private var listeners: [WeakListener] = []
    func add(_ listener: any ConnectionListener) { listeners.append(WeakListener(listener: listener)) }
    func receive(_ message: String) {
      for entry in listeners { entry.listener?.connectionDidReceive(message) }
    }
  }

  final class ChatScreen: ConnectionListener {
    let connection = ChatConnection()
    private(set) var messages: [String] = []
    func viewDidLoad() { connection.add(self) }
    func connectionDidReceive(_ message: String) { messages.append(message) }
  }

  final class FixedChatScreen: ConnectionListener {
    let connection = WeakChatConnection()
    private(set) var messages: [String] = []
    func viewDidLoad() { connection.add(self) }
    func connectionDidReceive(_ message: String) { messages.append(message) }
  }
}

@Suite(.everyObjectRuns) struct DelegateCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a view's strong data source owns the view")
  func strongDataSource() async throws {
    try await Corpus.expectLeak([
      .object(Delegates.InboxController.self, heldBy: "ListView.dataSource|InboxController.listView.dataSource"),
      .also(Delegates.ListView.self, heldBy: "InboxController.listView"),
    ]) {
      let inbox = Delegates.InboxController()
      inbox.viewDidLoad()
      return Leak(inbox) { [weak inbox] in inbox?.listView.dataSource = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func weakDataSource() async {
    let inbox = Delegates.FixedInboxController()
    inbox.viewDidLoad()
  }

  @Test("Fails on purpose: a URLSession never invalidated keeps its delegate")
  func urlSessionKeepsItsDelegate() async throws {
    try await Corpus.expectLeak([.object(Delegates.Downloader.self, heldBy: "URLSession.delegate|session.delegate")]) {
      let downloader = Delegates.Downloader()
      return Leak(downloader) { [weak downloader] in downloader?.cancel() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func urlSessionInvalidatedReleasesItsDelegate() async {
    let downloader = Delegates.Downloader()
    downloader.cancel()
  }

  @Test("Fails on purpose: a child coordinator holding its parent strongly")
  func childCoordinatorHoldingItsParent() async throws {
    try await Corpus.expectLeak([
      .object(
        Delegates.MainCoordinator.self,
        heldBy: "BuyCoordinator.parentCoordinator|MainCoordinator.childCoordinators[0].parentCoordinator"),
      .also(Delegates.BuyCoordinator.self, heldBy: "MainCoordinator.childCoordinators[0]"),
    ]) {
      let main = Delegates.MainCoordinator()
      main.start()
      main.buySubscription()
      return Leak(main) { [weak main] in main?.childCoordinators.removeAll() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func childCoordinatorHoldingItsParentWeakly() async {
    let main = Delegates.MainCoordinator()
    main.start()
    main.buySubscriptionWithAWeakParent()
  }

  @Test("Fails on purpose: a generic tree whose nodes hold their parent strongly")
  func treeWithStrongParents() async throws {
    try await Corpus.expectLeak([
      .object(Delegates.TreeNode<String>.self, heldBy: "TreeNode<String>.parent|TreeNode<String>.children[0].parent"),
      .also(Delegates.TreeNode<String>.self, heldBy: "TreeNode<String>.children[0]"),
    ]) {
      let tree = Delegates.TreeNode<String>(value: "beverages")
      let hotNode = Delegates.TreeNode<String>(value: "hot")
      let coldNode = Delegates.TreeNode<String>(value: "cold")
      tree.addChild(node: hotNode)
      tree.addChild(node: coldNode)
      hotNode.addChild(node: Delegates.TreeNode<String>(value: "tea"))
      return Leak(tree) { [weak tree] in tree?.removeAllDescendants() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func treeWithWeakParents() async {
    let tree = Delegates.WeakParentTreeNode<String>(value: "beverages")
    let hotNode = Delegates.WeakParentTreeNode<String>(value: "hot")
    tree.addChild(node: hotNode)
    hotNode.addChild(node: Delegates.WeakParentTreeNode<String>(value: "tea"))
  }

  @Test("Fails on purpose: a doubly linked list whose previous links are strong")
  func linkedListWithStrongPreviousLinks() async throws {
    try await Corpus.expectLeak([
      .object(
        Delegates.LinkedListNode<Int>.self, heldBy: "LinkedListNode<Int>.previous|LinkedListNode<Int>.next.previous"),
      .also(Delegates.LinkedListNode<Int>.self, heldBy: "LinkedListNode<Int>.next"),
    ]) {
      let head = Delegates.LinkedListNode(value: 1)
      let tail = Delegates.LinkedListNode(value: 2)
      head.next = tail
      tail.previous = head
      return Leak(head) { [weak head] in head?.next = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func linkedListWithWeakPreviousLinks() async {
    let head = Delegates.PublishedLinkedListNode(value: 1)
    let tail = Delegates.PublishedLinkedListNode(value: 2)
    head.next = tail
    tail.previous = head
  }

  @Test("Fails on purpose: a connection keeping its listeners strongly, owned by one of them")
  func multicastDelegatesKeptStrongly() async throws {
    try await Corpus.expectLeak([
      .object(Delegates.ChatScreen.self, heldBy: "ChatConnection.listeners[0]|ChatScreen.connection.listeners[0]"),
      .also(Delegates.ChatConnection.self, heldBy: "ChatScreen.connection"),
    ]) {
      let screen = Delegates.ChatScreen()
      screen.viewDidLoad()
      screen.connection.receive("hello")
      return Leak(screen) { [weak screen] in screen?.connection.removeAll() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func multicastDelegatesKeptWeakly() async {
    let screen = Delegates.FixedChatScreen()
    screen.viewDidLoad()
    screen.connection.receive("hello")
  }
}

extension Delegates.TreeNode {
  /// Breaks every parent-child cycle below this node.
  func removeAllDescendants() {
    for child in children { child.removeAllDescendants() }
    children.removeAll()
  }
}
