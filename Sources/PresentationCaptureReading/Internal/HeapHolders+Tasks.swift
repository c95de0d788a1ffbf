#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// Where a task keeps what its allocator hands out, read at the runtime layout version 1
  /// (`_swift_concurrency_debug_internal_layout_version`) on 64-bit targets, from the Swift 6.3
  /// runtime's headers, each offset measured on Swift 6.3.1, Linux x86-64 (a `Task {}` started
  /// inside `$value.withValue(…)`: its private storage, its allocator's slab and the item there).
  enum TaskAllocatorLayout {
    // include/swift/ABI/Task.h: `AsyncTask` is a `Job` (a `HeapObject`, 16 bytes; two words of
    // scheduler-private data; 32-bit flags and id; voucher; reserved; `ResumeTask` at 56), then
    // `ResumeContext` (64), a reserved word on 64-bit targets (72), then `PrivateStorage` (80).
    // stdlib/public/Concurrency/TaskPrivate.h, `AsyncTask::PrivateStorage`: the exclusivity access
    // set (2 words, 80), the `ActiveTaskStatus` (16 bytes, 96), the `TaskAllocator` (112), the
    // task-local `TaskLocal::Storage` (one word, its `head`), the id's top half, the base priority.
    // stdlib/public/runtime/StackAllocator.h, `StackAllocator`: `lastAllocation` (112), `firstSlab`
    // (120), then `firstSlabIsPreallocated:1` and `numAllocatedSlabs:31` in one 32-bit word (128),
    // padded to 24 bytes: `Local.head` is at 136.
    /// `AsyncTask::PrivateStorage::Allocator.lastAllocation`: the header of the task's newest
    /// allocation.
    static let lastAllocation: UInt = 112
    /// `AsyncTask::PrivateStorage::Allocator.firstSlab`.
    static let firstSlab: UInt = 120
    /// `AsyncTask::PrivateStorage::Local.head`: the newest `TaskLocal::Item` of the task.
    static let taskLocalHead: UInt = 136

    // StackAllocator.h, `StackAllocator::Slab`: a fake metadata pointer (the runtime's
    // `TaskAllocatorSlabMetadata`, `_swift_concurrency_debug_asyncTaskSlabMetadata`), `next` (the
    // slab after it), 32-bit `capacity` and `currentOffset` (neither counts the header), then the
    // header is rounded up to `MaximumAlignment` (16): 24 bytes, 32. Allocations are bump-allocated
    // in stack order, so the bytes from the header to `currentOffset` past it are all live ones.
    /// `Slab::next`.
    static let slabNext: UInt = 8
    /// `Slab::capacity`, then `Slab::currentOffset` 4 bytes later.
    static let slabCapacity: UInt = 16
    static let slabCurrentOffset: UInt = 20
    /// `Slab::headerSize()`.
    static let slabHeader: UInt = 32
    /// How many slabs of one task are followed (a task's stack of frames rarely needs more than a
    /// few kilobytes: its first slab holds 984 bytes, later ones as many or more). The scan climbs
    /// one slab a step (a slab's only holder is the one before it), so a value more than 6 slabs
    /// in is past its 7 steps and stays unnamed.
    static let mostSlabs = 64

    // StackAllocator.h, `StackAllocator::Allocation`: each allocation starts with a header,
    // `previous` (the header of the allocation made before it) and `slab` (the slab it lies in),
    // 16 bytes (rounded up to `MaximumAlignment`), then the memory handed out. The allocator's
    // `lastAllocation` and each header's `previous` list the live allocations, newest first; one
    // runs to the next one's header in the same slab, or to its slab's `currentOffset`.
    /// `Allocation::headerSize()`.
    static let allocationHeader: UInt = 16
    /// How many of a task's live allocations are followed.
    static let mostAllocations = 1024

    // include/swift/ABI/TaskLocal.h, `TaskLocal::Item`: `next` (its low 2 bits the `NextLinkType`:
    // 0 the next item of this task, 1 an item of a parent task, 2 the next item of this task made
    // in a task group's body), `key` (the `TaskLocal` object), `valueType` (null for an item that
    // only links to a parent's), then the value, at `sizeof(Item)` (24) rounded up to the value
    // type's alignment (`storageOffset`). Items are allocated by the task's own allocator
    // (`_swift_task_alloc_specific`); the task pushes and pops them in stack order, and a task
    // made in a `withValue` body gets copies of the bound values (`Storage::copyTo`), retained.
    /// `TaskLocal::Item::key`.
    static let itemKey: UInt = 8
    /// `TaskLocal::Item::valueType`.
    static let itemValueType: UInt = 16
    /// `sizeof(TaskLocal::Item)`.
    static let itemHeader: UInt = 24
    /// How many of a task's own task-local items are followed.
    static let mostItems = 256
  }

  /// What a task slab node carries up the climb: where, in the task's allocator memory, the word
  /// that holds the node below the first slab lies. The task, once found above the slabs, proves
  /// the word is its own (`HolderSearch.taskAllocatorHolder`).
  struct TaskSlabHit {
    let address: UInt
    /// The address of the node the word held when it was found.
    let held: UInt
    /// Whether the word is not a task-local item's value: then it counts only inside a live async
    /// frame on the task's resume chain, as conservative evidence (`taskFrameHolder`).
    let isFrameWord: Bool
  }

  extension HolderSearch {
    /// A slab of a task's allocator (its first word is the runtime's slab metadata) that holds
    /// `child`: either a word in its used bytes holds the node (the survivor, an object, a
    /// closure's context), or its `next` holds the slab after it. Which task owns the slab is
    /// proved above it: the task's `firstSlab`, then each slab's `next`, lead to it.
    func taskSlab(at allocation: Allocation, offset: UInt, address: UInt, child: HeapNode) -> (HeapNode, HeapStep)? {
      typealias Layout = TaskAllocatorLayout
      let slab = allocation.start
      guard
        let capacity = ProcessMemory.uint32(at: slab &+ Layout.slabCapacity),
        let used = ProcessMemory.uint32(at: slab &+ Layout.slabCurrentOffset),
        Layout.slabHeader + UInt(capacity) <= allocation.size, used <= capacity
      else { return nil }
      switch child.kind {
      case .taskSlab(let hit) where offset == Layout.slabNext:
        return (HeapNode(address: slab, kind: .taskSlab(hit)), HeapStep(kind: .slab))
      case .survivor, .object, .context:
        guard offset >= Layout.slabHeader, offset - Layout.slabHeader < UInt(used) else { return nil }
        let isFrameWord = !isTaskLocalValue(at: address, inSlab: slab, holding: child)
        guard !isFrameWord || believesFrameWords else { return nil }
        let hit = TaskSlabHit(address: address, held: child.address, isFrameWord: isFrameWord)
        return (HeapNode(address: slab, kind: .taskSlab(hit)), HeapStep(kind: .slab))
      default:
        return nil
      }
    }

    /// Whether the word at `address`, in a slab's used bytes, lies where a `TaskLocal` item keeps
    /// a value that holds `child`: the item's allocation header (`previous`, `slab`) before it
    /// names this slab, its `valueType` is a type whose value holds the child at that offset (a
    /// reference at 0, a closure's context at 8), and the value starts where `storageOffset` puts
    /// it. Whether the item is on a task's chain is proved once the task is found above the slab.
    /// Any other word of the used bytes is carried up as a frame word (`TaskSlabHit.isFrameWord`)
    /// only in a climb that believes them (`believesFrameWords`): in every climb, such words would
    /// crowd out the frontier and take the place of precise holders.
    private func isTaskLocalValue(at address: UInt, inSlab slab: UInt, holding child: HeapNode) -> Bool {
      typealias Layout = TaskAllocatorLayout
      for inner: UInt in [0, 8] where address >= inner {
        let storage = address - inner
        for item in [storage &- Layout.itemHeader, storage &- Layout.itemHeader &- 8] {
          guard ProcessMemory.word(at: item &- 8) == slab,
            let valueType = ProcessMemory.word(at: item &+ Layout.itemValueType), valueType != 0,
            let element = ElementType(valueType),
            (item + Layout.itemHeader + element.alignment - 1) & ~(element.alignment - 1) == storage,
            inner < element.stride, elementHolds(element, offset: inner, address: address, child: child) != nil
          else { continue }
          return true
        }
      }
      return false
    }

    /// A task (its first word is the runtime's task metadata) whose allocator's memory holds
    /// `child` in one of its task-local values: the word at `address` (in the task's own
    /// allocation) or the word a slab of it carries (`child` is its first slab) is the value of a
    /// `TaskLocal::Item` on the task's own chain (`Local.head`, then each item's `next` while it
    /// links to an item of this task), of a type that holds a strong reference there, in the used
    /// bytes of one of the task's slabs. Only an unstructured task that has not completed, as
    /// `task(at:offset:address:)` requires.
    func taskAllocatorHolder(at allocation: Allocation, offset: UInt, address: UInt, child: HeapNode) -> (
      HeapNode, HeapStep
    )? {
      typealias Layout = TaskAllocatorLayout
      let task = allocation.start
      guard task != currentTask, facts.concurrencyLayoutVersion == RuntimeFacts.knownConcurrencyLayoutVersion,
        facts.taskSize > 0, facts.taskSlabMetadata != 0, MemoryLayout<UInt>.size == 8,
        HeapProofs.isAlive(objectAt: task),
        let flags = ProcessMemory.uint32(at: task &+ 32),
        flags & (1 << 25) != 0, flags & (1 << 24) == 0, flags & (1 << 26) == 0,  // future, not a child
        let waitQueue = ProcessMemory.word(at: task &+ facts.taskSize), waitQueue & 3 == 0,  // executing
        let used = usedSlabRanges(ofTask: task)
      else { return nil }
      let hit: UInt
      let held: HeapNode
      if case .taskSlab(let carried) = child.kind {
        guard offset == Layout.firstSlab, used.first?.lowerBound == child.address &+ Layout.slabHeader else {
          return nil
        }
        if carried.isFrameWord { return taskFrameHolder(task: task, allocation: allocation, hit: carried, used: used) }
        hit = carried.address
        held = HeapNode(address: carried.held, kind: .survivor)
      } else {
        hit = address
        held = child
      }
      guard used.contains(where: { $0.contains(hit) }),
        let (key, step) = taskLocalValue(ofTask: task, at: hit, holding: held, in: used)
      else { return nil }
      let (state, root) = taskState(task, context: ProcessMemory.word(at: task &+ 64) ?? 0)
      var named = step
      named.kind = .task
      named.component = "task-local " + (taskLocalName(key) ?? "value")
      if let root, allocation.contains(root) { named.closure = operationName(root: root) }
      return (HeapNode(address: task, kind: .task(state)), named)
    }

    /// A suspended task one of whose async frames holds, at `hit.address` (in the used bytes of
    /// one of its slabs), the node below its first slab: the word lies in the memory of a live
    /// allocation of the task's allocator (`asyncFrame`) that is a context on the task's resume
    /// chain, and still holds the node's address. Nothing says whether the frame's slot is live at
    /// the suspension point (a dead slot keeps its bits), so the step is conservative: the report
    /// names it only when nothing names the object precisely (`HolderWording`). A running task's
    /// frames change under the scan: only a suspended one is read, and only if, once its frame is
    /// found, it still waits at the same context.
    private func taskFrameHolder(task: UInt, allocation: Allocation, hit: TaskSlabHit, used: [Range<UInt>]) -> (
      HeapNode, HeapStep
    )? {
      let context = ProcessMemory.word(at: task &+ 64) ?? 0
      let (state, root) = taskState(task, context: context)
      guard state.statusIsKnown, !state.isRunning, used.contains(where: { $0.contains(hit.address) }),
        let frame = asyncFrame(ofTask: task, holding: hit.address, used: used),
        ProcessMemory.word(at: hit.address) == hit.held, ProcessMemory.word(at: task &+ 64) == context,
        let flags = ProcessMemory.uint32(at: task &+ 96), flags & 0x800 == 0  // still not running
      else { return nil }
      var step = HeapStep(kind: .task, component: "a word in its async frame of " + frame.name)
      step.isConservative = true
      if let root, allocation.contains(root) { step.closure = operationName(root: root) }
      return (HeapNode(address: task, kind: .task(state)), step)
    }

    /// The async function whose frame, on the task's resume chain, holds the word at `hit`. The
    /// task's live allocations (its `lastAllocation`, then each header's `previous`, each header
    /// in the used bytes of the slab its `slab` word names) give each allocation's extent: from
    /// its memory to the next allocation's header in the same slab, or to the slab's used end.
    /// The allocation holding `hit` must be a frame: its memory is a context on the resume chain
    /// (`ResumeContext`, then each context's `Parent`), named by the function that resumes it (the
    /// task's `ResumeTask` for the innermost, the child context's `ResumeParent` for the others),
    /// not one of the runtime's adapters, nor the harness's own.
    private func asyncFrame(ofTask task: UInt, holding hit: UInt, used: [Range<UInt>]) -> FunctionName? {
      typealias Layout = TaskAllocatorLayout
      // The live allocations, newest first, with the used range of the slab each lies in.
      var headers: [(header: UInt, slab: Int)] = []
      var header = ProcessMemory.word(at: task &+ Layout.lastAllocation) ?? 0
      while header != 0 {
        guard headers.count < Layout.mostAllocations, header & 15 == 0,
          let slab = used.firstIndex(where: { $0.contains(header) }),
          ProcessMemory.word(at: header &+ 8) == used[slab].lowerBound &- Layout.slabHeader,
          let previous = ProcessMemory.word(at: header)
        else { return nil }
        headers.append((header, slab))
        header = previous
      }
      var frame: UInt?
      for (index, allocation) in headers.enumerated() {
        let memory = allocation.header &+ Layout.allocationHeader
        let newer = index > 0 ? headers[index - 1] : nil
        let end = newer.flatMap { $0.slab == allocation.slab ? $0.header : nil } ?? used[allocation.slab].upperBound
        if hit >= memory, hit < end {
          frame = memory
          break
        }
      }
      guard let frame else { return nil }
      var context = ProcessMemory.word(at: task &+ 64) ?? 0
      var resume = ProcessMemory.word(at: task &+ 56) ?? 0
      for _ in 0..<64 where context != 0 {
        if context == frame {
          guard !facts.resumeAdapters.contains(resume), map.isInImageCode(resume),
            let symbol = symbol(at: resume), !Self.isHarnessFunction(symbol.name)
          else { return nil }
          return functionName(at: resume)
        }
        guard let parent = ProcessMemory.word(at: context), let parentResume = ProcessMemory.word(at: context &+ 8)
        else { return nil }
        (context, resume) = (parent, parentResume)
      }
      return nil
    }

    /// Whether a function (a partial function of an async one: `(1) await resume partial function
    /// for …`) is the harness's own.
    private static func isHarnessFunction(_ mangled: String) -> Bool {
      guard let full = Demangler.full(mangled) else { return false }
      let named = full.firstRange(of: " function for ").map { String(full[$0.upperBound...]) } ?? full
      return isHarness(named) || isHarness(full)
    }

    /// The task's operation, from the prefix before its root context (entry point, closure
    /// context, error: see `task(at:offset:address:)`); when the entry point is a reabstraction
    /// thunk (a `Task {}` whose closure returns a generic result), the closure its context captures.
    private func operationName(root: UInt) -> FunctionName? {
      guard let function = ProcessMemory.word(at: root &- 24), map.isInImage(function),
        let name = functionName(at: function)
      else { return nil }
      guard name.isThunk else { return name }
      guard let context = ProcessMemory.word(at: root &- 16), HeapProofs.isAlive(objectAt: context),
        let metadata = ProcessMemory.word(at: context), HeapProofs.isContextMetadata(metadata, map: map)
      else { return nil }
      let plan = CapturePlan.of(contextMetadata: UnsafeRawPointer(bitPattern: metadata)!)
      for slot in plan.slots {
        guard case .thickFunction = slot.kind,
          let inner = ProcessMemory.word(at: context &+ UInt(slot.offset)), map.isInImage(inner),
          let innerName = functionName(at: inner), !innerName.isThunk
        else { continue }
        return innerName
      }
      return nil
    }

    /// The used bytes of each slab of the task's allocator, first slab first: `firstSlab`, then
    /// each slab's `next`, each slab starting with the runtime's slab metadata; `nil` when a slab
    /// is not one.
    private func usedSlabRanges(ofTask task: UInt) -> [Range<UInt>]? {
      typealias Layout = TaskAllocatorLayout
      var ranges: [Range<UInt>] = []
      var slab = ProcessMemory.word(at: task &+ Layout.firstSlab) ?? 0
      while slab != 0, ranges.count < Layout.mostSlabs {
        guard ProcessMemory.word(at: slab) == facts.taskSlabMetadata,
          let capacity = ProcessMemory.uint32(at: slab &+ Layout.slabCapacity),
          let used = ProcessMemory.uint32(at: slab &+ Layout.slabCurrentOffset), used <= capacity,
          let next = ProcessMemory.word(at: slab &+ Layout.slabNext)
        else { return nil }
        let start = slab &+ Layout.slabHeader
        ranges.append(start..<(start &+ UInt(used)))
        slab = next
      }
      return ranges
    }

    /// The key of the task's own task-local item whose value, at `hit`, holds `child`, and how.
    private func taskLocalValue(ofTask task: UInt, at hit: UInt, holding child: HeapNode, in used: [Range<UInt>]) -> (
      key: UInt, HeapStep
    )? {
      typealias Layout = TaskAllocatorLayout
      var item = ProcessMemory.word(at: task &+ Layout.taskLocalHead) ?? 0
      for _ in 0..<Layout.mostItems {
        // An item outside the task's used memory is a parent's (or stale): the walk ends there.
        guard item != 0, item & 7 == 0, used.contains(where: { $0.contains(item) }),
          let link = ProcessMemory.word(at: item), let valueType = ProcessMemory.word(at: item &+ Layout.itemValueType)
        else { return nil }
        if valueType != 0, let element = ElementType(valueType) {
          let storage = (item + Layout.itemHeader + element.alignment - 1) & ~(element.alignment - 1)
          if hit >= storage, hit - storage < element.stride,
            used.contains(where: { $0.contains(storage) && $0.upperBound - storage >= element.stride }),
            let step = elementHolds(element, offset: hit - storage, address: hit, child: child),
            let key = ProcessMemory.word(at: item &+ Layout.itemKey)
          {
            return (key, step)
          }
        }
        // Link type 1: the next item is a parent task's.
        guard link & 3 != 1 else { return nil }
        item = link & ~3
      }
      return nil
    }

    /// The global or static variable that holds a task-local key (the `TaskLocal` object a
    /// `@TaskLocal` property's `$` projection is): `Request.$context`.
    private func taskLocalName(_ key: UInt) -> String? {
      guard let pointer = UnsafeRawPointer(bitPattern: key) else { return nil }
      return HeapScan.directGlobals(of: [pointer]).first ?? nil
    }
  }
#endif
