/// Counts live instances per type and per named group, against limits you declare: "at most one
/// `Inspector`", "at most 50 objects in the `Widgets` group".
///
/// Objects register themselves, usually in `init`; the budget holds them weakly, so a count is
/// always the number still alive. ``check()`` reports every type and group over its limit, on
/// demand: in a test, at a checkpoint in an app, or on a debug menu; ``report()`` gives the whole
/// picture as text to print or log: live counts per type and group, limits, and where the live
/// instances were tracked.
///
/// ```swift
/// import PresentationModelDiagnostics
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
/// > own budget rather than ``default``.
public final class InstanceBudget: Sendable {
  /// A process-wide budget for app code that does not pass one around.
  public static let `default` = InstanceBudget()

  private struct Entry: Sendable {
    let reference: WeakReference
    let type: ObjectIdentifier
    let group: String?
    let site: InstanceReport.Site
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
  ///   - group: The name objects pass to ``track(_:maximum:group:fileID:line:)``.
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
  ///   - fileID: Leave the default; ``report()`` lists live instances by the call that tracked them.
  ///   - line: Leave the default.
  public func track<Object: AnyObject>(
    _ object: Object, maximum: Int? = nil, group: String? = nil, fileID: StaticString = #fileID,
    line: Int = #line
  ) {
    if let maximum {
      precondition(
        maximum >= 0, "InstanceBudget.track(_:maximum:group:) needs a maximum of zero or more, not \(maximum)")
    }
    let dynamicType = type(of: object)
    let typeID = ObjectIdentifier(dynamicType)
    let name = TypeName.of(dynamicType)
    let site = InstanceReport.Site(fileID: String(describing: fileID), line: line)
    let entry = Entry(reference: WeakReference(object), type: typeID, group: group, site: site)
    // Read under the lock, dropped after it: this strong reference to an earlier object may be its last.
    let existing: AnyObject? = state.withLock { state in
      // An identifier whose object died may be reused by this one; replacing the entry is right.
      if let existing = state.entries[entry.reference.identifier]?.reference.object { return existing }
      state.entries[entry.reference.identifier] = entry
      state.typeNames[typeID] = name
      if let maximum { state.typeLimits[typeID] = (name, maximum) }
      return nil
    }
    _ = existing
  }

  /// The number of live tracked instances of exactly `type`.
  public func liveCount<Object: AnyObject>(of type: Object.Type) -> Int {
    let typeID = ObjectIdentifier(type)
    return snapshot().live.count { $0.type == typeID }
  }

  /// The number of live tracked objects in `group`.
  public func liveCount(inGroup group: String) -> Int {
    snapshot().live.count { $0.group == group }
  }

  /// Every type and group with more live instances than its limit, right now.
  public func check() -> BudgetReport {
    BudgetReport(overruns: report().overruns)
  }

  /// Every tracked or limited type and group with its live count and limit, and where the live
  /// instances were tracked, right now: text to print or log from a debug menu or a checkpoint.
  ///
  /// ```swift
  /// import PresentationModelDiagnostics
  ///
  /// final class Inspector {}
  ///
  /// let budget = InstanceBudget()
  /// let inspector = Inspector()
  /// budget.track(inspector, maximum: 1, group: "Panels")
  /// print(budget.report())
  /// // 1 live instance, within budget
  /// // MyApp.Inspector: 1 live, at most 1
  /// //   1 tracked at MyApp/Inspector.swift:7
  /// // group "Panels": 1 live, no limit
  /// ```
  public func report() -> InstanceReport {
    let snapshot = snapshot()
    var sitesByType: [ObjectIdentifier: [InstanceReport.Site: Int]] = [:]
    var groupCounts: [String: Int] = [:]
    for entry in snapshot.live {
      sitesByType[entry.type, default: [:]][entry.site, default: 0] += 1
      if let group = entry.group { groupCounts[group, default: 0] += 1 }
    }
    let types = Set(sitesByType.keys).union(snapshot.typeLimits.keys).map { typeID in
      let sites = sitesByType[typeID] ?? [:]
      return InstanceReport.TypeCount(
        typeName: snapshot.typeLimits[typeID]?.name ?? snapshot.typeNames[typeID] ?? "\(typeID)",
        liveCount: sites.values.reduce(0, +), maximum: snapshot.typeLimits[typeID]?.maximum,
        sites: sites.map { InstanceReport.SiteCount(site: $0.key, liveCount: $0.value) })
    }
    let groups = Set(groupCounts.keys).union(snapshot.groupLimits.keys).map { name in
      InstanceReport.GroupCount(name: name, liveCount: groupCounts[name] ?? 0, maximum: snapshot.groupLimits[name])
    }
    return InstanceReport(types: types, groups: groups)
  }

  private struct Snapshot {
    let live: [Entry]
    /// Keeps every live object alive while the snapshot is read; released with the snapshot, after
    /// the lock, because one of these may be the last reference.
    let objects: [AnyObject]
    let typeLimits: [ObjectIdentifier: (name: String, maximum: Int)]
    let groupLimits: [String: Int]
    let typeNames: [ObjectIdentifier: String]
  }

  /// The live entries and the limits, with entries whose object died removed.
  private func snapshot() -> Snapshot {
    state.withLock { state in
      var live: [Entry] = []
      var objects: [AnyObject] = []
      var dead: [ObjectIdentifier] = []
      for (identifier, entry) in state.entries {
        if let object = entry.reference.object {
          live.append(entry)
          objects.append(object)
        } else {
          dead.append(identifier)
        }
      }
      for identifier in dead { state.entries[identifier] = nil }
      return Snapshot(
        live: live, objects: objects, typeLimits: state.typeLimits, groupLimits: state.groupLimits,
        typeNames: state.typeNames)
    }
  }
}
