import Foundation
import PresentationModel

// Everything in this file is nonisolated on purpose. A closure formed in `@MainActor` code and
// called through a nonisolated function type carries a run-time isolation check; forming the
// floor's closures and our handlers here keeps that check out of the figures.

/// The payload every contender delivers: one integer.
struct Tick: TypedNotification {
  let value: Int
}

/// Foundation's typed counterpart of `Tick`.
struct TickMessage: NotificationCenter.MainActorMessage {
  typealias Subject = TickSubject
  let value: Int
}

/// The subject type Foundation's typed API requires; never instantiated.
final class TickSubject {}

/// The name of the classic Foundation notification; its payload travels in `userInfo["value"]`.
let classicTickName = Notification.Name("PresentationBench.Tick")

/// Where every handler adds the value it receives: one add through a raw pointer, no class
/// property and so no exclusivity check.
//
// @unchecked Sendable: the benchmark posts from one thread only, so the pointee is never written
// by two threads at once.
struct Sink: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<Int>

  static func make() -> Sink {
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return Sink(pointer: pointer)
  }

  /// Reads and clears the sum, so each batch can be checked.
  func take() -> Int {
    defer { pointer.pointee = 0 }
    return pointer.pointee
  }
}

/// An owner for owner-bound observers.
final class TickOwner: Sendable {
  let sink: Sink
  init(sink: Sink) { self.sink = sink }
}

/// The floor: closures held in an array, called in a loop.
typealias FloorHandlers = ContiguousArray<@Sendable (Tick) -> Void>

enum Workloads {
  static func makeFloor(observers: Int, sink: Sink) -> FloorHandlers {
    var handlers = FloorHandlers()
    for _ in 0..<observers {
      handlers.append { tick in sink.pointer.pointee &+= tick.value }
    }
    return handlers
  }

  static func observeWithToken(_ center: TypedNotificationCenter, sink: Sink) -> ObserverToken {
    center.observe(Tick.self) { tick in sink.pointer.pointee &+= tick.value }
  }

  static func observeWithTokens(_ center: TypedNotificationCenter, observers: Int, sink: Sink) -> [ObserverToken] {
    (0..<observers).map { _ in observeWithToken(center, sink: sink) }
  }

  static func observe(_ center: TypedNotificationCenter, owner: TickOwner) {
    center.observe(Tick.self, owner: owner) { owner, tick in owner.sink.pointer.pointee &+= tick.value }
  }

  static func observeWithOwners(_ center: TypedNotificationCenter, observers: Int, sink: Sink) -> [TickOwner] {
    (0..<observers).map { _ in
      let owner = TickOwner(sink: sink)
      observe(center, owner: owner)
      return owner
    }
  }

  static func observeClassic(_ center: NotificationCenter, sink: Sink) -> any NSObjectProtocol {
    center.addObserver(forName: classicTickName, object: nil, queue: nil) { notification in
      sink.pointer.pointee &+= (notification.userInfo?["value"] as? Int) ?? 0
    }
  }

  static func observeClassic(_ center: NotificationCenter, observers: Int, sink: Sink) -> [any NSObjectProtocol] {
    (0..<observers).map { _ in observeClassic(center, sink: sink) }
  }

  @inline(never)
  static func postFloor(_ handlers: FloorHandlers, iterations: Int) {
    for value in 0..<iterations {
      let tick = Tick(value: value)
      for handler in handlers { handler(tick) }
    }
  }

  @inline(never)
  static func postOurs(_ center: TypedNotificationCenter, iterations: Int) {
    for value in 0..<iterations {
      center.post(Tick(value: value))
    }
  }

  @inline(never)
  static func postClassic(_ center: NotificationCenter, iterations: Int) {
    for value in 0..<iterations {
      center.post(name: classicTickName, object: nil, userInfo: ["value": value])
    }
  }
}

/// Foundation's typed API is main-actor bound; its handler is what it must be, `@MainActor`.
@MainActor
enum MainActorWorkloads {
  static func observeTyped(_ center: NotificationCenter, sink: Sink) -> NotificationCenter.ObservationToken {
    center.addObserver(for: TickMessage.self) { message in sink.pointer.pointee &+= message.value }
  }

