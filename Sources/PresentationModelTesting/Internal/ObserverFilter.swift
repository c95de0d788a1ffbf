import Foundation
import PresentationModel

/// Which registrations `expectNoObservers(in:)`
/// counts, and how it words a failure.
enum ObserverFilter {
  /// Polls `leftovers` until it is empty or `timeout` passes, and reports what is left at
  /// `callSite`. Runs on the caller's actor, so `leftovers` may read a main-actor center.
  static func expectNone<Leftover>(
    _ leftovers: () -> [Leftover], info: (Leftover) -> RegistrationInfo, describe: (Leftover) -> String,
    notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?, timeout: Duration,
    at callSite: CallSite, isolation: isolated (any Actor)? = #isolation
  ) async -> [RegistrationInfo] {
    let start = ContinuousClock.now
    await Deadline.poll(timeout: timeout) { leftovers().isEmpty }
    return report(
      leftovers(), info: info, describe: describe, notificationType: notificationType, ownerType: ownerType,
      waited: start.duration(to: .now), at: callSite)
  }

  /// The blocking form of ``expectNone(_:info:describe:notificationType:ownerType:timeout:at:isolation:)``.
  static func expectNoneBlocking<Leftover>(
    _ leftovers: () -> [Leftover], info: (Leftover) -> RegistrationInfo, describe: (Leftover) -> String,
    notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?, timeout: Duration,
    at callSite: CallSite
  ) -> [RegistrationInfo] {
    let start = ContinuousClock.now
    Deadline.pollBlocking(timeout: timeout) { leftovers().isEmpty }
    return report(
      leftovers(), info: info, describe: describe, notificationType: notificationType, ownerType: ownerType,
      waited: start.duration(to: .now), at: callSite)
  }

  /// Fails at `callSite` listing `remaining`, if any; returns their infos.
  private static func report<Leftover>(
    _ remaining: [Leftover], info: (Leftover) -> RegistrationInfo, describe: (Leftover) -> String,
    notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?, waited: Duration, at callSite: CallSite
  ) -> [RegistrationInfo] {
    if !remaining.isEmpty {
      let message = failureMessage(
        remaining.map(describe), notificationType: notificationType, ownerType: ownerType, waited: waited)
      FailureReporter.fail(message, at: callSite)
    }
    return remaining.map(info)
  }

  static func matches(
    _ registration: RegistrationInfo, notificationType: (any Any.Type)?,
    ownerType: (any AnyObject.Type)?
  ) -> Bool {
    if let notificationType, ObjectIdentifier(registration.notificationType) != ObjectIdentifier(notificationType) {
      return false
    }
    if let ownerType {
      guard let registeredOwner = registration.ownerType else { return false }
      return isSame(registeredOwner, orSubclassOf: ownerType)
    }
    return true
  }

  private static func isSame<Base: AnyObject>(_ candidate: any AnyObject.Type, orSubclassOf base: Base.Type) -> Bool {
    candidate is Base.Type
  }

  /// A header, then each distinct line once, in first-seen order, with a count for repeats.
  static func failureMessage(
    _ descriptions: [String], notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?,
    waited: Duration
  ) -> String {
    var scope: [String] = []
    if let notificationType { scope.append("of \(String(describing: notificationType))") }
    if let ownerType { scope.append("owned by \(String(describing: ownerType))") }
    let expected = scope.isEmpty ? "expected none" : "expected none " + scope.joined(separator: " ")
    let noun = descriptions.count == 1 ? "observer" : "observers"
    let header =
      "\(descriptions.count) \(noun) still registered (\(expected)) after \(waited.roundedSeconds) s:"
    var lines: [String] = []
    var counts: [String: Int] = [:]
    for line in descriptions {
      if counts[line] == nil { lines.append(line) }
      counts[line, default: 0] += 1
    }
    let items = lines.map { line in
      let count = counts[line] ?? 1
      return count == 1 ? "- \(line)" : "- \(line) (×\(count))"
    }
    return ([header] + items).joined(separator: "\n")
  }

  /// The registration's description, with its owner told apart from others of its type: by the
  /// owner's `description` when its type has one, by a short identity otherwise.
  static func describe(_ leftover: RegistrationSnapshot) -> String {
    let text = leftover.info.description
    guard let owner = leftover.owner, let ownerType = leftover.info.ownerType else { return text }
    let typeName = String(describing: ownerType)
    let identity: String
    if let described = owner as? any CustomStringConvertible {
      identity = "\"\(described.description)\""
    } else {
      let address = UInt(bitPattern: Unmanaged.passUnretained(owner).toOpaque())
      identity = "#" + String(String(address, radix: 16).suffix(6))
    }
    let marker = "observed by \(typeName) at "
    guard let range = text.range(of: marker) else { return text }
    return text.replacingCharacters(in: range, with: "observed by \(typeName) \(identity) at ")
  }
}
