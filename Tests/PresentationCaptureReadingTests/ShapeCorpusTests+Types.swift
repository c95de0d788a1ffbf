import Dispatch
import Foundation
import PresentationModel
import Synchronization

/// The types the shapes are made of.
extension ShapeCorpusTests {
  final class Model: Sendable {}

  protocol Refreshing {}
  protocol ClassBound: AnyObject {}
  class BaseView {}
  final class Conforming: BaseView, Refreshing, ClassBound {
    let model: Model?
    init(model: Model?) { self.model = model }
  }

  struct Wrapper: Refreshing, Hashable {
    let model: Model
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.model === rhs.model }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(model)) }
  }

  // MARK: Generics and packs

  struct GenericBox<Value> {
    let value: Value
    let count: Int
  }

  final class GenericRef<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  enum Either<Left, Right> {
    case left(Left)
    case right(Right)
  }

  struct PackBox<each Value> {
    let values: (repeat each Value)
  }

  static func capturingGeneric<Value>(_ value: Value) -> () -> Void { { _ = value } }

  static func capturingModelThenGeneric<Value>(_ model: Model, _ value: Value) -> () -> Void {
    { _ = (model, value) }
  }

  static func capturingPack<each Value>(_ values: repeat each Value) -> () -> Void {
    { _ = (repeat each values) }
  }

  // MARK: Errors, actors, main-actor classes

  struct ModelError: Error {
    let model: Model
  }

  final class ModelFailure: Error {
    let model: Model
    init(model: Model) { self.model = model }
  }

  actor Store {
    let model: Model
    var count = 0
    init(model: Model) { self.model = model }
  }

  @MainActor final class MainActorScreen: CustomReflectable {
    let model: Model
    nonisolated init(model: Model) { self.model = model }
    /// As the outside testers' type did: this traps off the main actor, so the walk must not run it.
    nonisolated var customMirror: Mirror { MainActor.assumeIsolated { fatalError("the walk ran a customMirror") } }
  }

  // MARK: Trapping mirrors, weak and unowned fields

  final class TrappingObject: CustomReflectable {
    let model: Model
    init(model: Model) { self.model = model }
    var customMirror: Mirror { fatalError("the walk ran a customMirror") }
  }

  enum TrappingEnum: CustomReflectable {
    case holding(Model)
    var customMirror: Mirror { fatalError("the walk ran a customMirror") }
  }

  struct WeakField {
    weak var model: Model?
    var count = 1
  }

  struct UnownedField {
    unowned let model: Model
    var count = 1
  }

  final class UnownedObject {
    unowned let model: Model
    unowned(unsafe) let unsafeModel: Model
    init(model: Model, unsafeModel: Model) {
      self.model = model
      self.unsafeModel = unsafeModel
    }
  }

  // MARK: Lazy vars, property wrappers, observable classes

  final class LazyHolder {
    let source: Model
    init(source: Model) { self.source = source }
    lazy var model: Model = source
  }

  final class LazyOnly {
    lazy var model: Model? = nil
    let source: Model
    init(source: Model) { self.source = source }
  }

  final class LazyUntouched {
    weak var source: Model?
    init(source: Model) { self.source = source }
    lazy var model: Model? = source
  }

  @propertyWrapper struct Stored<Value> {
    var wrappedValue: Value
  }

  @propertyWrapper final class Referenced<Value> {
    var wrappedValue: Value
    init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
  }

  final class Wrapped {
    @Stored var model: Model
    @Referenced var other: Model?
    init(model: Model, other: Model?) {
      self.model = model
      self.other = other
    }
  }

  /// What `@Observable`'s macro writes, by hand: a registrar of change observers, and the value in
  /// an underscored stored property.
  final class Registrar {
    var observers: [Int: () -> Void] = [:]
  }

  final class HandObservable {
    private var _selection: Model?
    let registrar = Registrar()
    var selection: Model? {
      get { _selection }
      set {
        _selection = newValue
        for observer in registrar.observers.values { observer() }
      }
    }
  }

  // MARK: Inheritance

  class Level1 {
    var first: Model?
  }

  class Level2: Level1 {
    var second = 2
  }

  class Level3: Level2 {
    var third: [Int] = []
  }

  final class Level4: Level3 {
    var fourth: Model?
  }

  class FoundationBase: NSObject {
    var base: Model?
  }

  class FoundationMiddle: FoundationBase {
    var middle = "middle"
  }

  final class FoundationLeaf: FoundationMiddle {
    var leaf: Model?
  }

  /// Foundation's `NSLock` cannot be subclassed from Swift on Linux (its overridable members do
  /// not load), so the lock is a field.
  final class Locked {
    let lock = NSLock()
    let model: Model
    init(model: Model) { self.model = model }
  }

  // MARK: Enums, lists, cycles

  indirect enum Tree {
    case leaf(Model?)
    case node(Tree, Tree)
  }

  enum MultiPayload {
    case none
    case small(UInt8)
    case pair(Int, String)
    case model(Model, Double)
    case closure(() -> Void)
  }

  indirect enum List {
    case end
    case cons(Int, List)
    case held(Model, List)
  }

  final class Node {
    var next: Node?
    var model: Model?
  }

  // MARK: Buffers, weak lets

  final class ModelBuffer: ManagedBuffer<Model, Int> {}

  final class WeakLetHolder {
    weak let model: Model?
    init(model: Model) { self.model = model }
  }

  // MARK: Noncopyable fields, generic superclasses, boxed existentials

  /// A class with a noncopyable field: the walk must not copy it (its type has no copy).
  final class MutexHolder: Sendable {
    let state: Mutex<Model?>
    let count = Atomic<Int>(0)
    init(model: Model) { state = Mutex(model) }
  }

  final class CenterHolder {
    let center = TypedNotificationCenter()
    let model: Model
    init(model: Model) { self.model = model }
  }

  class GenericParent<Value> {
    let parentValue: Value
    init(_ value: Value) { parentValue = value }
  }

  final class GenericChild: GenericParent<Model> {
    let own = "own"
  }

  /// Five words: too big for an existential's inline buffer, so boxed out of line.
  struct LargeRefreshing: Refreshing {
    let a = 1
    let b = 2
    let c = 3
    let d = 4
    let model: Model
  }

  struct ResilientFields {
    let url = URL(fileURLWithPath: "/")
    let date = Date(timeIntervalSince1970: 0)
    let data = Data([1])
    let model: Model
  }

  struct WeakExistential {
    weak var bound: (any ClassBound)?
  }
}
