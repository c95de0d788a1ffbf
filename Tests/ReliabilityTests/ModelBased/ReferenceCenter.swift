/// The documented semantics of the three centers for one thread (on the main actor, where every
/// form delivers synchronously), written as plainly as
/// possible: one array of observers in registration order, nothing ever removed, no locks.
///
/// - A post walks the observers of its type that existed when it started, in order, and calls each
///   one that is live at that moment; a one-shot is marked fired before its handler runs.
/// - Live means: not cancelled, not a fired one-shot, its token still held (token-bound) or its
///   owner still alive (owner-bound), and its sender filter matching.
/// - An owner is alive while the program holds it or while one of its handler calls is running
///   (the handler receives it strongly).
/// - A handler's reactions run inside the call, so nested posts finish before the outer continues.
/// - Ended means: cancelled, a fired one-shot, a token-bound observer whose token was released, or
///   an owner-bound one whose owner a post found dead (its sender filter matching). An ended
///   observer's handler, and what it captures, must have been released by the next top-level
///   operation; one whose owner died unnoticed may still be held.
struct ReferenceCenter {
  private struct Observer {
    let id: Int
    let kind: ModelProgram.NoteKind
    let style: ModelProgram.Style
    let sender: Int?
    let reactions: [ModelProgram.Operation]
    var cancelled = false
    var fired = false
    var tokenHeld = true
    var ownerHeld = true
    var runningCalls = 0
    var foundDead = false

    var isLive: Bool {
      guard !cancelled && !fired else { return false }
      return style.hasOwner ? ownerHeld || runningCalls > 0 : tokenHeld
    }

    var hasEnded: Bool { cancelled || fired || foundDead || (!style.hasOwner && !tokenHeld) }
  }

  private var observers: [Observer] = []
  private var depth = 0
  private(set) var events: [ModelProgram.Event] = []
  /// After each top-level operation, the observers whose handlers must have been released.
  private(set) var released: [Set<Int>] = []

  /// For each post, in the order they start, the order in which the real center called its
  /// observers, when the center does not promise registration order (the bridge: Foundation on
  /// Linux calls a name's observers in hash order). Which observers are called, and everything
  /// else, is still the model's; only their order is taken from the run.
  private var callOrders: [[Int]]?
  private var postsMade = 0

  /// Runs `program`; `callOrders` as in ``callOrders`` when the center's order is not
  /// registration order, `nil` otherwise.
  static func run(_ program: ModelProgram, callOrders: [[Int]]? = nil) -> ReferenceCenter {
    var center = ReferenceCenter()
    center.callOrders = callOrders
    for operation in program.operations {
      center.perform(operation)
      center.recordState()
    }
    return center
  }

  private mutating func recordState() {
    released.append(Set(observers.filter(\.hasEnded).map(\.id)))
    let active = observers.filter { $0.tokenHeld && $0.isLive }.map(\.id)
    events.append(
      .state(
        pingObservers: observers.filter { $0.kind == .ping && $0.isLive }.count,
        pongObservers: observers.filter { $0.kind == .pong && $0.isLive }.count,
        activeTokens: active))
  }

  private mutating func perform(_ operation: ModelProgram.Operation) {
    switch operation {
    case .observe(let kind, let style, let sender, let reactions):
      observers.append(Observer(id: observers.count, kind: kind, style: style, sender: sender, reactions: reactions))
    case .post(let kind, let value, let sender):
      post(kind, value: value, sender: sender)
    case .cancel(let id):
      // Cancelling needs the token.
      if observers.indices.contains(id) && observers[id].tokenHeld { observers[id].cancelled = true }
    case .releaseToken(let id):
      if observers.indices.contains(id) { observers[id].tokenHeld = false }
    case .releaseOwner(let id):
      if observers.indices.contains(id) { observers[id].ownerHeld = false }
    }
  }

  private mutating func post(_ kind: ModelProgram.NoteKind, value: Int, sender: Int?) {
    guard depth < ModelProgram.maximumDepth else { return }
    depth += 1
    defer { depth -= 1 }
    var snapshot = observers.indices.filter { observers[$0].kind == kind }
    if let callOrders {
      let order = postsMade < callOrders.count ? callOrders[postsMade] : []
      // Those the center called, in its order, first; then the others, in registration order.
      let ids = observers.map(\.id)
      let position = { (index: Int) in order.firstIndex(of: ids[index]) ?? order.count }
      snapshot = snapshot.enumerated().sorted { (position($0.element), $0.offset) < (position($1.element), $1.offset) }
        .map(\.element)
    }
    postsMade += 1
    for index in snapshot {
      let filterMatches = observers[index].sender.map { $0 == sender } ?? true
      if observers[index].style.hasOwner && filterMatches && !observers[index].isLive && !observers[index].hasEnded {
        observers[index].foundDead = true
      }
      guard observers[index].isLive else { continue }
      if !filterMatches { continue }
      if observers[index].style.isOneShot { observers[index].fired = true }
      observers[index].runningCalls += 1
      events.append(.delivered(observer: observers[index].id, kind, value: value, depth: depth))
      for reaction in observers[index].reactions { perform(reaction) }
      observers[index].runningCalls -= 1
    }
  }
}
