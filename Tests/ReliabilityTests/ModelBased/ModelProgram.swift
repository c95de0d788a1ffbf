import PresentationTestSupport

/// A small single-threaded program of center operations, generated from a seed, that runs against
/// both the real ``TypedNotificationCenter`` and the ``ReferenceCenter``.
///
/// Observers get ids in creation order (0, 1, 2, …, counting those made inside handlers), so the
/// same program names the same observers in both runs. Operations on an id that does not exist, or
/// whose token or owner was already released, do nothing in both.
struct ModelProgram: ShrinkableProgram {
  /// Which of the two notification types an operation is about.
  enum NoteKind: Sendable, Hashable {
    case ping
    case pong
  }

  /// How an observer is registered: one of ``ObserveForm``'s forms that the center offers.
  typealias Style = ObserveForm

  /// One operation; also what a handler does each time it is called (its reactions).
  indirect enum Operation: Sendable, Hashable, CustomStringConvertible {
    /// Registers an observer; `sender` (0 or 1) filters by one of two long-lived senders.
    case observe(NoteKind, Style, sender: Int?, reactions: [Operation])
    /// Posts, optionally from sender 0 or 1. Inside a handler only while posts are nested less than
    /// ``ModelProgram/maximumDepth`` deep.
    case post(NoteKind, value: Int, sender: Int?)
    case cancel(id: Int)
    case releaseToken(id: Int)
    case releaseOwner(id: Int)

    var description: String {
      switch self {
      case .observe(let kind, let style, let sender, let reactions):
        let from = sender.map { " from sender \($0)" } ?? ""
        let then = reactions.isEmpty ? "" : " reacting with [\(reactions.map(\.description).joined(separator: "; "))]"
        return "observe \(kind) by \(style)\(from)\(then)"
      case .post(let kind, let value, let sender):
        return "post \(kind)(\(value))" + (sender.map { " from sender \($0)" } ?? "")
      case .cancel(let id): return "cancel #\(id)"
      case .releaseToken(let id): return "release token #\(id)"
      case .releaseOwner(let id): return "release owner #\(id)"
      }
    }
  }

  /// What both runs record: each handler call, and after each top-level operation the observer
  /// counts and which held tokens are active.
  enum Event: Sendable, Hashable, CustomStringConvertible {
    case delivered(observer: Int, NoteKind, value: Int, depth: Int)
    case state(pingObservers: Int, pongObservers: Int, activeTokens: [Int])

    var description: String {
      switch self {
      case .delivered(let observer, let kind, let value, let depth):
        "#\(observer) got \(kind)(\(value)) at depth \(depth)"
      case .state(let pings, let pongs, let active):
        "counts ping \(pings), pong \(pongs); active tokens \(active)"
      }
    }
  }

  /// How deeply handlers may nest posts (a top-level post is depth 1).
  static let maximumDepth = 3

  var operations: [Operation]

  var description: String {
    operations.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
  }

  /// A random program of 4 to 16 operations, with every form of observing.
  static func random(seed: UInt64) -> ModelProgram {
    random(seed: seed, forms: ObserveForm.allCases)
  }

  /// A random program of 4 to 16 operations, observing with `forms` only (those a center offers).
  static func random(seed: UInt64, forms: [ObserveForm]) -> ModelProgram {
    var generator = SeededGenerator(seed: seed)
    var operations: [Operation] = []
    var observersMade = 0
    for step in 0..<Int.random(in: 4...16, using: &generator) {
      let target = Int.random(in: 0..<(observersMade + 2), using: &generator)
      switch Int.random(in: 0..<100, using: &generator) {
      case 0..<32:
        let reactionCount = generator.chance(50) ? 0 : Int.random(in: 1...3, using: &generator)
        let reactions = (0..<reactionCount).map { index in
          randomReaction(
            value: 100 * (step + 1) + index, observersMade: observersMade, forms: forms, using: &generator)
        }
        operations.append(
          .observe(
            randomKind(&generator), randomStyle(forms, &generator), sender: randomSender(&generator),
            reactions: reactions))
        observersMade += 1
      case 32..<68:
        operations.append(.post(randomKind(&generator), value: step, sender: randomSender(&generator)))
      case 68..<82: operations.append(.cancel(id: target))
      case 82..<91: operations.append(.releaseToken(id: target))
      default: operations.append(.releaseOwner(id: target))
      }
    }
    return ModelProgram(operations: operations)
  }

  private static func randomReaction(
    value: Int, observersMade: Int, forms: [ObserveForm], using generator: inout SeededGenerator
  ) -> Operation {
    let target = Int.random(in: 0..<(observersMade + 3), using: &generator)
    switch Int.random(in: 0..<100, using: &generator) {
    case 0..<35: return .post(randomKind(&generator), value: value, sender: randomSender(&generator))
    case 35..<60: return .observe(randomKind(&generator), randomStyle(forms, &generator), sender: nil, reactions: [])
    case 60..<85: return .cancel(id: target)
    case 85..<93: return .releaseOwner(id: target)
    default: return .releaseToken(id: target)
    }
  }

  private static func randomKind(_ generator: inout SeededGenerator) -> NoteKind {
    generator.chance(75) ? .ping : .pong
  }

  /// Owner-bound and token-bound forms about equally often, one-shots less often, as before the
  /// main-actor forms were added.
  private static func randomStyle(_ forms: [ObserveForm], _ generator: inout SeededGenerator) -> Style {
    let weights = forms.map { $0.isOneShot ? 1 : 2 }
    var pick = Int.random(in: 0..<weights.reduce(0, +), using: &generator)
    for (form, weight) in zip(forms, weights) {
      if pick < weight { return form }
      pick -= weight
    }
    return forms[0]
  }

  private static func randomSender(_ generator: inout SeededGenerator) -> Int? {
    generator.chance(80) ? nil : Int.random(in: 0...1, using: &generator)
  }

  /// Smaller programs that might still fail: each top-level operation removed, then each reaction.
  var shrinkCandidates: [ModelProgram] {
    var candidates: [ModelProgram] = []
    for index in operations.indices {
      var smaller = operations
      smaller.remove(at: index)
      candidates.append(ModelProgram(operations: smaller))
    }
    for index in operations.indices {
      guard case .observe(let kind, let style, let sender, let reactions) = operations[index] else { continue }
      for reaction in reactions.indices {
        var fewer = reactions
        fewer.remove(at: reaction)
        var smaller = operations
        smaller[index] = .observe(kind, style, sender: sender, reactions: fewer)
        candidates.append(ModelProgram(operations: smaller))
      }
    }
    return candidates
  }

}
