import PresentationModel

/// The notifications a ``ModelProgram`` posts: two types, so that per-type bookkeeping is covered.
protocol ModelNote: TypedNotification {
  static var kind: ModelProgram.NoteKind { get }
  var value: Int { get }
  init(value: Int)
}

struct ModelPing: ModelNote {
  static let kind = ModelProgram.NoteKind.ping
  let value: Int
}

struct ModelPong: ModelNote {
  static let kind = ModelProgram.NoteKind.pong
  let value: Int
}

/// An owner for owner-bound observers in a model program.
final class ModelOwner: Sendable {}

/// A sender for sender-filtered observers in a model program.
final class ModelSender: Sendable {}

/// Runs a ``ModelProgram`` against a real ``TypedNotificationCenter`` and records the same events
/// as ``ReferenceCenter``.
//
// @unchecked Sendable: handlers must be `@Sendable`, but a runner is only ever used on the one
// thread that runs the program, and the center calls handlers synchronously on that thread.
final class CenterRunner: @unchecked Sendable {
  private var center: TypedNotificationCenter? = TypedNotificationCenter()
  private let senders = [ModelSender(), ModelSender()]
  private var tokens: [Int: ObserverToken] = [:]
  private var owners: [Int: ModelOwner] = [:]
  private var observersMade = 0
  private var depth = 0
  private(set) var events: [ModelProgram.Event] = []
  /// Problems found besides the events: a center that keeps delivering without end, or what a
  /// center outlived by its tokens and owners leaves behind.
  private(set) var problems: [String] = []
  /// Programs are bounded (depth, length); far more handler calls than any of them can make means
  /// the center keeps delivering, so the run stops calling reactions and reports it.
  static let deliveryLimit = 20_000
  private var deliveryCount = 0

  static func run(_ program: ModelProgram) -> CenterRunner {
    let runner = CenterRunner()
    for operation in program.operations {
      runner.perform(operation)
      runner.recordState()
    }
    runner.finish()
    return runner
  }

  private func recordState() {
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
    defer { depth -= 1 }
    if let sender {
      center.post(note, from: senders[sender])
    } else {
      center.post(note)
    }
  }

  private func observe<N: ModelNote>(
    _ type: N.Type, style: ModelProgram.Style, sender: Int?, reactions: [ModelProgram.Operation]
  ) {
    guard let center else { return }
    let id = observersMade
    observersMade += 1
    let filter = sender.map { senders[$0] }
    let handler: @Sendable (N) -> Void = { [weak self] note in self?.delivered(note, to: id, reactions: reactions) }
    let ownedHandler: @Sendable (ModelOwner, N) -> Void = { _, note in handler(note) }
    switch style {
    case .token:
      tokens[id] = center.observe(N.self, from: filter, handler)
    case .onceToken:
      tokens[id] = center.observeOnce(N.self, from: filter, handler)
    case .owner:
      let owner = ModelOwner()
      owners[id] = owner
      tokens[id] = center.observe(N.self, owner: owner, from: filter, ownedHandler)
    case .onceOwner:
      let owner = ModelOwner()
      owners[id] = owner
      tokens[id] = center.observeOnce(N.self, owner: owner, from: filter, ownedHandler)
    }
  }

  private func delivered<N: ModelNote>(_ note: N, to id: Int, reactions: [ModelProgram.Operation]) {
    deliveryCount += 1
    guard deliveryCount <= Self.deliveryLimit else {
      if deliveryCount == Self.deliveryLimit + 1 {
        problems.append("more than \(Self.deliveryLimit) handler calls: the center keeps delivering")
      }
      return
    }
    events.append(.delivered(observer: id, N.kind, value: note.value, depth: depth))
    for reaction in reactions { perform(reaction) }
  }

  /// Lets the center go while tokens and owners are still held, then releases them: the center
  /// must deallocate at once, every token must turn inactive, and cancelling must be harmless.
  private func finish() {
    weak let weakCenter = center
    center = nil
    if weakCenter != nil { problems.append("the center outlived its last reference") }
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
