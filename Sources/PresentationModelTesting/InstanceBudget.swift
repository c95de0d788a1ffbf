/// Counts live instances per type and per named group, against limits you declare: "at most one
/// `Inspector`", "at most 50 objects in the `Widgets` group".
///
/// Objects register themselves, usually in `init`; the budget holds them weakly, so a count is
/// always the number still alive. ``check()`` reports every type and group over its limit, on
/// demand: in a test, at a checkpoint in an app, or on a debug menu.
///
/// ```swift
/// import PresentationModelTesting
///
/// final class Inspector {
///   init(budget: InstanceBudget) {
///     budget.track(self, maximum: 1, group: "Panels")
///   }
/// }
///
/// let budget = InstanceBudget()
/// budget.limit(group: "Panels", to: 3)
/// let first = Inspector(budget: budget)
/// let second = Inspector(budget: budget)
/// print(budget.check())  // 1 instance limit exceeded:
///                        // - MyApp.Inspector: 2 live, at most 1
/// _ = (first, second)
/// ```
///
/// > Note: Types are counted by their exact dynamic type: a subclass has its own count and limit.
/// > A limit declared again replaces the previous one. Tracking an object twice counts it once.
/// > All methods may be called from any thread. Tests that run in parallel should each use their
/// > own budget rather than ``shared``.
public final class InstanceBudget: Sendable {
  /// A process-wide budget for app code that does not pass one around.
  public static let shared = InstanceBudget()

  private struct Entry: Sendable {
    let reference: WeakReference
    let type: ObjectIdentifier
    let group: String?
  }

  private struct State {
    var entries: [ObjectIdentifier: Entry] = [:]
    var typeLimits: [ObjectIdentifier: (name: String, maximum: Int)] = [:]
    var groupLimits: [String: Int] = [:]
    var typeNames: [ObjectIdentifier: String] = [:]
  }

  private let state = LockedState(State())

  /// Creates a budget with no limits and nothing tracked.
  public init() {}

  /// Declares that at most `maximum` instances of exactly `type` should be alive at once.
  ///
  /// - Parameters:
  ///   - type: The class to limit; subclasses are counted separately.
  ///   - maximum: Zero or more.
  public func limit<Object: AnyObject>(_ type: Object.Type, to maximum: Int) {
    precondition(maximum >= 0, "InstanceBudget.limit(_:to:) needs a maximum of zero or more, not \(maximum)")
    let name = TypeName.of(type)
    state.withLock { state in state.typeLimits[ObjectIdentifier(type)] = (name, maximum) }
  }

  /// Declares that at most `maximum` objects tracked in `group` should be alive at once.
  ///
  /// - Parameters:
  ///   - group: The name objects pass to ``track(_:maximum:group:)``.
  ///   - maximum: Zero or more.
  public func limit(group: String, to maximum: Int) {
    precondition(maximum >= 0, "InstanceBudget.limit(group:to:) needs a maximum of zero or more, not \(maximum)")
    state.withLock { state in state.groupLimits[group] = maximum }
  }

  /// Counts `object` until it deallocates.
  ///
  /// - Parameters:
  ///   - object: Usually `self`, from an initialiser. Held weakly.
  ///   - maximum: When given, declares the limit for the object's type, as ``limit(_:to:)`` does.
  ///   - group: When given, the object also counts towards this group.
  public func track<Object: AnyObject>(_ object: Object, maximum: Int? = nil, group: String? = nil) {
    if let maximum {
      precondition(
        maximum >= 0, "InstanceBudget.track(_:maximum:group:) needs a maximum of zero or more, not \(maximum)")
    }
    let dynamicType = type(of: object)
    let typeID = ObjectIdentifier(dynamicType)
    let name = TypeName.of(dynamicType)
    let entry = Entry(reference: WeakReference(object), type: typeID, group: group)
    state.withLock { state in
      // An identifier whose object died may be reused by this one; replacing the entry is right.
      if let existing = state.entries[entry.reference.identifier], existing.reference.object != nil { return }
      state.entries[entry.reference.identifier] = entry
      state.typeNames[typeID] = name
      if let maximum { state.typeLimits[typeID] = (name, maximum) }
    }
  }

  /// The number of live tracked instances of exactly `type`.
  public func liveCount<Object: AnyObject>(of type: Object.Type) -> Int {
    let typeID = ObjectIdentifier(type)
    return state.withLock { state in
      state.entries.values.count { $0.type == typeID && $0.reference.object != nil }
    }
  }

  /// The number of live tracked objects in `group`.
  public func liveCount(inGroup group: String) -> Int {
    state.withLock { state in
      state.entries.values.count { $0.group == group && $0.reference.object != nil }
    }
  }

  /// Every type and group with more live instances than its limit, right now.
  public func check() -> BudgetReport {
    state.withLock { state in
      state.entries = state.entries.filter { $0.value.reference.object != nil }
      var typeCounts: [ObjectIdentifier: Int] = [:]
      var groupCounts: [String: Int] = [:]
      for entry in state.entries.values {
        typeCounts[entry.type, default: 0] += 1
        if let group = entry.group { groupCounts[group, default: 0] += 1 }
      }
      var overruns: [BudgetReport.Overrun] = []
      for (typeID, limit) in state.typeLimits {
        let live = typeCounts[typeID] ?? 0
        if live > limit.maximum {
          overruns.append(BudgetReport.Overrun(subject: .type(limit.name), liveCount: live, maximum: limit.maximum))
        }
      }
      for (group, maximum) in state.groupLimits {
        let live = groupCounts[group] ?? 0
        if live > maximum {
          overruns.append(BudgetReport.Overrun(subject: .group(group), liveCount: live, maximum: maximum))
        }
      }
      return BudgetReport(overruns: overruns.sorted { $0.subject.description < $1.subject.description })
    }
  }
}
