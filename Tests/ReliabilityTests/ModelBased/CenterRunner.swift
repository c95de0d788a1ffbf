import PresentationModel

/// Runs a ``ModelProgram`` against a real center of any ``CenterKind``, on the main actor, and
/// records the same events as ``ReferenceCenter``, and after each operation which handlers are
/// still held (each captures a ``HandlerCapture``).
@MainActor final class CenterRunner {
  private var center: (any CenterDriver)?
  private let senders = [ModelSender(), ModelSender()]
  private var tokens: [Int: ObserverToken] = [:]
  private var owners: [Int: ModelOwner] = [:]
  private var captures: [Int: WeakCapture] = [:]
  /// After each top-level operation, the observers whose handler (with its capture) is still held.
  private(set) var heldHandlers: [Set<Int>] = []
  /// For each post made, in the order they started, the observers it called, in call order.
  private(set) var callOrders: [[Int]] = []
  private var postsInProgress: [Int] = []
  private var observersMade = 0
  private var depth = 0
  private(set) var events: [ModelProgram.Event] = []
  /// Problems found besides the events: a center that keeps delivering without end, or what a
  /// center outlived by its tokens and owners leaves behind.
  private(set) var problems: [String] = []
  /// Programs are bounded (depth, length); far more handler calls than any of them can make means
  /// the center keeps delivering, so the run stops calling reactions and reports it.
  static let deliveryLimit = 20_000
  /// How a problem about handlers still held begins.
  static let heldHandlersProblem = "the handlers of"
  private var deliveryCount = 0

  private init(center: any CenterDriver) {
    self.center = center
  }

  static func run(_ program: ModelProgram, on kind: CenterKind) -> CenterRunner {
    let runner = CenterRunner(center: kind.makeDriver())
    for operation in program.operations {
      runner.perform(operation)
      runner.recordState()
    }
    runner.finish()
    return runner
  }

  private func recordState() {
    heldHandlers.append(Set(captures.filter { $0.value.capture != nil }.keys))
    guard let center else { return }
    events.append(
      .state(
        pingObservers: center.observerCount(for: ModelPing.self),
        pongObservers: center.observerCount(for: ModelPong.self),
        activeTokens: tokens.filter { $0.value.isActive }.keys.sorted()))
  }

  private func perform(_ operation: ModelProgram.Operation) {
    switch operation {
    case .observe(.ping, let style, let sender, let reactions):
      observe(ModelPing.self, style: style, sender: sender, reactions: reactions)
    case .observe(.pong, let style, let sender, let reactions):
      observe(ModelPong.self, style: style, sender: sender, reactions: reactions)
    case .post(.ping, let value, let sender):
      post(ModelPing(value: value), sender: sender)
    case .post(.pong, let value, let sender):
      post(ModelPong(value: value), sender: sender)
    case .cancel(let id):
      tokens[id]?.cancel()
    case .releaseToken(let id):
      tokens[id] = nil
    case .releaseOwner(let id):
      owners[id] = nil
    }
  }

  private func post<N: ModelNote>(_ note: N, sender: Int?) {
    guard let center, depth < ModelProgram.maximumDepth else { return }
    depth += 1
    postsInProgress.append(callOrders.count)
    callOrders.append([])
    defer {
      depth -= 1
      postsInProgress.removeLast()
    }
    center.post(note, sender: sender.map { senders[$0] })
  }

  private func observe<N: ModelNote>(
    _ type: N.Type, style: ModelProgram.Style, sender: Int?, reactions: [ModelProgram.Operation]
  ) {
    guard let center else { return }
    let id = observersMade
    observersMade += 1
    let filter = sender.map { senders[$0] }
    let capture = HandlerCapture()
    captures[id] = WeakCapture(capture: capture)
    let handler: @MainActor @Sendable (N) -> Void = { [weak self] note in
      capture.touch()
      self?.delivered(note, to: id, reactions: reactions)
    }
    let owner = style.hasOwner ? ModelOwner() : nil
    owners[id] = owner
    tokens[id] = center.observe(N.self, form: style, owner: owner, sender: filter, handler)
  }

  private func delivered<N: ModelNote>(_ note: N, to id: Int, reactions: [ModelProgram.Operation]) {
    deliveryCount += 1
    guard deliveryCount <= Self.deliveryLimit else {
      if deliveryCount == Self.deliveryLimit + 1 {
        problems.append("more than \(Self.deliveryLimit) handler calls: the center keeps delivering")
      }
      return
    }
    if let post = postsInProgress.last { callOrders[post].append(id) }
    let kind: ModelProgram.NoteKind = N.self == ModelPing.self ? .ping : .pong
    events.append(.delivered(observer: id, kind, value: note.value, depth: depth))
    for reaction in reactions { perform(reaction) }
  }

  /// Lets the center go while tokens and owners are still held, then releases them: the center
  /// must deallocate at once, every token must turn inactive, and cancelling must be harmless.
  private func finish() {
    weak let weakCenter = center?.center
    center = nil
    if weakCenter != nil { problems.append("the center outlived its last reference") }
    let held = captures.filter { $0.value.capture != nil }.keys.sorted()
    if !held.isEmpty { problems.append("\(Self.heldHandlersProblem) \(held) outlived their center") }
    for (id, token) in tokens where token.isActive {
      problems.append("token #\(id) is still active after its center deallocated")
    }
    for token in tokens.values { token.cancel() }
    weak let anyOwner = owners.values.first
    tokens = [:]
    owners = [:]
    if anyOwner != nil { problems.append("an owner outlived the program's references") }
  }
}

/// What each handler of a program captures, so the runner sees whether the center still holds it.
final class HandlerCapture: Sendable {
  func touch() {}
}

struct WeakCapture {
  weak var capture: HandlerCapture?
}
