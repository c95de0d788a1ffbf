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

  /// Where a surviving object was tracked and what holds it, one holder a line: `(tracked at
  /// MyAppTests/CanvasTests.swift:18), held by:` then `- Canvas.widgets[2]`, `- the handler of …`;
  /// or the ``noHolderFound`` hint in place of the holders.
  static func trackingAndHolders(of survivor: LeakReport.Survivor, indent: String = "") -> String {
    "(tracked at \(survivor.site))"
      + holderLines(Holders(paths: survivor.retainingPaths, observers: survivor.retainingObservers), indent: indent)
  }

  /// A survivor's item in a ``LeakReport``: `MyApp.Widget (tracked at …), held by:`, its holders
  /// indented below it.
  static func object(_ survivor: LeakReport.Survivor) -> String {
    "\(survivor.typeName) " + trackingAndHolders(of: survivor, indent: "  ")
  }

  /// `2 of 5 tracked objects still alive after 1.0 s:`, then one line per survivor.
  static func objects(_ survivors: [LeakReport.Survivor], trackedCount: Int, waited: Duration) -> String {
    list(
      header: "\(survivors.count) of \(trackedCount) tracked objects still alive after \(waited.roundedSeconds) s:",
      items: survivors.map(object))
  }

  /// The failure for one object that outlived a test, at the line that tracked it: `Leaked
  /// MyApp.Widget: still alive 1.0 s after the test ended (tracked at …), held by:`, then one
  /// holder a line.
  package static func leakFailure(_ survivor: LeakReport.Survivor, waited: Duration) -> String {
    "Leaked \(survivor.typeName): still alive \(waited.roundedSeconds) s after the test ended "
      + trackingAndHolders(of: survivor)
  }

  /// The failure for a registration a test made and left live, at its `observe` line:
  /// `Observer still registered 1.0 s after the test ended: Saved observed by Listener at …, posting
  /// thread. Its owner, a Listener, is still alive, held by:`, then one holder a line.
  package static func leftoverObserver(_ observer: TestLeftovers.Observer, waited: Duration) -> String {
    "Observer still registered \(waited.roundedSeconds) s after the test ended: \(observer.registration). "
      + sentence(observer.reason) + holderLines(observer.holders)
  }

  /// The failure for a widget a test handed to a `PendingDelete` and that is not gone, at the
  /// `fadeOutAndDispose` call: `Widget not gone 1.0 s after the test ended: a MyApp.NodeWidget
  /// handed to PendingDelete at …; it was disposed but is still alive, held by:`, then one holder a
  /// line.
  package static func leftoverWidget(_ widget: TestLeftovers.Widget, waited: Duration) -> String {
    "Widget not gone \(waited.roundedSeconds) s after the test ended: a \(widget.typeName) handed to PendingDelete "
      + "at \(widget.fileID):\(widget.line). " + sentence(widget.reason)
      + (widget.reason.hasPrefix("its fade") ? "." : holderLines(widget.holders))
  }

  /// The failure for a leak that `.detectsLeaks(.everyObject)` found, at the test: `Leaked
  /// MyApp.Listener, made in this test and still alive 1.0 s after it ended, held by:` then one
  /// holder a line; a cycle names its members (`Leaked a cycle of MyApp.Person and MyApp.Apartment,
  /// …`), and what the leak holds that the test made follows (`It holds 2 more objects the test
  /// made: MyApp.Row (×2).`).
  package static func everyObjectLeak(_ leak: EveryObjectLeak, holders: Holders, waited: Duration) -> String {
    let names = leak.members.map { TypeName.of($0.type) }
    let subject =
      names.count == 1
      ? names[0] : "a cycle of " + names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    var text =
      "Leaked \(subject), made in this test and still alive \(waited.roundedSeconds) s after it ended"
      + (holders.isEmpty ? ". " + noHolderFoundForAnUntrackedObject : holderLines(holders))
    if !leak.held.isEmpty {
      let held = counted(leak.held.map { TypeName.of($0.type) })
      let noun = leak.held.count == 1 ? "object" : "objects"
      text += "\nIt holds \(leak.held.count) more \(noun) the test made: \(held)."
    }
    return text
  }

  /// What a leak's line says when nothing named its holder.
  static let noHolderFoundForAnUntrackedObject =
    "Nothing the report reads holds it (stored properties of the test's other leaked objects and tracked "
    + "objects, the test's observers, and the heap where the heap scan runs): look for a task, a Dispatch "
    + "queue, a timer or a global holding a closure that captures it."

  /// `MyApp.Row (×2), MyApp.Cell`: each name once, in first-seen order, with a count for repeats.
  private static func counted(_ names: [String]) -> String {
    var order: [String] = []
    var counts: [String: Int] = [:]
    for name in names {
      if counts[name] == nil { order.append(name) }
      counts[name, default: 0] += 1
    }
    return order.map { name in counts[name, default: 1] == 1 ? name : "\(name) (×\(counts[name, default: 1]))" }
      .joined(separator: ", ")
  }

  /// `Its owner …` from `its owner …`.
  private static func sentence(_ reason: String) -> String {
    reason.prefix(1).uppercased() + reason.dropFirst()
  }

  /// `, held by:` and one holder a line (`- Canvas.widgets[2]`, each line after the first
  /// `indent`ed), or `.` and where to look when none was found. A holder's explanation stays on its
  /// line, after it: `- Parent.onTap (a closure that captures it)`.
  static func holderLines(_ holders: Holders, indent: String = "") -> String {
    guard !holders.isEmpty else { return ". " + noHolderFound }
    let lines = holders.paths + holders.observers.map(\.description)
    return ", held by:\n" + lines.map { indent + "- " + $0 }.joined(separator: "\n")
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
