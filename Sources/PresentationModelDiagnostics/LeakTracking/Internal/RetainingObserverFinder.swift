internal import PresentationCaptureReading
import PresentationModel

/// Finds, in every live center and bridge, the registrations whose handlers keep given
/// objects alive, by scanning the handlers' closure captures.
enum RetainingObserverFinder {
  /// Values one handler's walk may visit.
  static let visitsPerHandler = 1_000
  /// Values one pass over every handler of the process may visit, so that a failing check in a
  /// process with many observers (other tests' included) stays short.
  static let visitsPerPass = 20_000

  /// For each of `objects` that some live handler reaches, those registrations, ordered by
  /// notification type and `observe` call.
  ///
  /// Two passes: first every handler's own captures (closure contexts, boxes, values: cheap and
  /// without reading any object's stored properties), then, for objects still unexplained, the
  /// captured objects' stored properties too, a bounded number of values per handler.
  static func observers(holding objects: [AnyObject]) -> [ObjectIdentifier: [RetainingObserver]] {
    guard CaptureScanner.isAvailable, !objects.isEmpty else { return [:] }
    return LiveRegistries.withRegistrationSnapshots { snapshots in
      snapshots = inRegistrationOrder(snapshots)
      return observers(holding: objects, among: &snapshots)
    }
  }

  /// The two passes over `snapshots`. Inside a Swift Testing test, the second pass reads captured
  /// objects only for the test's own registrations (other tests may be changing theirs right now),
  /// and the copies of the others' handlers are dropped before it: while this holds them, what
  /// they capture cannot go, and another test may be checking that it does.
  private static func observers(
    holding objects: [AnyObject], among snapshots: inout [RegistrationSnapshot]
  ) -> [ObjectIdentifier: [RetainingObserver]] {
    var found: [ObjectIdentifier: [RetainingObserver]] = [:]
    let ownRegistrations = RegistrationDiagnostics.log
    func scan(for targets: Set<ObjectIdentifier>, followObjects: Bool) {
      var budget = visitsPerPass
      for snapshot in snapshots where budget > 0 {
        let result = CaptureScanner.scan(
          snapshot.handler, for: targets, followObjects: followObjects,
          maximumVisits: min(visitsPerHandler, budget))
        budget -= result.visits
        for object in objects {
          let identity = ObjectIdentifier(object)
          guard let path = result.paths[identity] else { continue }
          found[identity, default: []].append(
            RetainingObserver(
              registration: snapshot.info, capture: CaptureScanner.describe(path),
              tokenPath: tokenPath(in: object, to: snapshot)))
        }
      }
    }
    scan(for: Set(objects.map(ObjectIdentifier.init)), followObjects: false)
    if let ownRegistrations { snapshots.removeAll { !ownRegistrations.contains($0.identity) } }
    let unexplained = Set(objects.map(ObjectIdentifier.init)).subtracting(found.keys)
    if !unexplained.isEmpty, !snapshots.isEmpty { scan(for: unexplained, followObjects: true) }
    return found
  }

  /// Stable across runs: notification type name, then `observe` line. Each type's name is made
  /// once, not once per comparison (10,000 registrations cost 140,000 comparisons).
  private static func inRegistrationOrder(_ snapshots: [RegistrationSnapshot]) -> [RegistrationSnapshot] {
    var names: [ObjectIdentifier: String] = [:]
    let keyed = snapshots.map { snapshot in
      let type = snapshot.info.notificationType
      let name =
        names[ObjectIdentifier(type)]
        ?? {
          let name = String(reflecting: type)
          names[ObjectIdentifier(type)] = name
          return name
        }()
      return (key: (name, snapshot.info.fileID, snapshot.info.line), snapshot: snapshot)
    }
    return keyed.sorted { $0.key < $1.key }.map(\.snapshot)
  }

  /// The stored-property path by which `object` holds the token of `snapshot`'s registration.
  private static func tokenPath(in object: AnyObject, to snapshot: RegistrationSnapshot) -> String? {
    let tokens = TokenFinder.tokens(in: object)
    return tokens.first { $0.token.registrationIdentity == snapshot.identity }?.path
  }
}
