/// The documented semantics of ``TypedNotificationCenter`` for one thread, written as plainly as
/// possible: one array of observers in registration order, nothing ever removed, no locks.
///
/// - A post walks the observers of its type that existed when it started, in order, and calls each
///   one that is live at that moment; a one-shot is marked fired before its handler runs.
/// - Live means: not cancelled, not a fired one-shot, its token still held (token-bound) or its
///   owner still alive (owner-bound), and its sender filter matching.
/// - An owner is alive while the program holds it or while one of its handler calls is running
///   (the handler receives it strongly).
/// - A handler's reactions run inside the call, so nested posts finish before the outer continues.
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

    var isLive: Bool {
      guard !cancelled && !fired else { return false }
      return style.hasOwner ? ownerHeld || runningCalls > 0 : tokenHeld
    }
  }

  private var observers: [Observer] = []
  private var depth = 0
  private(set) var events: [ModelProgram.Event] = []

  static func run(_ program: ModelProgram) -> [ModelProgram.Event] {
    var center = ReferenceCenter()
    for operation in program.operations {
      center.perform(operation)
      center.recordState()
    }
    return center.events
  }

  private mutating func recordState() {
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
    let snapshot = observers.indices.filter { observers[$0].kind == kind }
    for index in snapshot {
      guard observers[index].isLive else { continue }
      if let filter = observers[index].sender, filter != sender { continue }
      if observers[index].style.isOneShot { observers[index].fired = true }
      observers[index].runningCalls += 1
      events.append(.delivered(observer: observers[index].id, kind, value: value, depth: depth))
      for reaction in observers[index].reactions { perform(reaction) }
      observers[index].runningCalls -= 1
    }
  }
}
