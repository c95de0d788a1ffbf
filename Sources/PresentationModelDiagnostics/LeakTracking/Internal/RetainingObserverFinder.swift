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
  /// notification type and `observe` call: among the registrations recorded in `log` (a test's),
  /// or every live center's when there is none.
  ///
  /// Two passes: first every handler's own captures (closure contexts, boxes, values: cheap and
  /// without reading any object's stored properties), then, for objects still unexplained, the
  /// captured objects' stored properties too, a bounded number of values per handler.
  static func observers(
    holding objects: [AnyObject], recordedIn log: LeakScopeLog?
  ) -> [ObjectIdentifier: [RetainingObserver]] {
    guard CaptureScanner.isAvailable, !objects.isEmpty else { return [:] }
    return LiveRegistries.withRegistrationSnapshots(of: log) { snapshots in
      var found = observers(holding: objects, among: snapshots)
      for (object, observers) in found where observers.count > 1 {
        found[object] = inListingOrder(observers)
      }
      return found
    }
  }

  /// The two passes over `snapshots`.
  private static func observers(
    holding objects: [AnyObject], among snapshots: [RegistrationSnapshot]
  ) -> [ObjectIdentifier: [RetainingObserver]] {
    let targets = Set(objects.map(ObjectIdentifier.init))
    var found = scan(snapshots, for: targets, holding: objects, followObjects: false)
    let unexplained = targets.subtracting(found.keys)
    if !unexplained.isEmpty, !snapshots.isEmpty {
      let more = scan(snapshots, for: unexplained, holding: objects, followObjects: true)
      found.merge(more) { $0 + $1 }
    }
    return found
  }

  /// One pass: the handlers of `snapshots` scanned for `targets`, each up to `visitsPerHandler`
  /// values and all of them up to `visitsPerPass`.
  ///
  /// Which handlers the pass bound leaves unread depends on their order, so that a report is the
  /// same in every run: the handlers are scanned in the order the centers list them (cheap), and
  /// if so many values were visited that the bound could have cut a walk short in some order, the
  /// pass is made again in an order stable across runs (sorting 10,000 registrations by type name
  /// and `observe` call costs a report a fifth of its time; few reports need it).
  private static func scan(
    _ snapshots: [RegistrationSnapshot], for targets: Set<ObjectIdentifier>, holding objects: [AnyObject],
    followObjects: Bool
  ) -> [ObjectIdentifier: [RetainingObserver]] {
    func pass(_ snapshots: [RegistrationSnapshot]) -> (found: [ObjectIdentifier: [RetainingObserver]], visits: Int) {
      var found: [ObjectIdentifier: [RetainingObserver]] = [:]
      var session = CaptureScanner.Session(targets: targets, followObjects: followObjects)
      var budget = visitsPerPass
      for snapshot in snapshots where budget > 0 {
        let result = session.scan(snapshot.handler, maximumVisits: min(visitsPerHandler, budget))
        budget -= result.visits
        if result.paths.isEmpty { continue }  // The common case, and the cheap way out of it.
        for object in objects {
          let identity = ObjectIdentifier(object)
          guard let path = result.paths[identity] else { continue }
          found[identity, default: []].append(
            RetainingObserver(
              registration: snapshot.info, capture: CaptureScanner.describe(path),
              tokenPath: tokenPath(in: object, to: snapshot)))
        }
      }
      return (found, visitsPerPass - budget)
    }
    let first = pass(snapshots)
    // Below this, every walk had its full `visitsPerHandler`, whatever the order.
    guard first.visits > visitsPerPass - visitsPerHandler else { return first.found }
    return pass(inRegistrationOrder(snapshots)).found
  }

  /// `observers` by notification type name, then `observe` file and line.
  private static func inListingOrder(_ observers: [RetainingObserver]) -> [RetainingObserver] {
    observers.map { (key: (String(reflecting: $0.registration.notificationType), $0.registration.fileID), $0) }
      .sorted { left, right in
        left.key != right.key ? left.key < right.key : left.1.registration.line < right.1.registration.line
      }
      .map(\.1)
  }

  /// Stable across runs: notification type name, then `observe` file and line. Compared as ranks:
  /// each distinct type name and file is made and ordered once, and the 10,000 registrations of a
  /// large report are sorted by integers (comparing their strings took a tenth of its time).
  private static func inRegistrationOrder(_ snapshots: [RegistrationSnapshot]) -> [RegistrationSnapshot] {
    var typeNames: [ObjectIdentifier: String] = [:]
    var fileNames: [Int: String] = [:]
    for snapshot in snapshots {
      let type = ObjectIdentifier(snapshot.notificationType)
      if typeNames[type] == nil { typeNames[type] = String(reflecting: snapshot.notificationType) }
      if fileNames[snapshot.fileIDKey] == nil { fileNames[snapshot.fileIDKey] = snapshot.fileID }
    }
    let typeRanks = ranks(of: typeNames)
    let fileRanks = ranks(of: fileNames)
    struct Key {
      let type: Int
      let file: Int
      let line: Int
      func precedes(_ other: Key) -> Bool {
        if type != other.type { return type < other.type }
        if file != other.file { return file < other.file }
        return line < other.line
      }
    }
    let keys = snapshots.map { snapshot in
      Key(
        type: typeRanks[ObjectIdentifier(snapshot.notificationType)] ?? 0, file: fileRanks[snapshot.fileIDKey] ?? 0,
        line: snapshot.line)
    }
    return snapshots.indices.sorted { keys[$0].precedes(keys[$1]) }.map { snapshots[$0] }
  }

  /// Each key's rank in the order of its name.
  private static func ranks<Key: Hashable>(of names: [Key: String]) -> [Key: Int] {
    let ordered = names.sorted { $0.value < $1.value }
    return Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element.key, $0.offset) })
  }

  /// The stored-property path by which `object` holds the token of `snapshot`'s registration.
  /// `nil` when `object` is that token itself: the handler reaching its own token is the cycle, and
  /// the path by which it does is the capture's.
  private static func tokenPath(in object: AnyObject, to snapshot: RegistrationSnapshot) -> String? {
    if object is ObserverToken { return nil }
    let tokens = TokenFinder.tokens(in: object)
    return tokens.first { $0.token.registrationIdentity == snapshot.identity }?.path
  }
}