  static func observeTyped(_ center: NotificationCenter, observers: Int, sink: Sink)
    -> [NotificationCenter.ObservationToken]
  {
    (0..<observers).map { _ in observeTyped(center, sink: sink) }
  }

  static func observeOnMainActor(_ center: TypedNotificationCenter, sink: Sink) -> ObserverToken {
    center.observeOnMainActor(Tick.self) { tick in sink.pointer.pointee &+= tick.value }
  }

  static func observeOnMainActor(_ center: TypedNotificationCenter, observers: Int, sink: Sink) -> [ObserverToken] {
    (0..<observers).map { _ in observeOnMainActor(center, sink: sink) }
  }

  @inline(never)
  static func observeTypedThenRemove(_ center: NotificationCenter, iterations: Int, sink: Sink) {
    for _ in 0..<iterations {
      let token = observeTyped(center, sink: sink)
      center.removeObserver(token)
    }
  }

  @inline(never)
  static func observeOnMainActorThenCancel(_ center: TypedNotificationCenter, iterations: Int, sink: Sink) {
    for _ in 0..<iterations {
      observeOnMainActor(center, sink: sink).cancel()
    }
  }

  @inline(never)
  static func postTyped(_ center: NotificationCenter, iterations: Int) {
    for value in 0..<iterations {
      center.post(TickMessage(value: value))
    }
  }
}

extension Workloads {
  @inline(never)
  static func observeThenCancel(_ center: TypedNotificationCenter, iterations: Int, sink: Sink) {
    for _ in 0..<iterations {
      let token = center.observe(Tick.self) { tick in sink.pointer.pointee &+= tick.value }
      token.cancel()
    }
  }

  @inline(never)
  static func observeThenCancel(_ center: TypedNotificationCenter, owner: TickOwner, iterations: Int) {
    for _ in 0..<iterations {
      let token = center.observe(Tick.self, owner: owner) { owner, tick in owner.sink.pointer.pointee &+= tick.value }
      token.cancel()
    }
  }

  @inline(never)
  static func observeClassicThenRemove(_ center: NotificationCenter, iterations: Int, sink: Sink) {
    for _ in 0..<iterations {
      let token = observeClassic(center, sink: sink)
      center.removeObserver(token)
    }
  }

  static func observeFloor(_ registry: FloorRegistry, sink: Sink) -> FloorRegistry.Token {
    registry.observe { tick in sink.pointer.pointee &+= tick.value }
  }

  @inline(never)
  static func observeFloorThenCancel(_ registry: FloorRegistry, iterations: Int, sink: Sink) {
    for _ in 0..<iterations {
      observeFloor(registry, sink: sink).cancel()
    }
  }

  @inline(never)
  static func cancelAll(_ tokens: [ObserverToken]) {
    for token in tokens { token.cancel() }
  }
}

/// The floor for registering: closures in an array, each registration a token object that removes
/// its closure (found by identifier, from the end) when cancelled. Two allocations per
/// registration: the closure's context and the token.
final class FloorRegistry {
  final class Token {
    private let registry: FloorRegistry
    private let id: Int

    fileprivate init(registry: FloorRegistry, id: Int) {
      self.registry = registry
      self.id = id
    }

    func cancel() { registry.remove(id) }
  }

  private var handlers: ContiguousArray<(id: Int, handler: @Sendable (Tick) -> Void)> = []
  private var nextID = 0

  func observe(_ handler: @escaping @Sendable (Tick) -> Void) -> Token {
    nextID += 1
    handlers.append((nextID, handler))
    return Token(registry: self, id: nextID)
  }

  fileprivate func remove(_ id: Int) {
    if let index = handlers.lastIndex(where: { $0.id == id }) { handlers.remove(at: index) }
  }

  func post(_ tick: Tick) {
    for entry in handlers { entry.handler(tick) }
  }
}
