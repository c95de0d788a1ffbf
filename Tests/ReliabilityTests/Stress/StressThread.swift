import PresentationModel
import PresentationTestSupport

/// The random program one stress thread runs against the shared center.
///
/// Each of `operations` steps is one of: post (45 %), observe with a token, an owner or once
/// (20 %), cancel any thread's cancellable observer (10 %), cancel one of its own (5 %), release one
/// of its own tokens or owners (12 %), start or stop an async-sequence consumer (8 %). On a center
/// without one-shots or sequences (the bridge), those steps observe by token or owner instead.
struct StressThread {
  let world: StressWorld
  let center: any RandomStressCenter
  let index: Int
  private var generator: SeededGenerator
  private var result = StressThreadResult()
  private var activeConsumer: StressConsumer?

  init(world: StressWorld, center: any RandomStressCenter, index: Int, seed: UInt64) {
    self.world = world
    self.center = center
    self.index = index
    self.generator = SeededGenerator(seed: seed &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
  }

  mutating func run(operations: Int) {
    for _ in 0..<operations {
      switch Int.random(in: 0..<100, using: &generator) {
      case 0..<45: post()
      case 45..<65: observe()
      case 65..<75: world.cancel(chosenBy: generator.next(), onThread: index)
      case 75..<80: cancelOwn()
      case 80..<92: releaseOwn()
      default: startOrStopConsumer()
      }
    }
    if activeConsumer != nil { stopConsumer(byTokenCancel: true) }
    world.results.record(result)
  }

  private mutating func post() {
    let ticket = world.clock.tick()
    center.postNote(StressPing(post: ticket, poster: index))
    result.posts.append(StressPost(ticket: ticket, endTicket: world.clock.tick(), poster: index))
  }

  private mutating func observe() {
    let kind: StressObserver.Kind =
      switch Int.random(in: 0..<100, using: &generator) {
      case 0..<35: .token
      case 35..<70: .owner
      case 70..<85: center.offersOneShots ? .onceToken : .token
      default: center.offersOneShots ? .onceOwner : .owner
      }
    let behavior: StressObserver.Behavior =
      switch Int.random(in: 0..<100, using: &generator) {
      case 0..<70: .record
      case 70..<85: .echo
      default: .cancelOther
      }
    let record = StressObserver(id: world.makeID(), kind: kind, behavior: behavior)
    world.observers.record(record)
    let world = self.world
    if kind.hasOwner {
      let owner = StressOwner(record: record, clock: world.clock)
      world.owners.record(WeakStressOwner(owner: owner))
      let token = center.observeNote(StressPing.self, once: kind.isOneShot, owner: owner) { owner, ping in
        world.handle(ping, by: record, owner: owner)
      }
      record.observed(at: world.clock.tick())
      world.addCancellable(record, token)
      result.slots.append(.owner(owner, token, record))
    } else {
      let token = center.observeNote(StressPing.self, once: kind.isOneShot) { ping in world.handle(ping, by: record) }
      record.observed(at: world.clock.tick())
      let shared = generator.chance(50)
      if shared { world.addCancellable(record, token) }
      result.slots.append(.token(token, record, shared: shared))
    }
  }

  private mutating func cancelOwn() {
    guard !result.slots.isEmpty else { return }
    let slot = result.slots[Int.random(in: 0..<result.slots.count, using: &generator)]
    let start = world.clock.tick()
    slot.token.cancel()
    slot.record.ended(StressEnd(thread: index, startTicket: start, endTicket: world.clock.tick()))
  }

  private mutating func releaseOwn() {
    guard !result.slots.isEmpty else { return }
    let position = Int.random(in: 0..<result.slots.count, using: &generator)
    let record = result.slots[position].record
    let endsObservation: Bool
    if case .token(_, _, shared: false) = result.slots[position] {
      endsObservation = true
    } else {
      endsObservation = false
    }
    let start = world.clock.tick()
    // The slot holds the only reference to an unshared token and to an owner: dropping it here runs
    // the token's or the owner's deinit (unless a delivery on another thread holds the owner).
    _ = result.slots.remove(at: position)
    let end = world.clock.tick()
    if endsObservation { record.ended(StressEnd(thread: index, startTicket: start, endTicket: end)) }
    if record.kind.hasOwner { record.ownerReleased(at: start) }
  }

  private mutating func startOrStopConsumer() {
    if activeConsumer != nil {
      stopConsumer(byTokenCancel: generator.chance(50))
      return
    }
    // Only the typed center has async sequences; elsewhere this step observes instead.
    guard let typed = center.typedCenter else { return observe() }
    let sequence = typed.notifications(of: StressPing.self, bufferingPolicy: .unbounded)
    let createEnd = world.clock.tick()
    let received = LockedLog<StressPing>()
    let task = Task.detached {
      for await ping in sequence { received.record(ping) }
    }
    activeConsumer = StressConsumer(
      createEndTicket: createEnd, received: received, task: task, token: sequence.token, stop: nil)
  }

  private mutating func stopConsumer(byTokenCancel: Bool) {
    guard var consumer = activeConsumer else { return }
    let start = world.clock.tick()
    if byTokenCancel { consumer.token.cancel() } else { consumer.task.cancel() }
    consumer.stop = .init(byTokenCancel: byTokenCancel, startTicket: start, endTicket: world.clock.tick())
    result.consumers.append(consumer)
    activeConsumer = nil
  }
}
