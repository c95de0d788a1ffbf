#if os(Linux) && canImport(Glibc)
  /// Words the chains a `HolderSearch` found, one line each, from what names the chain down to
  /// the object:
  /// - `the global Registry.shared, through Registry.listeners[0]`
  /// - `a Dispatch work item's block: closure #1 in Poller.start()`
  /// - `a Dispatch queue's pending block (asyncAfter): closure #1 in Poller.refreshLater()`
  /// - `a block queued on the suspended DispatchQueue "sync" in Uploader.queue: closure #1 in
  ///   Uploader.upload()`, `the event handler of the DispatchSourceTimer in Ticker.timer: …`, `the
  ///   notify block of the DispatchGroup in Sync.group, waiting for 1 leave(): …` (`dispatchLine`)
  /// - `a suspended Task: closure #1 in Poller.start(), awaiting Task.sleep(nanoseconds:)`
  /// - `a suspended Task: closure #1 in Poller.start(), awaiting Task.sleep(nanoseconds:), through
  ///   its task-local Request.$context`
  /// - `a suspended Task: closure #1 in Poller.start(), awaiting …, through a word in its async
  ///   frame of closure #1 in Poller.start() (the runtime does not say whether that slot is live)`,
  ///   only when no other line names the object (the slot may be dead)
  /// - `a NotificationCenter block observer for "didTick": closure #1 in Poller.observe()`
  /// - `a closure kept in a var that it captures itself: closure #1 in Poller.retry()`
  /// - `an untracked Cache.items[2]` (no global, task, queue or cycle found above it)
  enum HolderWording {
    /// The function of the block Foundation's `NotificationCenter` registers for a block observer
    /// (swift-foundation's `_addObserver(_:object:using:)`, which swift-corelibs-foundation's
    /// `addObserver(forName:object:queue:using:)` calls).
    static let foundationObserverFunction = "NotificationCenter._addObserver"

    static func holders(of search: HolderSearch, maximumHolders: Int) -> [String] {
      let entries = search.entries
      var held = Set<Int>()
      for entry in entries { if let child = entry.child { held.insert(child) } }
      var lines: [(text: String, rank: Int, depth: Int)] = []
      var conservative: [(text: String, rank: Int, depth: Int)] = []
      for (index, entry) in entries.enumerated() where index > 0 {
        let chain = self.chain(from: index, in: entries)
        let isTop = entry.node.isRoot || !held.contains(index)
        guard isTop, !chain.dropFirst().contains(where: { entries[$0].node.isRoot }) else { continue }
        if let (text, rank) = dispatchLine(for: chain, in: search) ?? line(for: chain, in: entries) {
          if entry.step?.isConservative ?? false {
            conservative.append((text, rank, chain.count))
          } else {
            lines.append((text, rank, chain.count))
          }
        }
      }
      for cycle in search.cycles {
        let chain = self.chain(from: cycle.top, in: entries)
        if case .context = entries[cycle.top].node.kind, case .context = entries[cycle.by].node.kind,
          case .capturedVar = cycle.step.kind, let closure = innermostClosure(chain, in: entries)
        {
          lines.append(("a closure kept in a var that it captures itself: \(closure)", 0, chain.count))
        }
      }
      // An untracked chain that is the end of a longer one says less about the same holders
      // (`LockedBuffer.header.observations[0]` below `Counter._$observationRegistrar.extent → …`,
      // where the buffer is also in a dictionary nothing names): the longer one stays.
      let untracked = "an untracked "
      let texts = lines.map(\.text).filter { $0.hasPrefix(untracked) }
      lines.removeAll { line in
        line.rank == 2 && texts.contains { $0.hasSuffix(" → " + line.text.dropFirst(untracked.count)) }
      }
      // A word in a task's async frame (which may be a dead slot) names the object only when
      // nothing else does.
      if lines.isEmpty { lines = conservative }
      var seen = Set<String>()
      return lines.sorted { ($0.rank, $0.depth) < ($1.rank, $1.depth) }.map(\.text)
        .filter { seen.insert($0).inserted }.prefix(maximumHolders).map { $0 }
    }

    /// The global or static variable whose own storage holds the survivor (index 0), if one does.
    static func directGlobal(in search: HolderSearch) -> String? {
      for entry in search.entries.dropFirst() where entry.child == 0 {
        if case .global(let name) = entry.node.kind { return name }
      }
      return nil
    }

    /// `index`, the node it holds, and so on down to the survivor (index 0).
    private static func chain(from index: Int, in entries: [HolderSearch.Entry]) -> [Int] {
      var chain: [Int] = []
      var current: Int? = index
      while let at = current, chain.count <= HeapScan.maximumDepth + 1 {
        chain.append(at)
        current = entries[at].child
      }
      return chain
    }

    /// The closure nearest the survivor that is the user's (not a thunk, not Foundation's
    /// registration block).
    static func innermostClosure(_ chain: [Int], in entries: [HolderSearch.Entry]) -> String? {
      chain.reversed().lazy.compactMap { entries[$0].step?.closure }.first {
        !$0.isThunk && !$0.name.contains(foundationObserverFunction)
      }?.name
    }

    /// The chain's line and its rank (0: named by what holds the whole chain; 1: a block observer;
    /// 2: an untracked object), or `nil` when nothing on it names it.
    private static func line(for chain: [Int], in entries: [HolderSearch.Entry]) -> (String, Int)? {
      var segments: [String] = []
      var observerName: String?
      var isObserver = false
      for index in chain.dropLast() {
        guard let step = entries[index].step else { continue }
        if step.closure?.name.contains(foundationObserverFunction) ?? false { isObserver = true }
        switch entries[index].node.kind {
        case .object(let typeName):
          segments.append(typeName + (step.component ?? ""))
        case .arrayStorage, .dictionaryStorage:
          if !isObserver, let key = step.component, key.hasPrefix("[\"") { observerName = observerName ?? key }
          if segments.isEmpty { segments.append("") }
          segments[segments.count - 1] += step.component ?? ""
        default:
          break
        }
      }
      let path = segments.joined(separator: " → ")
      let closure = innermostClosure(chain, in: entries)
      let closureSuffix = closure.map { ": " + $0 } ?? ""
      let through = path.isEmpty ? "" : ", through " + path
      switch entries[chain[0]].node.kind {
      case .global(let name):
        let head = path.hasPrefix("[") ? "the global \(name)\(path)" : "the global \(name)\(through)"
        return (head + closureSuffix, 0)
      case .workItem:
        return ("a Dispatch work item's block" + closureSuffix + through, 0)
      case .afterTimer:
        return ("a Dispatch queue's pending block (asyncAfter)" + closureSuffix + through, 0)
      case .task(let state):
        // The task's operation is the closure nearest the task (its entry point, or the closure a
        // reabstraction thunk's context captures), not a closure the chain goes through below it
        // (a stream's `onTermination`).
        let closure = chain.lazy.compactMap { entries[$0].step?.closure }.first { !$0.isThunk }?.name
        let operation = closure ?? "an unnamed closure"
        var text: String
        if state.statusIsKnown, state.isRunning {
          text = "a running Task: \(operation)"
        } else {
          text = (state.statusIsKnown ? "a suspended Task: " : "a Task: ") + operation
          if let awaiting = state.awaiting(operation: closure) {
            text += (state.statusIsKnown ? ", awaiting " : ", last suspended in ") + awaiting
          }
        }
        // What of the task holds the chain, when not its operation: `task-local Request.$context`,
        // or a word in one of its async frames (`a word in its async frame of Poller.run()`),
        // which the runtime does not say is live.
        let top = entries[chain[0]].step
        let isConservative = top?.isConservative ?? false
        let part = top?.component.map { isConservative ? $0 : "its " + $0 }
        let parts = [part, path.isEmpty ? nil : path].compactMap { $0 }
        text += parts.isEmpty ? "" : ", through " + parts.joined(separator: " → ")
        return (text + (isConservative ? " (the runtime does not say whether that slot is live)" : ""), 0)
      default:
        break
      }
      if isObserver {
        let name = observerName.map { " for \($0.dropFirst(2).dropLast(2))" } ?? ""
        return ("a NotificationCenter block observer\(name)" + closureSuffix, 1)
      }
      // A slab of a task's allocator that no task was proved to own names nothing.
      if case .taskSlab = entries[chain[0]].node.kind { return nil }
      guard case .object = entries[chain[0]].node.kind else {
        // The top is not an object: name the chain from its highest object, if any.
        guard let object = chain.firstIndex(where: { if case .object = entries[$0].node.kind { true } else { false } })
        else { return nil }
        return line(for: Array(chain[object...]), in: entries)
      }
      return ("an untracked " + path + closureSuffix, 2)
    }
  }
#endif
