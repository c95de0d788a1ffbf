#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// Names what holds an object nobody tracked, by looking for words equal to its address in the
  /// allocator's memory and in the writable segments of loaded images (globals), believing each
  /// such word only once what holds it is proved, then climbing: the holder's own holders are
  /// looked for the same way, up to something that names the chain. Linux only (glibc's allocator,
  /// or AddressSanitizer's or ThreadSanitizer's through their interface).
  ///
  /// The memory is read once per scan, through `/proc/self/mem`, into a copy of the scan's own
  /// (`WordSearch`), which each step up searches; a word found there counts only if the live word
  /// still equals the address. Scans run where they are called, beside each other: a scan that
  /// waited for another would block its thread (with Swift concurrency, one of a few for all tasks).
  ///
  /// A word is a holder when it lies (see `HeapAllocator` for how an allocation is found, and
  /// `HeapProofs` for each proof, every word read through `/proc/self/mem`):
  /// - in a global or static variable of a Swift image, at its start (or, for a closure, at its
  ///   context), whose type is not `weak`, `unowned`, an unsafe pointer, an `ObjectIdentifier` or
  ///   an integer: `the global Registry.shared`;
  /// - in a live instance of a class, at a stored property (structs looked into, and an enum's
  ///   payload for the case the value holds, from the enum's own `getEnumTag` on a copy; a
  ///   `ManagedBuffer`'s header too, under a lock the scan does not take) that holds a
  ///   strong reference there: a class (or an optional one) of which the object is an instance,
  ///   its own or a superclass (a stale word of a freed object, in memory its new owner has not yet
  ///   written over, may hold another class's address), a class-bound existential, another
  ///   existential (`any DispatchSourceTimer`) whose type word is the object's own class, a closure's
  ///   context, a collection's storage or a block; the class's metadata in an image, or, for a
  ///   generic class, vouched for by the runtime (`GenericMetadataProof`);
  /// - in a live closure context (or box) whose metadata is in an image, at a capture that holds it
  ///   (its capture descriptor says so), the closure then named by its function, found next to the
  ///   context where the closure is stored and named from the image's symbol table;
  /// - in an array's storage, at an element below its count whose type holds a reference there
  ///   (not an integer or a pointer: unused capacity and `[UInt]` are never holders); in a
  ///   dictionary's storage, at an occupied bucket's value, with its key when it is a string or an
  ///   integer (an element that is a struct or an enum is read as a stored value once its metadata
  ///   is proved genuine);
  /// - in a heap block (the blocks runtime's `_NSConcreteMallocBlock`, alive by its reference count)
  ///   made from a Swift closure, or the block `dispatch_block_create` made around one (its private
  ///   data's magic number), held by a `DispatchWorkItem`'s `_block`;
  /// - in a Dispatch continuation whose function is the block's own invoke function, itself the
  ///   handler of a `dispatch_after` timer source (its type is `_dispatch_source_type_after`);
  /// - in a Dispatch continuation (its flags, and its function the block's invoke function or one
  ///   that consumes the block), held in a queue's item list (`DispatchQueue.async` on a suspended
  ///   or busy queue), as a source's event, cancel or registration handler, or in a group's notify
  ///   list, then by that queue, source or group (its vtable libdispatch's, its list walked from its
  ///   head to the block), then by its Swift wrapper, and up from there (`HeapHolders+Dispatch.swift`
  ///   has each layout and where it comes from);
  /// - in a task (the runtime's task metadata), at its operation's context, the task's state read
  ///   from the runtime's own layout: where it waits (its resume function and its contexts' resume
  ///   functions), whether it runs;
  /// - only for an object the scan names nothing else for (a second climb, `believesFrameWords`),
  ///   in a suspended task's slab, in the memory of a live allocation of its allocator that is a
  ///   context on its resume chain (an async frame: `ResumeContext`, then each context's parent),
  ///   the task proved as for a task-local value, the frame named by the function that resumes it:
  ///   conservative evidence, as the runtime does not say whether the slot is live at the
  ///   suspension point (a dead slot keeps its bits), and the line says so.
  /// Foundation's block observer is the block swift-foundation's `NotificationCenter._addObserver`
  /// registers (which swift-corelibs-foundation's `addObserver(forName:object:queue:using:)` calls),
  /// named by the string key of the dictionary that holds it.
  ///
  /// What stays unnamed: a holder on a thread's stack or in thread-local storage (stacks are not
  /// read: a stale frame is not a holder); a generic box, whose metadata the runtime makes in
  /// memory nothing proves to be metadata, and an instance of a generic class that
  /// `GenericMetadataProof` does not prove (more than 4 parameters, packs, value parameters,
  /// arguments that are tuples, functions, existentials or metatypes, or nested more than 3
  /// deep); an instance of a class whose image has no symbol table (stripped: only a type
  /// descriptor the symbol table names is handed to the runtime); a set's storage; a dictionary key; with glibc, a word more than 128 KiB into an allocation in an arena (an array of
  /// more than 16,000 references that `malloc` did not map on its own: its header is not looked for
  /// that far back); a holder inside a `@_rawLayout` value (`Mutex`, `Atomic`); a value inside a
  /// tuple or an indirect enum case; a word in a task's async frame when any other holder names the
  /// object, when the task runs (its frames change under the scan), is a child task or has
  /// completed, or when the word lies outside the contexts on its resume chain (a generic value its
  /// function keeps in an allocation of its own, the root context in the task's own allocation, a
  /// frame more than 64 contexts up, a task with more than 1,024 live allocations); a block queued
  /// on the main queue or a global queue (libdispatch's own globals, not read), or so far behind
  /// its queue's head that the steps up (one per item ahead) run out; under ThreadSanitizer, a
  /// block Dispatch keeps (its interceptors submit a context or a block of their own around the
  /// user's: a pending `asyncAfter` block, a queued block, a source's handler, a notify block); memory
  /// Foundation's or Dispatch's C code allocated in other shapes; under a sanitizer, a mapping of
  /// its allocator whose probes all fall between live allocations (`HeapAllocator`); anything past
  /// the scan's bounds (7 steps up, 8 holders a step, 3 holders named per object, mappings of 4 GiB
  /// or less, 4 GiB read, 10 s per scan). An object whose class is declared in the harness itself
  /// (`PresentationModelDiagnostics`, `PresentationModelTesting`, `PresentationCaptureReading`) and
  /// the task running the scan are never named.
  enum HeapScan {
    struct Result {
      var holders: [String] = []
      /// The global or static variable whose own storage holds the object, when one does (not
      /// through a collection or another object): `Registry.shared`.
      var directGlobal: String?
      /// Bytes read through `/proc/self/mem` (the memory is read once for all the objects of one
      /// scan: the first object's result counts it).
      var scannedBytes = 0
      var hits = 0
      var rejectedHits = 0
      /// How many searches of the memory read (one per step up the chains).
      var passes = 0
      var duration: Duration = .zero
    }

    static let maximumDepth = 7
    static let maximumFrontier = 8
    /// Dispatch list items (a continuation held by another's `do_next`) searched per step, besides
    /// the frontier: only a queue's or a group's list walk names one, and stale ones abound.
    static let maximumListItems = 32
    static let mostBytes = 4 << 30
    /// No step up starts once the scan (its objects together) has used this much of its thread's
    /// CPU time. CPU time, not wall time: the work a scan may do is the same on a loaded machine
    /// (parallel tests, other processes), so what a report names does not depend on the load.
    static let cpuTimeLimit: Duration = .seconds(10)

    /// The CPU time the calling thread has used (the scan runs on its caller's thread only).
    static func threadCPUTime() -> Duration {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Whether this process's allocator and memory can be read (Linux, glibc or a sanitizer).
    static var isAvailable: Bool { ProcessMemory.isReadable && HeapAllocator.current != nil }

    /// `glibc`, `AddressSanitizer` or `ThreadSanitizer`; `nil` where the scan cannot run.
    static var allocatorName: String? {
      guard isAvailable, let allocator = HeapAllocator.current else { return nil }
      switch allocator {
      case .glibc: return "glibc"
      case .sanitizer(_, _, let isAddressSanitizer): return isAddressSanitizer ? "AddressSanitizer" : "ThreadSanitizer"
      }
    }

    /// For each of `targets`, the Swift global or static variable whose own storage holds it (its
    /// symbol starts at the word, and its type owns a reference), from a read of the loaded images'
    /// writable segments only: cheap (no allocator memory is read), so it runs wherever
    /// `/proc/self/mem` is readable, under the sanitizers too.
    static func directGlobals(of targets: [UnsafeRawPointer]) -> [String?] {
      guard ProcessMemory.isReadable, !targets.isEmpty else { return targets.map { _ in nil } }
      let map = MemoryMap.current()
      let images = LoadedImage.all(in: map)
      let words = WordSearch(ranges: images.flatMap(\.writableSegments), budget: mostBytes)
      var names = [String?](repeating: nil, count: targets.count)
      for hit in words.hits(of: targets.map { UInt(bitPattern: $0) }, budget: mostBytes) where names[hit.target] == nil
      {
        guard let image = images.first(where: { $0.writableSegments.contains { $0.contains(hit.address) } }),
          let symbol = ImageSymbols.symbol(at: hit.address, in: image), symbol.address == hit.address,
          symbol.name.hasPrefix("$s"), let full = Demangler.full(symbol.name), !HolderSearch.isHarness(full),
          let typeStart = full.firstRange(of: " : ")
        else { continue }
        let type = full[typeStart.upperBound...]
        let nonOwning = ["weak ", "unowned", "Swift.Unsafe", "Swift.ObjectIdentifier", "Swift.Unmanaged"]
        guard !nonOwning.contains(where: { type.hasPrefix($0) }) else { continue }
        names[hit.target] = HeapMemory.cleanedFunctionName(Demangler.simplified(symbol.name) ?? full).name
      }
      return names
    }

    /// The holders of each of `targets`, from one read of the memory.
    static func holders(of targets: [UnsafeRawPointer], maximumHolders: Int) -> [Result] {
      guard ProcessMemory.isReadable, let allocator = HeapAllocator.current, !targets.isEmpty else {
        return targets.map { _ in Result() }
      }
      let clock = ContinuousClock()
      var start = clock.now
      let deadline = threadCPUTime() + cpuTimeLimit
      let memory = HeapMemory(allocator: allocator)
      var counted = 0
      return targets.map { target in
        let search = HolderSearch(target: UInt(bitPattern: target), memory: memory)
        search.run(maximumHolders: maximumHolders, until: deadline)
        var result = search.result(maximumHolders: maximumHolders)
        if result.holders.isEmpty {
          // Nothing names it: climb again, believing words in tasks' async frames (conservative
          // evidence, which would otherwise take the place of precise holders in the climb).
          let fallback = HolderSearch(target: UInt(bitPattern: target), memory: memory, believingFrameWords: true)
          fallback.run(maximumHolders: maximumHolders, until: deadline)
          let framed = fallback.result(maximumHolders: maximumHolders)
          result.holders = framed.holders
          result.hits += framed.hits
          result.rejectedHits += framed.rejectedHits
          result.passes += framed.passes
        }
        // The first object's figures include the read of the memory.
        result.scannedBytes = memory.words.bytesRead - counted
        counted = memory.words.bytesRead
        result.duration = start.duration(to: clock.now)
        start = clock.now
        return result
      }
    }
  }

  /// What a scan reads once for all its objects: the mappings, the loaded images, the allocator's
  /// regions and a copy of their memory; and the names it looked up.
  final class HeapMemory {
    let map: MemoryMap
    let images: [LoadedImage]
    let allocator: HeapAllocator
    let facts = RuntimeFacts.current
    let words: WordSearch
    /// The allocator's regions when the memory was read.
    let regions: [HeapAllocator.Region]
    /// The task running the scan, which is never a holder.
    let currentTask: UInt
    private var functionNames: [UInt: FunctionName?] = [:]

    init(allocator: HeapAllocator) {
      map = MemoryMap.current()
      images = LoadedImage.all(in: map)
      regions = allocator.heapRegions(in: map, images: images, excluding: 0..<0)
      self.allocator = allocator
      words = WordSearch(
        ranges: images.flatMap(\.writableSegments) + regions.map { $0.start..<$0.end }, budget: HeapScan.mostBytes)
      currentTask = Self.currentTaskAddress()
    }

    private static func currentTaskAddress() -> UInt {
      typealias Current = @convention(c) () -> UnsafeRawPointer?
      let process = dlopen(nil, RTLD_NOW)
      defer { if let process { dlclose(process) } }
      guard let entry = dlsym(process, "swift_task_getCurrent") else { return 0 }
      return UInt(bitPattern: unsafeBitCast(entry, to: Current.self)())
    }

    /// The simplified name of the function at `address` (or of the async function whose
    /// descriptor is there), from its image's symbol table: `closure #1 in Poller.start()`.
    func functionName(at address: UInt) -> FunctionName? {
      if let known = functionNames[address] { return known }
      let name = symbol(at: address).map { Self.cleanedFunctionName(Demangler.simplified($0.name) ?? $0.name) }
      functionNames[address] = .some(name)
      return name
    }

    /// The symbol at `address` in the image that holds it.
    func symbol(at address: UInt) -> ImageSymbols.Symbol? {
      ImageSymbols.symbol(at: address, in: images, map: map)
    }

    /// `partial apply for closure #1 in f()` → `closure #1 in f()`; `Task<>.sleep` → `Task.sleep`;
    /// thunks are marked as such.
    static func cleanedFunctionName(_ name: String) -> FunctionName {
      var name = name
      for prefix in ["async function pointer to ", "partial apply for ", "merged ", "static "] {
        while name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
      }
      name = name.replacing("<>.", with: ".")
      return FunctionName(name: name, isThunk: name.contains("thunk"))
    }
  }

  /// One search for the holders of one object: the nodes found so far, climbing from it.
  final class HolderSearch {
    struct Entry {
      let node: HeapNode
      /// The node this one holds (`nil` for the survivor).
      let child: Int?
      let step: HeapStep?
    }

    let memory: HeapMemory
    /// Whether a word in a task's slab that is not a task-local value is believed when it lies in
    /// a live async frame of the task (`taskFrameHolder`): only in a second climb, for an object
    /// the first named nothing for.
    let believesFrameWords: Bool
    private(set) var entries: [Entry]
    private var byAddress: [UInt: Int] = [:]
    /// Holders found to be one of the nodes below them: the chain from `top` down is held `by` one
    /// of its own nodes (a closure's captured `var` holding the closure, an object of the chain).
    private(set) var cycles: [(top: Int, by: Int, step: HeapStep)] = []
    private var hits = 0
    private var rejected = 0
    private var passes = 0

    var map: MemoryMap { memory.map }
    var images: [LoadedImage] { memory.images }
    var allocator: HeapAllocator { memory.allocator }
    var regions: [HeapAllocator.Region] { memory.regions }
    var facts: RuntimeFacts { memory.facts }
    var currentTask: UInt { memory.currentTask }

    init(target: UInt, memory: HeapMemory, believingFrameWords: Bool = false) {
      self.memory = memory
      believesFrameWords = believingFrameWords
      entries = [Entry(node: HeapNode(address: target, kind: .survivor), child: nil, step: nil)]
      byAddress[target] = 0
    }

    /// Climbs until `maximumHolders` roots are found, or the depth, byte or CPU-time limit
    /// (`deadline`, in this thread's CPU time) is reached.
    func run(maximumHolders: Int, until deadline: Duration) {
      var frontier = [0]
      for _ in 1...HeapScan.maximumDepth {
        guard
          !frontier.isEmpty, memory.words.bytesRead < HeapScan.mostBytes, HeapScan.threadCPUTime() < deadline
        else {
          break
        }
        frontier = climb(from: frontier)
        if entries.filter(\.node.isRoot).count + cycles.count >= maximumHolders { break }
      }
    }

    /// One step up: the holders of `frontier`'s nodes, all found in one search of the memory
    /// read at the start. The new nodes that are not roots form the next frontier, closure
    /// contexts, blocks and objects before collections' storage (most of which, in a failing
    /// test, are the report's own lists of survivors, held from a stack) and tasks' slabs, and
    /// last the slabs whose word may lie in an async frame.
    private func climb(from frontier: [Int]) -> [Int] {
      let targets = frontier.map { entries[$0].node.address }
      let found = memory.words.hits(of: targets, budget: HeapScan.mostBytes)
      passes += 1
      hits += found.count
      // The order the next frontier keeps: 0, closure contexts, blocks and objects; 1, collections'
      // storage and task slabs; 2, task slabs holding a word that only a live async frame makes a
      // holder (conservative evidence, `TaskSlabHit.isFrameWord`).
      var next: [(index: Int, tier: Int)] = []
      for hit in found {
        let childIndex = frontier[hit.target]
        guard let (holder, step) = classify(hit.address, child: entries[childIndex].node) else {
          rejected += 1
          continue
        }
        if let existing = byAddress[holder.address] {
          if isBelow(existing, childIndex) { cycles.append((top: childIndex, by: existing, step: step)) }
          continue
        }
        entries.append(Entry(node: holder, child: childIndex, step: step))
        byAddress[holder.address] = entries.count - 1
        guard !holder.isRoot else { continue }
        switch holder.kind {
        case .taskSlab(let slabHit) where slabHit.isFrameWord: next.append((entries.count - 1, 2))
        case .arrayStorage, .dictionaryStorage, .taskSlab: next.append((entries.count - 1, 1))
        default: next.append((entries.count - 1, 0))
        }
      }
      // Dispatch list items have a frontier of their own (`HeapScan.maximumListItems`): a
      // continuation's `do_next` is stale outside a list and freed memory keeps many (in a busy
      // test process one queued block's neighbour had 67 such holders, which crowded its queue
      // out of the frontier).
      let listItems = next.filter { entries[$0.index].node.isDispatchListItem }.map(\.index)
      let others = next.filter { !entries[$0.index].node.isDispatchListItem }
      return others.sorted { $0.tier < $1.tier }.prefix(HeapScan.maximumFrontier).map(\.index)
        + listItems.prefix(HeapScan.maximumListItems)
    }

    /// Whether `node` is `index` or lies on the chain below it.
    private func isBelow(_ node: Int, _ index: Int) -> Bool {
      var current: Int? = index
      while let at = current {
        if at == node { return true }
        current = entries[at].child
      }
      return false
    }

    func result(maximumHolders: Int) -> HeapScan.Result {
      HeapScan.Result(
        holders: HolderWording.holders(of: self, maximumHolders: maximumHolders),
        directGlobal: HolderWording.directGlobal(in: self), hits: hits, rejectedHits: rejected, passes: passes)
    }

    func functionName(at address: UInt) -> FunctionName? { memory.functionName(at: address) }
    func symbol(at address: UInt) -> ImageSymbols.Symbol? { memory.symbol(at: address) }

    /// Whether a type or function of this (full) name is the harness's own.
    static func isHarness(_ qualifiedName: String) -> Bool {
      ["PresentationModelDiagnostics.", "PresentationModelTesting.", "PresentationCaptureReading."].contains {
        qualifiedName.hasPrefix($0) || qualifiedName.contains(" in " + $0) || qualifiedName.hasPrefix("static " + $0)
      }
    }

    static func cleanedFunctionName(_ name: String) -> FunctionName { HeapMemory.cleanedFunctionName(name) }
  }
#endif
