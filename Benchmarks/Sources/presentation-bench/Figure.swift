/// What one figure measures: the key of a figure everywhere in the benchmark.
///
/// Its `description` is the figure's key in the text report and in `--json` (`post.ours.100`,
/// `observeThenCancel.ours`, `cancel.among.10000`), and `init?(_:)` reads that text back: the
/// valgrind children are told their workload this way.
enum Figure: Hashable, Sendable, CustomStringConvertible {
  /// One post to `observers` observers of `contender`.
  case post(Contender, observers: Int)
  /// One registration then its end, next to one standing observer of `contender`.
  case observeThenCancel(Contender)
  /// One cancel among `population` token registrations, ended in a seeded random order.
  case cancelAmong(population: Int)
  /// One main-actor post to `observers` observers of `contender` (`MainActorCases`).
  case mainActorPost(MainActorCases.Contender, observers: Int)
  /// One main-actor registration then its end, next to one standing observer.
  case mainActorObserveThenCancel
  /// One allocation (and release) of an instance of a class that counts, with every-object
  /// tracking in the given state (`EveryObjectCases`).
  case everyObjectAllocation(EveryObjectCases.State)
  /// One retain + release pair through the runtime's entry points (`EveryObjectCases`).
  case everyObjectRetainRelease(EveryObjectCases.State)

  var description: String {
    switch self {
    case .post(let contender, let observers): "post.\(contender.rawValue).\(observers)"
    case .observeThenCancel(let contender): "observeThenCancel.\(contender.rawValue)"
    case .cancelAmong(let population): "cancel.among.\(population)"
    case .mainActorPost(let contender, let observers): "mainActor.post.\(contender.rawValue).\(observers)"
    case .mainActorObserveThenCancel: "mainActor.observeThenCancel"
    case .everyObjectAllocation(let state): "everyObject.allocation.\(state.rawValue)"
    case .everyObjectRetainRelease(let state): "everyObject.retainRelease.\(state.rawValue)"
    }
  }

  init?(_ description: String) {
    let parts = description.split(separator: ".").map(String.init)
    switch parts.first {
    case "post":
      guard parts.count == 3, let contender = Contender(rawValue: parts[1]), let observers = Int(parts[2]) else {
        return nil
      }
      self = .post(contender, observers: observers)
    case "observeThenCancel":
      guard parts.count == 2, let contender = Contender(rawValue: parts[1]) else { return nil }
      self = .observeThenCancel(contender)
    case "cancel":
      guard parts.count == 3, parts[1] == "among", let population = Int(parts[2]) else { return nil }
      self = .cancelAmong(population: population)
    case "mainActor" where parts.count == 2 && parts[1] == "observeThenCancel":
      self = .mainActorObserveThenCancel
    case "mainActor":
      guard parts.count == 4, parts[1] == "post", let contender = MainActorCases.Contender(rawValue: parts[2]),
        let observers = Int(parts[3])
      else { return nil }
      self = .mainActorPost(contender, observers: observers)
    case "everyObject":
      guard parts.count == 3, let state = EveryObjectCases.State(rawValue: parts[2]) else { return nil }
      switch parts[1] {
      case "allocation": self = .everyObjectAllocation(state)
      case "retainRelease": self = .everyObjectRetainRelease(state)
      default: return nil
      }
    default:
      return nil
    }
  }
}

// In JSON a figure is its description, also as a dictionary key.
extension Figure: Codable, CodingKeyRepresentable {
  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  var codingKey: any CodingKey { Key(stringValue: description) }

  init?<T: CodingKey>(codingKey: T) {
    self.init(codingKey.stringValue)
  }

  init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let figure = Figure(text) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no figure \(text)"))
    }
    self = figure
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
