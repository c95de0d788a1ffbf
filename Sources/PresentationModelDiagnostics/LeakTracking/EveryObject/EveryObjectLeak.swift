internal import PresentationCaptureReading

/// One leak among the survivors of an ``EveryObjectScope``: a survivor, or a cycle of survivors,
/// that no other survivor holds, with the survivors it holds. A report says one thing per leak, not
/// one per object: a leaked view model and the twenty rows it holds are one mistake.
package struct EveryObjectLeak {
  /// The survivor no other survivor holds, or the cycle of survivors that hold each other and that
  /// no other survivor holds, in allocation order.
  package let members: [EveryObjectSurvivor]
  /// The survivors the members hold, directly or through each other, in allocation order.
  package let held: [EveryObjectSurvivor]

  /// The most survivors grouped: past it, each is a leak of its own (the walk between survivors
  /// is one bounded walk per survivor).
  static let maximumGrouped = 500

  /// `survivors` grouped into leaks, in the order their first member was allocated. Survivors in
  /// `excluded` (legitimate ones, such as an object a global refers to directly) are left out, and
  /// what they hold is not held for the grouping: an object a singleton holds is a leak of its own.
  ///
  /// Reads the survivors' stored properties without synchronisation: call it once the code under
  /// test has stopped.
  package static func group(
    _ survivors: [EveryObjectSurvivor], excluding excluded: Set<ObjectIdentifier> = []
  ) -> [EveryObjectLeak] {
    let kept = survivors.filter { !excluded.contains(ObjectIdentifier($0.object)) }
      .sorted { $0.allocationOrder < $1.allocationOrder }
    let grouped = Array(kept.prefix(maximumGrouped))
    let index = Dictionary(
      uniqueKeysWithValues: grouped.enumerated().map { (ObjectIdentifier($0.element.object), $0.offset) })
    let targets = Set(index.keys)
    // Edges: which survivors each one holds, not through another survivor.
    let edges = grouped.map { survivor in
      CaptureScanner.targetsHeld(by: survivor.object, among: targets).compactMap { index[$0] }.sorted()
    }
    let component = StronglyConnected.components(of: edges)
    var heldFromOutside = Set<Int>()
    for (from, targets) in edges.enumerated() {
      for to in targets where component[to] != component[from] { heldFromOutside.insert(component[to]) }
    }
    var leaks: [EveryObjectLeak] = []
    var seenComponents = Set<Int>()
    for node in grouped.indices where !heldFromOutside.contains(component[node]) {
      guard seenComponents.insert(component[node]).inserted else { continue }
      let members = grouped.indices.filter { component[$0] == component[node] }
      let reached = reachable(from: members, edges: edges).subtracting(members)
      leaks.append(
        EveryObjectLeak(members: members.map { grouped[$0] }, held: reached.sorted().map { grouped[$0] }))
    }
    // Past the bound, one leak each.
    leaks += kept.dropFirst(maximumGrouped).map { EveryObjectLeak(members: [$0], held: []) }
    return leaks
  }

  /// The singletons among `survivors` (a survivor no other survivor holds, that a global or static
  /// variable's own storage holds: a lazily made `static let shared`), each with its global's name
  /// and the short name of its type (a path from it starts with it); and what a report leaves out
  /// for them: the singletons and what each made while it was being made. What a singleton holds
  /// that the test handed it is still a leak. Found where memory can be read (Linux); elsewhere a
  /// singleton first touched in a test is reported.
  package static func singletons(
    among survivors: [EveryObjectSurvivor]
  ) -> (globals: [(name: String, typeName: String)], excluded: Set<ObjectIdentifier>) {
    let candidates = group(survivors).filter { $0.members.count == 1 }.map { $0.members[0] }
    guard !candidates.isEmpty else { return ([], []) }
    var globals: [(name: String, typeName: String)] = []
    var excluded = Set<ObjectIdentifier>()
    for (candidate, global) in zip(candidates, CaptureScanner.globalsHoldingDirectly(candidates.map(\.object))) {
      guard let global else { continue }
      globals.append((global, String(describing: candidate.type)))
      excluded.insert(ObjectIdentifier(candidate.object))
      excluded.formUnion(partsMadeWhileMaking(candidate, among: survivors))
    }
    return (globals, excluded)
  }

  /// The survivors `singleton` holds that it made while it was being made: its initialiser's
  /// objects, which belong to it as it does to its global. Told by where each was allocated: after
  /// it, on its thread, no shallower in the stack than its own allocation (an initialiser runs
  /// deeper than the code that touched the global), and before any survivor allocated shallower
  /// there (the initialiser had returned by then). What the test hands a singleton afterwards
  /// (`Registry.shared.add(Listener())`: the listener is allocated once the initialiser has
  /// returned, in a shallower frame) is not among them, and is a leak of its own.
  package static func partsMadeWhileMaking(
    _ singleton: EveryObjectSurvivor, among survivors: [EveryObjectSurvivor]
  ) -> Set<ObjectIdentifier> {
    let sameThreadAfter = survivors.filter {
      $0.thread == singleton.thread && $0.allocationOrder > singleton.allocationOrder
    }
    .sorted { $0.allocationOrder < $1.allocationOrder }
    var madeMeanwhile: [EveryObjectSurvivor] = []
    for survivor in sameThreadAfter {
      guard survivor.frame <= singleton.frame else { break }
      madeMeanwhile.append(survivor)
    }
    guard !madeMeanwhile.isEmpty else { return [] }
    // Only those it holds, directly or through each other.
    let targets = Set(madeMeanwhile.map { ObjectIdentifier($0.object) })
    let byIdentity = Dictionary(uniqueKeysWithValues: madeMeanwhile.map { (ObjectIdentifier($0.object), $0) })
    var held = Set<ObjectIdentifier>()
    var queue: [AnyObject] = [singleton.object]
    while let next = queue.popLast() {
      for reached in CaptureScanner.targetsHeld(by: next, among: targets) where held.insert(reached).inserted {
        if let part = byIdentity[reached] { queue.append(part.object) }
      }
    }
    return held
  }

  private static func reachable(from starts: [Int], edges: [[Int]]) -> Set<Int> {
    var seen = Set(starts)
    var queue = starts
    while let next = queue.popLast() {
      for target in edges[next] where seen.insert(target).inserted { queue.append(target) }
    }
    return seen
  }
}

