import PresentationModel

/// What a test left behind of what it made on the centers and in `PendingDelete`, read from its
/// ``LeakScopeLog``: registrations still live, and widgets whose fade did not finish or that are
/// still alive after it, each with what keeps it.
///
/// Only the package's own bookkeeping is read, so this holds on every platform; what holds a
/// leftover's owner, token or widget is named as for a leaked object (stored-property paths from
/// the tracked objects, the test's own observers, the heap scan where it runs).
package struct TestLeftovers: Sendable {
  /// A registration made in the test and still live when it ended.
  package struct Observer: Sendable {
    package let registration: RegistrationInfo
    /// Why it is live: `its owner, a Listener, is still alive`.
    package let reason: String
    /// What holds the owner, token or sequence that keeps it live.
    package var holders = Holders()
  }

  /// A widget handed to a `PendingDelete` in the test that is not gone.
  package struct Widget: Sendable {
    package let type: any AnyObject.Type
    package var typeName: String { TypeName.of(type) }
    package let fileID: StaticString
    package let line: Int
    /// Why it is a leftover: its fade did not finish, or it was disposed and is still alive.
    package let reason: String
    package var holders = Holders()
  }

  package var observers: [Observer] = []
  package var widgets: [Widget] = []

  package var isEmpty: Bool { observers.isEmpty && widgets.isEmpty }

  /// Whether the test of `log` has left anything behind right now: a cheap look (no walk), for
  /// polling. Loads owners and senders: call it with no lock held.
  package static func anyLeft(in log: LeakScopeLog) -> Bool {
    log.registrations.contains(where: \.isLive) || log.fades.contains(where: isLeftover)
  }

  /// The leftovers of `log`'s test, each with what holds it. Paths start from `roots` (the tracked
  /// objects still alive) and from the held object itself (a cycle).
  package static func find(in log: LeakScopeLog, roots: [AnyObject]) -> TestLeftovers {
    // Each leftover with the object that keeps it (its owner, token or widget), if any.
    var observers: [(Observer, keeper: AnyObject?)] = []
    for record in log.registrations where record.isLive {
      guard let info = record.info else { continue }
      if let owner = record.owner {
        observers.append(
          (Observer(registration: info, reason: "its owner, a \(TypeName.of(type(of: owner))), is still alive"), owner))
      } else if info.delivery == .asyncSequence {
        let reason = "its async sequence, or an iterator of it, is still alive (a task iterating it, or a variable)"
        observers.append((Observer(registration: info, reason: reason), record.token))
      } else {
        observers.append((Observer(registration: info, reason: "its token is still alive"), record.token))
      }
    }
    var widgets: [(Widget, keeper: AnyObject?)] = []
    for fade in log.fades where isLeftover(fade) {
      let unfinished = fade.fadeState == .fading
      let reason =
        unfinished
        ? "its fade had not finished when the test ended: \(fade.stepsTaken) of \(fade.steps) steps ran (advance a "
          + "ManualStepScheduler by the fade's duration, or let the main queue run)"
        : "it was disposed but is still alive"
      let widget = Widget(type: fade.widgetType, fileID: fade.fileID, line: fade.line, reason: reason)
      widgets.append((widget, unfinished ? nil : fade.widget))
    }
    let keepers = observers.compactMap(\.keeper) + widgets.compactMap(\.keeper)
    let holders = Holders.of(keepers, roots: roots, log: log)
    func holding(_ keeper: AnyObject?) -> Holders { keeper.flatMap { holders[ObjectIdentifier($0)] } ?? Holders() }
    var leftovers = TestLeftovers()
    for (var observer, keeper) in observers {
      observer.holders = holding(keeper)
      leftovers.observers.append(observer)
    }
    for (var widget, keeper) in widgets {
      widget.holders = holding(keeper)
      leftovers.widgets.append(widget)
    }
    return leftovers
  }

  private static func isLeftover(_ fade: LeakScopeLog.FadeRecord) -> Bool {
    switch fade.fadeState {
    case .fading: true
    case .disposed: fade.widget != nil
    case .cancelled: false
    }
  }
}
