import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The shapes. Sources: the value kinds of The Swift Programming Language (Generics, Parameter
/// Packs, Opaque and Boxed Protocol Types, Concurrency, Memory Safety), issue 21's list, and
/// FBRetainCycleSwiftDetectorTests.swift (`testABITraversal_*`: weak-only, unowned-only and mixed
/// classes, structs with weak fields, inheritance chains).
extension ShapeCorpusTests {
  static let shapes: [Shape] =
    genericShapes + functionShapes + systemShapes + storageShapes + isolationShapes
    + layoutShapes

  // MARK: Generics, packs, existentials, metatypes, actors

  static let genericShapes: [Shape] = [
    Shape(name: "a generic struct holding the target", outcome: .found) { model, label in
      let box = GenericBox(value: model, count: 1)
      return { _ = box }
    },
    Shape(name: "nested generics holding the target in an array", outcome: .found) { model, label in
      let box = GenericBox(value: GenericBox(value: [model], count: 1), count: 2)
      return { _ = (box, 3) }
    },
    Shape(name: "a generic class instance holding the target", outcome: .found) { model, label in
      let reference = GenericRef(model)
      return { _ = (reference, label) }
    },
    Shape(name: "a generic enum's payload", outcome: .found) { model, label in
      let either = Either<Int, Model>.right(model)
      return { _ = (either, label) }
    },
    Shape(name: "a closure capturing a generic parameter", outcome: .unreadUnlessSpecialized) { model, label in
      capturingGeneric(model)
    },
    Shape(name: "the target captured before a generic parameter", outcome: .found) { model, label in
      capturingModelThenGeneric(model, [1, 2])
    },
    Shape(name: "a parameter pack holding the target", outcome: .unreadUnlessSpecialized) { model, label in
      capturingPack(model, 1, "two")
    },
    Shape(name: "a variadic generic struct holding the target", outcome: .unread) { model, label in
      let box = PackBox<Model, Int>(values: (model, 1))
      return { _ = (box, 2) }
    },
    Shape(name: "a class-bound composition existential", outcome: .found) { model, label in
      let composed: any Refreshing & ClassBound = Conforming(model: model)
      return { _ = (composed, label) }
    },
    Shape(name: "a superclass-constrained existential", outcome: .found) { model, label in
      let view: any BaseView & Refreshing = Conforming(model: model)
      return { _ = (view, label) }
    },
    Shape(name: "an any Error holding a struct", outcome: .unread) { model, label in
      let error: any Error = ModelError(model: model)
      return { _ = (error, label) }
    },
    Shape(name: "an any Error holding a class", outcome: .unread) { model, label in
      let error: any Error = ModelFailure(model: model)
      return { _ = (error, label) }
    },
    Shape(name: "an Any holding a tuple", outcome: .found) { model, label in
      let any: Any = (model, 1, "x")
      return { _ = (any, label) }
    },
    Shape(name: "an any Hashable", outcome: .found) { model, label in
      let hashable: any Hashable = Wrapper(model: model)
      return { _ = (hashable, label) }
    },
    Shape(name: "an array of existentials", outcome: .found) { model, label in
      let list: [any Refreshing] = [Conforming(model: nil), Wrapper(model: model)]
      return { _ = (list, label) }
    },
    Shape(name: "an optional existential", outcome: .found) { model, label in
      let maybe: (any Refreshing)? = Wrapper(model: model)
      return { _ = (maybe, label) }
    },
    Shape(name: "a protocol metatype and a class metatype", outcome: .found) { model, label in
      let protocolType: any Refreshing.Type = Wrapper.self
      let classType: AnyClass = Model.self
      return { _ = (protocolType, classType, model) }
    },
    Shape(name: "an existential metatype alone", outcome: .notHeld) { _, label in
      let type: Any.Type = Model.self
      return { _ = (type, label) }
    },
    Shape(name: "an actor's stored property", outcome: .found) { model, label in
      let store = Store(model: model)
      return { _ = (store, label) }
    },
    Shape(name: "a main-actor class whose customMirror traps", outcome: .found) { model, label in
      let screen = MainActorScreen(model: model)
      return { _ = (screen, label) }
    },
  ]

  // MARK: Functions, tasks, streams

  static let functionShapes: [Shape] = [
    Shape(name: "an async closure", outcome: .found) { model, label in
      let work: () async -> Void = { _ = model }
      return { _ = (work, label) }
    },
    Shape(name: "a throwing closure", outcome: .found) { model, label in
      let work: () throws -> Void = { _ = model }
      return { _ = (work, label) }
    },
    Shape(name: "an optional async throwing closure", outcome: .found) { model, label in
      let work: (() async throws -> Int)? = {
        _ = model
        return 1
      }
      return { _ = (work, label) }
    },
    Shape(name: "three nested closures", outcome: .found) { model, label in
      let inner = { _ = model }
      let middle = { inner() }
      let outer = { middle() }
      return { _ = (outer, label) }
    },
    Shape(name: "a closure returning a closure over a var", outcome: .found) { model, label in
      var current: Model? = model
      let make = { { current = current ?? model } }
      return { _ = (make, label) }
    },
    Shape(name: "a C function pointer in a struct", outcome: .found) { model, label in
      let box = GenericBox<@convention(c) () -> Void>(value: {}, count: 1)
      return { _ = (box, model) }
    },
    Shape(name: "a thin function in a tuple", outcome: .unread) { model, label in
      let thin: @convention(thin) () -> Void = {}
      let tuple = (thin, model)
      return { _ = tuple }
    },
    Shape(name: "a dictionary of closures", outcome: .found) { model, label in
      let handlers: [String: () -> Void] = ["a": {}, "b": { _ = model }]
      return { _ = (handlers, label) }
    },
    Shape(name: "a closure in an enum payload", outcome: .found) { model, label in
      let payload = MultiPayload.closure { _ = model }
      return { _ = (payload, label) }
    },
    Shape(name: "a Task whose result is the target", outcome: .unread) { model, label in
      let task = Task { model }
      return { _ = (task, label) }
    },
    Shape(name: "an AsyncStream next to the target", outcome: .found) { model, label in
      let (stream, continuation) = AsyncStream<Int>.makeStream()
      continuation.finish()
      return { _ = (model, stream) }
    },
    Shape(name: "an AsyncStream continuation after the target", outcome: .found) { model, label in
      let (_, continuation) = AsyncStream<Model>.makeStream()
      continuation.yield(model)
      return { _ = (model, continuation) }
    },
    Shape(name: "a key path and a reference-writable key path", outcome: .found) { model, label in
      let keyPath = \GenericBox<Model>.value
      let writable = \Node.model
      return { _ = (keyPath, writable, model) }
    },
  ]

  // MARK: C structs, SIMD, pointers, Dispatch and Foundation

  static let systemShapes: [Shape] = [
    Shape(name: "a Glibc timespec", outcome: .found) { model, label in
      let time = timespec(tv_sec: 1, tv_nsec: 2)
      return { _ = (time, model) }
    },
    Shape(name: "a Glibc stat struct", outcome: .found) { model, label in
      var info = stat()
      info.st_size = 42
      let copy = info
      return { _ = (copy, model) }
    },
    Shape(name: "a Glibc utsname (a struct of C char tuples)", outcome: .found) { model, label in
      let name = utsname()
      return { _ = (name, model) }
    },
    Shape(name: "SIMD vectors of three sizes", outcome: .found) { model, label in
      let vectors = (SIMD3<Double>(1, 2, 3), SIMD16<UInt8>(repeating: 7), SIMD64<Int8>(repeating: 1))
      return { _ = (vectors, model) }
    },
    Shape(name: "a raw pointer to the target", outcome: .notHeld) { model, label in
      nonisolated(unsafe) let pointer = Unmanaged.passUnretained(model).toOpaque()
      return { _ = (pointer, label) }
    },
    Shape(name: "an unretained Unmanaged reference", outcome: .notHeld) { model, label in
      let unmanaged = Unmanaged.passUnretained(model)
      return { _ = (unmanaged, label) }
    },
    Shape(name: "buffer pointers and an opaque pointer", outcome: .found) { model, label in
      let buffer = UnsafeBufferPointer<Int>(start: nil, count: 0)
      let raw = UnsafeMutableRawBufferPointer(start: nil, count: 0)
      let opaque = OpaquePointer(bitPattern: 0x10)
      return { _ = (buffer, raw, opaque, model) }
    },
    Shape(name: "a DispatchWorkItem, queue, group and semaphore", outcome: .found) { model, label in
      let item = DispatchWorkItem {}
      let queue = DispatchQueue(label: "shape")
      let group = DispatchGroup()
      let semaphore = DispatchSemaphore(value: 1)
      return { _ = (item, queue, group, semaphore, model) }
    },
    Shape(name: "Data, URL, Date and UUID", outcome: .found) { model, label in
      let values = (Data([1, 2, 3]), URL(fileURLWithPath: "/tmp"), Date(timeIntervalSince1970: 1), UUID())
      return { _ = (values, model) }
    },
    Shape(name: "an object holding an NSLock and the target", outcome: .found) { model, label in
      let lock = Locked(model: model)
      return { _ = (lock, label) }
    },
    Shape(name: "a Foundation Timer next to the target", outcome: .found) { model, label in
      let timer = Timer(timeInterval: 60, repeats: false) { _ in }
      return { _ = (timer, model) }
    },
    Shape(name: "an NSObject subclass chain holding the target at its root", outcome: .found) { model, label in
      let leaf = FoundationLeaf()
      leaf.base = model
      return { _ = (leaf, label) }
    },
    Shape(name: "a Notification whose object is the target", outcome: .found) { model, label in
      let notification = Notification(name: Notification.Name("shape"), object: model)
      return { _ = (notification, label) }
    },
    Shape(name: "an NSArray holding the target", outcome: .found) { model, label in
      let array = NSArray(array: [model])
      return { _ = (array, label) }
    },
  ]

  // MARK: Enums, collections, mirrors, ownership, lazy, wrappers, inheritance

  static let storageShapes: [Shape] = [
    Shape(name: "an indirect tree with the target deep in it", outcome: .found) { model, label in
      var tree = Tree.leaf(nil)
      for depth in 0..<20 { tree = .node(tree, depth == 10 ? .leaf(model) : .leaf(nil)) }
      let built = tree
      return { _ = (built, label) }
    },
    Shape(name: "a multi-payload enum holding the target", outcome: .found) { model, label in
      let values: [MultiPayload] = [.none, .small(1), .pair(2, "two"), .model(model, 1.5)]
      return { _ = (values, label) }
    },
    Shape(name: "a doubly optional target", outcome: .found) { model, label in
      let maybe: Model?? = .some(.some(model))
      return { _ = (maybe, label) }
    },
    Shape(name: "the target after 100,000 objects", outcome: .truncated) { model, label in
      let objects = (0..<100_000).map { _ in Node() } + [Node()]
      objects[objects.count - 1].model = model
      return { _ = (objects, label) }
    },
    Shape(name: "a set of 10,000 boxes and the target", outcome: .found) { model, label in
      let boxes = Set((0..<10_000).map { _ in Wrapper(model: Model()) })
      return { _ = (model, boxes) }
    },
    Shape(name: "strings, substrings, characters and slices", outcome: .found) { model, label in
      let text = "shape of text"
      let values = (text.dropFirst(2), Character("x"), [1, 2, 3][1...], ContiguousArray([model]))
      return { _ = (values, label) }
    },
    Shape(name: "a 10,000-cell indirect list with the target at its end", outcome: .truncated) { model, label in
      var list = List.held(model, .end)
      for index in 0..<10_000 { list = .cons(index, list) }
      let built = list
      return { _ = (built, label) }
    },
    // The value is the object itself, so that the test can break the cycle when it is done.
    Shape(
      name: "an object cycle holding the target", outcome: .found, release: { ($0 as? Node)?.next = nil },
      make: { model, _ in
        let a = Node()
        let b = Node()
        a.next = b
        b.next = a
        b.model = model
        return a
      }),
    Shape(name: "an object whose customMirror traps", outcome: .found) { model, label in
      let trapping = TrappingObject(model: model)
      return { _ = (trapping, label) }
    },
    Shape(name: "an enum whose customMirror traps", outcome: .unread) { model, label in
      let trapping = TrappingEnum.holding(model)
      return { _ = (trapping, label) }
    },
    Shape(name: "a struct with a live weak field", outcome: .notHeld) { model, label in
      let field = WeakField(model: model)
      return { _ = (field, label) }
    },
    Shape(name: "a struct with a dead weak field", outcome: .notHeld) { _, label in
      var field = WeakField(model: nil)
      do {
        let gone = Model()
        field.model = gone
      }
      let copy = field
      return { _ = (copy, label) }
    },
    Shape(name: "a struct with a live unowned field", outcome: .notHeld) { model, label in
      let field = UnownedField(model: model)
      return { _ = (field, label) }
    },
    Shape(name: "an enum payload struct whose unowned field is dead", outcome: .notHeld) { _, label in
      let dead: Either<UnownedField, Int>
      do {
        let gone = Model()
        dead = .left(UnownedField(model: gone))
      }
      return { _ = (dead, label) }
    },
    Shape(name: "an object with live unowned and unowned(unsafe) fields", outcome: .notHeld) { model, label in
      let object = UnownedObject(model: model, unsafeModel: model)
      return { _ = (object, label) }
    },
    Shape(name: "an initialised lazy var", outcome: .found) { model, label in
      let holder = LazyHolder(source: Model())
      holder.model = model
      return { _ = (holder, label) }
    },
    Shape(name: "a lazy var never read", outcome: .notHeld) { model, label in
      let holder = LazyUntouched(source: model)
      return { _ = (holder, label) }
    },
    Shape(name: "a struct and a class property wrapper", outcome: .found) { model, label in
      let wrapped = Wrapped(model: Model(), other: model)
      return { _ = (wrapped, label) }
    },
    Shape(name: "a hand-written observable class's registrar", outcome: .found) { model, label in
      let observable = HandObservable()
      observable.registrar.observers[1] = { _ = model }
      return { _ = (observable, label) }
    },
    Shape(name: "a four-level class chain holding the target at each end", outcome: .found) { model, label in
      let leaf = Level4()
      leaf.first = model
      leaf.fourth = Model()
      return { _ = (leaf, label) }
    },
  ]

  // MARK: Isolation, opaque and parameterized types, capture lists, buffers

  static let isolationShapes: [Shape] = [
    Shape(name: "an @isolated(any) closure next to the target", outcome: .found) { model, label in
      let work: @isolated(any) @Sendable () -> Void = {}
      return { _ = (work, model, label) }
    },
    Shape(name: "the target in an @isolated(any) closure", outcome: .found) { model, label in
      let work: @isolated(any) @Sendable () -> Void = { _ = model }
      return { _ = (work, label) }
    },
    Shape(name: "the target in a @MainActor closure", outcome: .found) { model, label in
      let work: @MainActor () -> Void = { _ = model }
      return { _ = (work, label) }
    },
    Shape(name: "an opaque some-typed value holding the target", outcome: .found) { model, label in
      let opaque = makeOpaque(model)
      return { _ = (opaque, label) }
    },
    Shape(name: "a parameterized existential any Collection<Model>", outcome: .found) { model, label in
      let collection: any Collection<Model> = [model]
      return { _ = (collection, label) }
    },
    Shape(name: "a ManagedBuffer subclass holding the target in its header", outcome: .unread) { model, label in
      let buffer = ModelBuffer.create(minimumCapacity: 4) { _ in model }
      return { _ = (buffer, label) }
    },
    Shape(name: "AnyKeyPath and PartialKeyPath", outcome: .found) { model, label in
      let any: AnyKeyPath = \Node.next
      let partial: PartialKeyPath<Node> = \Node.model
      return { _ = (any, partial, model, label) }
    },
    Shape(name: "a Result holding the target", outcome: .found) { model, label in
      let result: Result<Model, any Error> = .success(model)
      return { _ = (result, label) }
    },
    Shape(name: "an ObjectIdentifier of the target", outcome: .notHeld) { model, label in
      let identity = ObjectIdentifier(model)
      return { _ = (identity, label) }
    },
    Shape(name: "weak, unowned and unowned(unsafe) captures", outcome: .notHeld) { model, label in
      { [weak model, unowned unowned = model, unowned(unsafe) unsafe = model] in _ = (model, unowned, unsafe, label) }
    },
    Shape(name: "a class with a weak let", outcome: .notHeld) { model, label in
      let holder = WeakLetHolder(model: model)
      return { _ = (holder, label) }
    },
  ]

  static func makeOpaque(_ model: Model) -> some Refreshing { Wrapper(model: model) }

  // MARK: Layouts: noncopyable fields, generic superclasses, boxed existentials

  static let layoutShapes: [Shape] = [
    Shape(name: "an object with Mutex and Atomic fields, the Mutex holding the target", outcome: .unread) {
      model, label in
      let holder = MutexHolder(model: model)
      return { _ = (holder, label) }
    },
    Shape(name: "an object holding a TypedNotificationCenter and the target", outcome: .found) { model, label in
      let holder = CenterHolder(model: model)
      return { _ = (holder, label) }
    },
    Shape(name: "a subclass of a generic class, the target in the parent's field", outcome: .found) {
      model, label in
      let child = GenericChild(model)
      return { _ = (child, label) }
    },
    Shape(name: "a large struct boxed in an existential", outcome: .found) { model, label in
      let boxed: any Refreshing = LargeRefreshing(model: model)
      return { _ = (boxed, label) }
    },
    Shape(name: "an Any holding a closure", outcome: .found) { model, label in
      let any: Any = { _ = model }
      return { _ = (any, label) }
    },
    Shape(name: "a struct of Foundation fields then the target", outcome: .found) { model, label in
      let fields = ResilientFields(model: model)
      return { _ = (fields, label) }
    },
    Shape(name: "a struct with a dead weak existential", outcome: .notHeld) { _, label in
      var holder = WeakExistential()
      do {
        let gone = Conforming(model: nil)
        holder.bound = gone
      }
      let copy = holder
      return { _ = (copy, label) }
    },
  ]
}