/// Tarjan's strongly connected components, without recursion (a chain of survivors may be long).
enum StronglyConnected {
  /// The component of each node of the graph `edges` (node `i` points at `edges[i]`).
  static func components(of edges: [[Int]]) -> [Int] {
    let count = edges.count
    var index = [Int](repeating: -1, count: count)
    var lowLink = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var component = [Int](repeating: -1, count: count)
    var stack: [Int] = []
    var nextIndex = 0
    var nextComponent = 0
    for start in 0..<count where index[start] < 0 {
      // Each frame: a node and the position of its next edge to look at.
      var frames = [(node: start, edge: 0)]
      index[start] = nextIndex
      lowLink[start] = nextIndex
      nextIndex += 1
      stack.append(start)
      onStack[start] = true
      while let frame = frames.last {
        let node = frame.node
        if frame.edge < edges[node].count {
          frames[frames.count - 1].edge += 1
          let target = edges[node][frame.edge]
          if index[target] < 0 {
            index[target] = nextIndex
            lowLink[target] = nextIndex
            nextIndex += 1
            stack.append(target)
            onStack[target] = true
            frames.append((target, 0))
          } else if onStack[target] {
            lowLink[node] = min(lowLink[node], index[target])
          }
          continue
        }
        frames.removeLast()
        if let parent = frames.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
        if lowLink[node] == index[node] {
          while let member = stack.popLast() {
            onStack[member] = false
            component[member] = nextComponent
            if member == node { break }
          }
          nextComponent += 1
        }
      }
    }
    return component
  }
}
