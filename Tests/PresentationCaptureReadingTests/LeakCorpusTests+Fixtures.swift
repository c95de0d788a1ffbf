import Dispatch
import Foundation

/// Stand-ins for the classes of the sources (views, view controllers, timers' owners, publishers),
/// small enough to read at a glance.
extension LeakCorpusTests {
  protocol Delegate: AnyObject {}
  protocol Plain {}

  /// FBRetainCycleDetector's all-purpose test object: strong, weak and unretained references,
  /// collections, structs and blocks.
  class Holder: Delegate, Plain {
    var object: AnyObject?
    weak var weakObject: AnyObject?
    unowned(unsafe) var unretainedObject: AnyObject?
    var array: [AnyObject] = []
    var dictionary: [String: AnyObject] = [:]
    var any: Any?
    var set: Set<IdentityBox> = []
    var table: [ObjectIdentifier: AnyObject] = [:]
    var block: (() -> Void)?
    var blocks: [() -> Void] = []
    var pair: StrongPair?
    var weakPair: WeakPair?
    var nested: NestedPair?
    var delegate: (any Delegate)?
    weak var weakDelegate: (any Delegate)?
    var plain: (any Plain)?

    /// Drops every reference, to break a cycle at the end of a test.
    func clear() {
      object = nil
      unretainedObject = nil
      array = []
      dictionary = [:]
      any = nil
      set = []
      table = [:]
      block = nil
      blocks = []
      pair = nil
      weakPair = nil
      nested = nil
      delegate = nil
      plain = nil
    }

    static func clearing(_ holders: Holder...) -> () -> Void {
      { for holder in holders { holder.clear() } }
    }
  }

  /// FBRetainCycleDetector's subclass cases: a subclass of `Holder`.
  final class SubHolder: Holder {
    var own: AnyObject?
  }

  /// FBRetainCycleSwiftDetectorTests' inheritance chains: a stored property at each level.
  class Base {
    var base: AnyObject?
  }

  class Middle: Base {
    var middle: AnyObject?
  }

  final class Leaf: Middle {
    var leaf: AnyObject?
    func clear() {
      base = nil
      middle = nil
      leaf = nil
    }
  }

  struct StrongPair {
    var object: AnyObject?
    var count = 0
  }

  struct WeakPair {
    weak var object: AnyObject?
    var count = 0
  }

  struct NestedPair {
    var inner: StrongPair
    var label = "nested"
  }

  /// An object in a set, by identity (FBRetainCycleDetector's `NSHashTable` with strong memory).
  struct IdentityBox: Hashable {
    let object: AnyObject
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.object === rhs.object }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
  }

  // MARK: The Swift Programming Language, "Automatic Reference Counting"

  final class Person {
    var apartment: Apartment?
  }

  final class Apartment {
    var tenant: Person?
    weak var weakTenant: Person?
  }

  final class Customer {
    var card: CreditCard?
  }

  final class CreditCard {
    let customer: Customer?
    unowned let unownedCustomer: Customer
    init(customer: Customer, strongly: Bool) {
      self.customer = strongly ? customer : nil
      unownedCustomer = customer
    }
  }

  final class HTMLElement {
    let name = "p"
    let leaks: Bool
    init(leaks: Bool) { self.leaks = leaks }
    lazy var asHTML: () -> String = {
      if self.leaks { return { "<\(self.name)>" } }
      return { [unowned self] in "<\(self.name)>" }
    }()
  }

  // MARK: Views, controllers and services of the articles

  final class TableView {
    var delegate: (any Delegate)?
    weak var weakDelegate: (any Delegate)?
  }

  final class ViewController: Delegate {
    let tableView = TableView()
  }

  final class Button {
    var action: (() -> Void)?
    var tapHandlers: [() -> Void] = []
  }

  final class ParentView {
    let child = Button()
    var taps = 0
    func tapped() { taps += 1 }
  }

  final class Service {
    var completion: (() -> Void)?
    func getData(_ completion: @escaping () -> Void) { self.completion = completion }
  }

  final class Client {
    let service = Service()
    var pending: [() -> Void] = []
    var handlers: [String: () -> Void] = [:]
    var callback: (() -> Void)?
    var pair: (first: () -> Void, second: () -> Void)?
    func secondAction() {}
  }

  /// The muyexi.im "Implicit retain cycle in lazy var" shape.
  final class API {
    var status: String?
    var failureHandler: (() -> Void)?
  }

  final class APIScreen {
    let leaks: Bool
    init(leaks: Bool) { self.leaks = leaks }
    lazy var api: API = {
      let api = API()
      if leaks {
        api.failureHandler = { _ = api.status }
      } else {
        api.failureHandler = { [weak api] in _ = api?.status }
      }
      return api
    }()
  }

  /// A publisher written by hand, as Combine's `PassthroughSubject` and `sink` behave.
  final class Subject {
    var subscribers: [(Int) -> Void] = []
    func sink(_ receive: @escaping (Int) -> Void) -> Cancellable {
      subscribers.append(receive)
      return Cancellable { [weak self] in self?.subscribers.removeAll() }
    }
  }

  final class Cancellable {
    let cancel: () -> Void
    init(_ cancel: @escaping () -> Void) { self.cancel = cancel }
  }

  final class SearchModel {
    let query = Subject()
    var cancellables: [Cancellable] = []
    var results = 0
  }

  /// swift-leak-check's RxSwift shape: a subscription kept in a dispose bag.
  final class DisposeBag {
    var disposables: [Cancellable] = []
  }

  final class RxScreen {
    let button = Button()
    let disposeBag = DisposeBag()
    func doSomething() {}
  }

  /// FBRetainCycleDetector's KVO case: an observation object holding its change handler.
  final class Observation {
    let changeHandler: (AnyObject) -> Void
    init(_ changeHandler: @escaping (AnyObject) -> Void) { self.changeHandler = changeHandler }
  }

  final class Observed: @unchecked Sendable {
    // @unchecked Sendable: Foundation's timer and observer blocks are `@Sendable`; here no timer is
    // scheduled and nothing is posted, so no block that captures an `Observed` ever runs.
    var observation: Observation?
    var token: (any NSObjectProtocol)?
    var timer: Timer?
    var source: (any DispatchSourceTimer)?
    var workItem: DispatchWorkItem?
    var userInfo: [AnyHashable: Any] = [:]
    var state: LoadState = .idle
    var result: Result<() -> Void, any Error>?
    var builder: Builder?
  }

  enum LoadState {
    case idle
    case loading(onDone: () -> Void)
  }

  /// swift-leak-check's `Leak4`: a builder keeping the dependencies tuple it was given.
  final class Builder {
    let dependencies: (name: String, factory: () -> Void)
    init(dependencies: (name: String, factory: () -> Void)) { self.dependencies = dependencies }
  }

  /// An object that keeps the task it starts (the Swift Concurrency articles' `Task` in a property).
  final class TaskOwner: @unchecked Sendable {
    // @unchecked Sendable: the test sets `task` once on its own thread; the task only holds the object.
    var task: Task<Void, Never>?
  }
}
