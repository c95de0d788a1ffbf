import Foundation
import PresentationModel

/// The one wording of a survivor: an object still alive after it should have deallocated, or an
/// observer registration still live after a check expected none.
///
/// Every report and failure that names one words it here: ``LeakReport`` and its survivors, the
/// leak trait's and `XCTestCase.trackForLeaks(_:)`'s failures, and `expectNoObservers(in:)`'s.
package enum SurvivorWording {
  /// What a surviving object's line says when neither the stored-property walk nor the observer
  /// scan found what holds it.
  static let noHolderFound =
    "No tracked object holds it in a stored property and no observer's handler captures it: look for a closure "
    + "capturing it, a strong delegate, or an owner that was not tracked (on Linux, the heap scan found none it "
    + "can name)."

  /// Where a surviving object was tracked and what holds it: `(tracked at
  /// MyAppTests/CanvasTests.swift:18). Still held by Canvas.widgets[2]. Held by the handler of …`,
  /// or the ``noHolderFound`` hint in place of the holders.
  static func trackingAndHolders(of survivor: LeakReport.Survivor) -> String {
    var holders: [String] = []
    if !survivor.retainingPaths.isEmpty {
      holders.append("Still held by " + survivor.retainingPaths.joined(separator: ", ") + ".")
    }
    for observer in survivor.retainingObservers {
      holders.append("Held by \(observer).")
    }
    if holders.isEmpty { holders.append(noHolderFound) }
    return "(tracked at \(survivor.site)). " + holders.joined(separator: " ")
  }

  /// A survivor's line in a ``LeakReport``: `MyApp.Widget (tracked at …). Still held by ….`
  static func object(_ survivor: LeakReport.Survivor) -> String {
    "\(survivor.typeName) " + trackingAndHolders(of: survivor)
  }

  /// `2 of 5 tracked objects still alive after 1.0 s:`, then one line per survivor.
  static func objects(_ survivors: [LeakReport.Survivor], trackedCount: Int, waited: Duration) -> String {
    list(
      header: "\(survivors.count) of \(trackedCount) tracked objects still alive after \(waited.roundedSeconds) s:",
      items: survivors.map(object))
  }

  /// The failure for one object that outlived a test, at the line that tracked it: `Leaked
  /// MyApp.Widget: still alive 1.0 s after the test ended (tracked at …). Still held by ….`
  package static func leakFailure(_ survivor: LeakReport.Survivor, waited: Duration) -> String {
    "Leaked \(survivor.typeName): still alive \(waited.roundedSeconds) s after the test ended "
      + trackingAndHolders(of: survivor)
  }

  /// One live registration, as `expectNoObservers` lists it: its description, with its owner told
  /// apart from others of its type, by the owner's `description` when its type has one and by a
  /// short identity otherwise: `Saved observed by Listener #4a3b20 at …`.
  package static func observer(_ registration: RegistrationInfo, owner: AnyObject?) -> String {
    let text = registration.description
    guard let owner, let ownerType = registration.ownerType else { return text }
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

  /// `3 observers still registered (expected none of Saved) after 1.0 s:`, then one line per
  /// registration.
  package static func observers(
    _ descriptions: [String], notificationType: (any Any.Type)?, ownerType: (any AnyObject.Type)?,
    waited: Duration
  ) -> String {
    var scope: [String] = []
    if let notificationType { scope.append("of \(String(describing: notificationType))") }
    if let ownerType { scope.append("owned by \(String(describing: ownerType))") }
    let expected = (["expected none"] + scope).joined(separator: " ")
    let noun = descriptions.count == 1 ? "observer" : "observers"
    return list(
      header: "\(descriptions.count) \(noun) still registered (\(expected)) after \(waited.roundedSeconds) s:",
      items: descriptions)
  }

  /// A header, then each distinct item once, in first-seen order, with a count for repeats:
  /// `- item (×2)`.
  static func list(header: String, items: [String]) -> String {
    var distinct: [String] = []
    var counts: [String: Int] = [:]
    for item in items {
      if counts[item] == nil { distinct.append(item) }
      counts[item, default: 0] += 1
    }
    let lines = distinct.map { item in
      let count = counts[item] ?? 1
      return count == 1 ? "- \(item)" : "- \(item) (×\(count))"
    }
    return ([header] + lines).joined(separator: "\n")
  }
}
