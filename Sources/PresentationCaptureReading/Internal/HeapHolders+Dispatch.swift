#if os(Linux) && canImport(Glibc)
  internal import Dispatch
  internal import Glibc

  /// A part of Dispatch the heap scan climbs through, from a block waiting to run up to the
  /// Dispatch object that keeps it, and from there to its Swift wrapper (`DispatchQueue`,
  /// `DispatchSource`, `DispatchGroup`) and what holds that.
  enum DispatchPart {
    /// A continuation whose `do_next` holds the one below it: an item ahead of it in a queue's or a
    /// group's list, believed only once that list, walked from its head, reaches it. A
    /// continuation's `do_next` is stale outside a list (one taken from the thread's cache keeps
    /// the cache's next entry there: a pending `asyncAfter` continuation's pointed at a block
    /// queued later, and the scan named that block's object as the timer's), so nothing else
    /// takes such a node as what it holds.
    case listItem
    /// A source's refs (`dispatch_source_refs_s`), which keep its handlers.
    case sourceRefs(handler: DispatchSourceHandler, type: String)
    /// A queue (`dispatch_lane_s`) whose item list holds the block.
    case queue(label: String?, state: DispatchQueueState)
    /// A source (`dispatch_source_s`) whose refs keep the handler.
    case source(handler: DispatchSourceHandler, type: String)
    /// A group (`dispatch_group_s`) whose notify list holds the block; how many `leave()` calls
    /// its count still waits for.
    case group(pendingLeaves: UInt32)

    /// Whether this part is a Dispatch object a user made (a queue, a source or a group): what
    /// names the chain.
    var isObject: Bool {
      switch self {
      case .listItem, .sourceRefs: false
      case .queue, .source, .group: true
      }
    }
  }

  /// Which of a source's handlers (`ds_handler[DS_EVENT_HANDLER]`, `[DS_CANCEL_HANDLER]`,
  /// `[DS_REGISTN_HANDLER]`, src/event/event_internal.h).
  enum DispatchSourceHandler: Int {
    case event = 0
    case cancel
    case registration

    var name: String {
      switch self {
      case .event: "event handler"
      case .cancel: "cancel handler"
      case .registration: "registration handler"
      }
    }
  }

  /// What a queue's state word says, read once (it may change the moment after).
  enum DispatchQueueState {
    case suspended, inactive, active
  }

  /// The addresses and offsets the scan needs to recognise libdispatch's objects, resolved at
  /// startup from libdispatch's own symbol table (`.symtab`: the vtables and functions are local
  /// symbols) and from the Swift overlay's metadata. Every layout fact below is from
  /// swift-corelibs-libdispatch at the tag `swift-6.3.1-RELEASE` (the libdispatch this toolchain
  /// ships), for 64-bit Linux (no Objective-C: `OS_OBJECT_HAVE_OBJC1` is 0), and was checked
  /// against a live queue, timer source and group on Swift 6.3.1, Linux x86-64.
  ///
  /// - Every Dispatch object starts with `_DISPATCH_OBJECT_HEADER` (src/object_internal.h,
  ///   os/object_private.h): `do_vtable` (0), `do_ref_cnt` and `do_xref_cnt` (8 and 12, `int`,
  ///   one less than the count; `INT_MAX` for a global object), `do_next` (16), `do_targetq` (24),
  ///   `do_ctxt` (32), `do_finalizer` (40). Its vtable is `__OS_dispatch_<class>_vtable`.
  /// - A continuation (`DISPATCH_CONTINUATION_HEADER`, src/queue_internal.h, the 64-bit branch):
  ///   `dc_flags` (0, below `0x1000`: "If dc_flags is less than 0x1000, then the object is a
  ///   continuation"; `DC_FLAG_CONSUME` 0x4, `DC_FLAG_BLOCK` 0x10, `DC_FLAG_ALLOCATED` 0x100),
  ///   `dc_priority` (8), `do_next` (16), `dc_voucher` (24), `dc_func` (32), `dc_ctxt` (40: the
  ///   block), `dc_data` (48), `dc_other` (56). `_dispatch_continuation_init` (src/inline_internal.h)
  ///   sets `dc_func` to the block's invoke function, or to `_dispatch_call_block_and_release` when
  ///   the continuation consumes its block (`dispatch_async`, `dispatch_group_notify`, a source's
  ///   cancel and registration handlers); for a block with private data (`dispatch_block_create`'s,
  ///   a `DispatchWorkItem`'s) `_dispatch_continuation_init_slow` (src/queue.c) sets
  ///   `_dispatch_block_async_invoke_and_release` instead, or `_dispatch_block_async_invoke` when it
  ///   does not consume it.
  /// - A queue (`DISPATCH_LANE_CLASS_HEADER`, src/queue_internal.h; `_DISPATCH_QUEUE_CLASS_HEADER`'s
  ///   second branch, the pointer-sized field first): after the object header, `dq_items_tail` (48),
  ///   `dq_state` (56), `dq_serialnum` (64), `dq_label` (72), `dq_atomic_flags` and `dq_priority`
  ///   (80, 84), `ds_refs` (88), `dq_sref_cnt` and `dq_sidelock` (96, 100), `dq_items_head` (104).
  ///   Items are linked by `do_next`, from the head (`os_mpsc_push_update_tail`). In `dq_state`,
  ///   bits 57-63 count suspensions (`DISPATCH_QUEUE_SUSPEND_INTERVAL` 1 << 58,
  ///   `DISPATCH_QUEUE_HAS_SIDE_SUSPEND_CNT` 1 << 57) and bit 56 is `DISPATCH_QUEUE_INACTIVE`.
  /// - A source (`DISPATCH_SOURCE_CLASS_HEADER`, src/source_internal.h) is a lane: its refs at 88.
  ///   Its refs (`DISPATCH_SOURCE_REFS_HEADER`, src/event/event_internal.h): `du_type` (0, the
  ///   `_dispatch_source_type_*` it was made with), `du_owner_wref` (8, the source's address
  ///   inverted), `du_state` (16), `du_ident` (24, 32-bit on Linux), filter, flags, `du_fflags`,
  ///   `du_priority`, then `ds_handler[3]` (40, 48, 56). A timer's refs are allocated on their own
  ///   (`_dispatch_source_timer_create`, src/event/event.c), as are those of a type with
  ///   `EV_UDATA_SPECIFIC` (data, read, write); a signal source's follow a
  ///   `dispatch_unote_linkage_s` (24 bytes: two list pointers and a muxnote) in their allocation
  ///   (`_dispatch_unote_create`). `_dispatch_source_handler_replace` (src/source.c) stores a
  ///   handler's continuation in `ds_handler[kind]`.
  /// - A group (`struct dispatch_group_s`, src/semaphore_internal.h): after the object header,
  ///   `dg_state` (48: its low 32 bits count `enter()` calls downwards in steps of 4,
  ///   `DISPATCH_GROUP_VALUE_INTERVAL`), `dg_notify_head` (56), `dg_notify_tail` (64); notify
  ///   continuations are linked by `do_next` (`_dispatch_group_notify`, src/semaphore.c).
  /// - The Swift overlay's `DispatchQueue`, `DispatchSource` and `DispatchGroup`
  ///   (src/swift/Wrapper.swift) keep the C object in `__wrapped`; its offset is read from their
  ///   field records.
  struct DispatchFacts: Sendable {
    /// A source type's address, the Swift protocol a user knows it by, and where its refs start
    /// in their allocation.
    typealias SourceType = (address: UInt, name: String, refsOffset: UInt)
    /// A Swift wrapper class's metadata, the offset of its `__wrapped`, and its name.
    typealias Wrapper = (metadata: UInt, offset: UInt, typeName: String)

    /// The functions of a continuation that consumes its block: a plain block's
    /// (`_dispatch_call_block_and_release`) and a dispatch block's
    /// (`_dispatch_block_async_invoke_and_release`); and the function of one that keeps a dispatch
    /// block (`_dispatch_block_async_invoke`: a source's event handler set with a QoS or flags, or
    /// from a `DispatchWorkItem`).
    let consumers: (block: UInt, dispatchBlock: UInt, keptDispatchBlock: UInt)
    /// `lanes`: `__OS_dispatch_queue_serial_vtable` and `__OS_dispatch_queue_concurrent_vtable`,
    /// the queues `dispatch_queue_create` makes (the main and global queues are libdispatch's own
    /// globals); `__OS_dispatch_source_vtable`, `__OS_dispatch_group_vtable`.
    let vtables: (lanes: [UInt], source: UInt, group: UInt)
    let sourceTypes: [SourceType]
    /// `nil` for a wrapper whose field records do not give `__wrapped`.
    let wrappers: (queue: Wrapper?, source: Wrapper?, group: Wrapper?)

    static let flagsLimit: UInt = 0x1000
    static let flagConsume: UInt = 0x4
    static let flagBlock: UInt = 0x10
    static let flagAllocated: UInt = 0x100
    /// `DISPATCH_OBJECT_LISTLESS`, the `do_next` of an object in no list.
    static let listless: UInt = 0xFFFF_FFFF_89AB_CDEF
    /// The most items of a queue's or a group's list walked to find a continuation.
    static let longestList = 4096

    /// The facts, or `nil` when libdispatch is not loaded or one of its symbols is missing (the
    /// scan then names no Dispatch object).
    static let current: DispatchFacts? = {
      let images = LoadedImage.all(in: MemoryMap.current())
      guard let image = images.first(where: { $0.path.hasSuffix("/libdispatch.so") }) else { return nil }
      func address(_ name: String) -> UInt? { ImageSymbols.address(of: name, in: image) }
      let typeNames: [(symbol: String, name: String, refsOffset: UInt)] = [
        ("_dispatch_source_type_timer", "DispatchSourceTimer", 0),
        ("_dispatch_source_type_timer_with_clock", "DispatchSourceTimer", 0),
        ("_dispatch_source_type_interval", "DispatchSourceTimer", 0),
        ("_dispatch_source_type_data_add", "DispatchSourceUserDataAdd", 0),
        ("_dispatch_source_type_data_or", "DispatchSourceUserDataOr", 0),
        ("_dispatch_source_type_data_replace", "DispatchSourceUserDataReplace", 0),
        ("_dispatch_source_type_read", "DispatchSourceRead", 0),
        ("_dispatch_source_type_write", "DispatchSourceWrite", 0),
        ("_dispatch_source_type_signal", "DispatchSourceSignal", 24),
      ]
      var types: [SourceType] = []
      for type in typeNames {
        guard let found = address(type.symbol) else { return nil }
        types.append((found, type.name, type.refsOffset))
      }
      guard
        let callBlockAndRelease = address("_dispatch_call_block_and_release"),
        let blockAsyncInvokeAndRelease = address("_dispatch_block_async_invoke_and_release"),
        let blockAsyncInvoke = address("_dispatch_block_async_invoke"),
        let serial = address("__OS_dispatch_queue_serial_vtable"),
        let concurrent = address("__OS_dispatch_queue_concurrent_vtable"),
        let source = address("__OS_dispatch_source_vtable"), let group = address("__OS_dispatch_group_vtable")
      else { return nil }
      return DispatchFacts(
        consumers: (callBlockAndRelease, blockAsyncInvokeAndRelease, blockAsyncInvoke),
        vtables: ([serial, concurrent], source, group), sourceTypes: types,
        wrappers: (
          wrapper(DispatchQueue.self, "DispatchQueue"), wrapper(DispatchSource.self, "DispatchSource"),
          wrapper(DispatchGroup.self, "DispatchGroup")
        ))
    }()

    /// The wrapper class's metadata and where its field records put `__wrapped` (a C pointer,
    /// right after the object header in Swift 6.3.1's overlay).
    private static func wrapper(_ type: AnyClass, _ typeName: String) -> Wrapper? {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      guard case .fields(let fields) = StoredFields.ofClass(metadata),
        let field = fields.first(where: { $0.name == "__wrapped" }), field.offset >= 16
      else { return nil }
      return (UInt(bitPattern: metadata), UInt(field.offset), typeName)
    }

    /// Whether the words at `start` are a continuation's: flags below `0x1000` with
    /// `DC_FLAG_ALLOCATED` (and `required`), its function in an image's code.
    func isContinuation(at start: UInt, required: UInt = 0, map: MemoryMap) -> Bool {
      guard let flags = ProcessMemory.word(at: start), flags < Self.flagsLimit,
        flags & (Self.flagAllocated | required) == Self.flagAllocated | required,
        let function = ProcessMemory.word(at: start &+ 32), map.isInImageCode(function)
      else { return false }
      return true
    }

    /// Whether the object at `start` has `vtable` and reference counts a live object can have
    /// (a freed allocation's first words are the allocator's list links).
    static func isLiveObject(at start: UInt, vtables: [UInt]) -> Bool {
      guard let vtable = ProcessMemory.word(at: start), vtables.contains(vtable),
        let references = ProcessMemory.int32(at: start &+ 8), let external = ProcessMemory.int32(at: start &+ 12)
      else { return false }
      func plausible(_ count: Int32) -> Bool { (0..<(1 << 24)).contains(count) || count == Int32.max }
      return plausible(references) && (plausible(external) || external == -1)
    }

    /// Whether `continuation` is in the list that starts with the word at `head` and ends with the
    /// word at `tail`, linked by `do_next` (at most ``longestList`` items): the walk from the head
    /// must meet it and then end at the tail, whose `do_next` is null. A list whose head is stale
    /// (a concurrent queue passes its items on to its target at once, and its head may keep the
    /// address of one long gone, which a new continuation now occupies) has no tail there, or
    /// another one.
    static func list(from head: UInt, to tail: UInt, contains continuation: UInt) -> Bool {
      guard var item = ProcessMemory.word(at: head), let last = ProcessMemory.word(at: tail), last != 0 else {
        return false
      }
      var found = false
      for _ in 0..<longestList {
        if item == continuation { found = true }
        guard item != 0, item != listless, let next = ProcessMemory.word(at: item &+ 16) else { return false }
        if item == last { return found && next == 0 }
        item = next
      }
      return false
    }

    /// A C string of up to 255 bytes at `address`, if it is valid UTF-8.
    static func label(at address: UInt) -> String? {
      guard address != 0 else { return nil }
      var bytes = [UInt8](repeating: 0, count: 256)
      let read = bytes.withUnsafeMutableBytes { ProcessMemory.read(address, into: $0.baseAddress!, count: $0.count) }
      guard read > 0, let end = bytes[..<read].firstIndex(of: 0) else { return nil }
      return String(validating: bytes[..<end], as: UTF8.self)
    }
  }

  extension HolderSearch {
    /// The Dispatch holder of `child` at `offset` into `allocation` (whose first word is `first`), and how it holds it; `nil` unless every proof holds (see `DispatchFacts` for
    /// the layouts):
    /// - a block is held at `dc_ctxt` by a continuation that consumes it (its flags, and its
    ///   function `_dispatch_call_block_and_release`, or `_dispatch_block_async_invoke_and_release`
    ///   for a dispatch block), or a dispatch block by one that keeps it
    ///   (`_dispatch_block_async_invoke`);
    /// - a continuation by the previous item's `do_next` (another continuation, a `.listItem`
    ///   that only a queue's or a group's list walk can name), by a queue's
    ///   `dq_items_head` or `dq_items_tail` or a group's `dg_notify_head` or `dg_notify_tail` (a
    ///   live object of that vtable, whose list, walked from its head, reaches it), or at
    ///   `ds_handler[kind]` by a source's refs (their `du_type` one of the source types);
    /// - a source's refs by the live source whose `ds_refs` they are;
    /// - a queue, a source or a group by the live Swift wrapper whose `__wrapped` it is (its
    ///   metadata that very class's).
    func dispatchHolder(
      _ allocation: Allocation, first: UInt, offset: UInt, child: HeapNode
    ) -> (HeapNode, HeapStep)? {
      guard let dispatch = DispatchFacts.current else { return nil }
      let start = allocation.start
      switch child.kind {
      case .swiftBlock, .dispatchBlock:
        guard offset == 40, let function = ProcessMemory.word(at: start &+ 32) else { return nil }
        // What the function says of the flags: a consumer has `DC_FLAG_CONSUME`.
        let required: UInt
        switch (child.kind, function) {
        case (.swiftBlock, dispatch.consumers.block), (.dispatchBlock, dispatch.consumers.dispatchBlock):
          required = DispatchFacts.flagConsume | DispatchFacts.flagBlock
        case (.dispatchBlock, dispatch.consumers.keptDispatchBlock):
          required = DispatchFacts.flagBlock
        default:
          return nil
        }
        guard dispatch.isContinuation(at: start, required: required, map: map) else { return nil }
        return (HeapNode(address: start, kind: .continuation), HeapStep(kind: .pending))
      case .continuation:
        return continuationHolder(start, first: first, offset: offset, continuation: child.address, dispatch)
      case .dispatch(.listItem):
        return continuationHolder(
          start, first: first, offset: offset, continuation: child.address, dispatch, onlyInAList: true)
      case .dispatch(.sourceRefs(let handler, let type)):
        // The refs name their source (`du_owner_wref`, its address inverted): a source that was
        // cancelled keeps the address of refs freed since, which new refs may now occupy.
        guard offset == 88, ProcessMemory.word(at: child.address &+ 8) == ~start,
          DispatchFacts.isLiveObject(at: start, vtables: [dispatch.vtables.source])
        else {
          return nil
        }
        return (
          HeapNode(address: start, kind: .dispatch(.source(handler: handler, type: type))), HeapStep(kind: .pending)
        )
      case .dispatch(.queue):
        return wrapperHolder(start, offset: offset, wrapper: dispatch.wrappers.queue)
      case .dispatch(.source):
        return wrapperHolder(start, offset: offset, wrapper: dispatch.wrappers.source)
      case .dispatch(.group):
        return wrapperHolder(start, offset: offset, wrapper: dispatch.wrappers.group)
      default:
        return nil
      }
    }

    /// The holder of a continuation; `onlyInAList`: of one only a list's `do_next` may hold (a
    /// `.listItem`).
    private func continuationHolder(
      _ start: UInt, first: UInt, offset: UInt, continuation: UInt, _ dispatch: DispatchFacts,
      onlyInAList: Bool = false
    ) -> (HeapNode, HeapStep)? {
      // Queued behind another item: that item's `do_next` (believed once the list is walked).
      if offset == 16, first < DispatchFacts.flagsLimit, dispatch.isContinuation(at: start, map: map) {
        return (HeapNode(address: start, kind: .dispatch(.listItem)), HeapStep(kind: .pending))
      }
      if dispatch.vtables.lanes.contains(first), offset == 48 || offset == 104,
        DispatchFacts.isLiveObject(at: start, vtables: dispatch.vtables.lanes),
        DispatchFacts.list(from: start &+ 104, to: start &+ 48, contains: continuation),
        let state = ProcessMemory.word(at: start &+ 56)
      {
        let label = ProcessMemory.word(at: start &+ 72).flatMap(DispatchFacts.label(at:))
        let queueState: DispatchQueueState =
          state >> 57 != 0 ? .suspended : state & (1 << 56) != 0 ? .inactive : .active
        return (
          HeapNode(address: start, kind: .dispatch(.queue(label: label, state: queueState))), HeapStep(kind: .pending)
        )
      }
      if first == dispatch.vtables.group, offset == 56 || offset == 64,
        DispatchFacts.isLiveObject(at: start, vtables: [dispatch.vtables.group]),
        DispatchFacts.list(from: start &+ 56, to: start &+ 64, contains: continuation),
        let state = ProcessMemory.word(at: start &+ 48)
      {
        let pending = (0 &- UInt32(truncatingIfNeeded: state & 0xFFFF_FFFC)) >> 2
        return (HeapNode(address: start, kind: .dispatch(.group(pendingLeaves: pending))), HeapStep(kind: .pending))
      }
      // A source's refs, at the start of their allocation or after a unote linkage.
      guard !onlyInAList else { return nil }
      for type in dispatch.sourceTypes {
        let refs = start &+ type.refsOffset
        guard offset >= type.refsOffset + 40, offset < type.refsOffset + 64, (offset - type.refsOffset) % 8 == 0,
          (type.refsOffset == 0 ? first : ProcessMemory.word(at: refs)) == type.address,
          let handler = DispatchSourceHandler(rawValue: Int((offset - type.refsOffset - 40) / 8)),
          dispatch.isContinuation(at: continuation, map: map)
        else { continue }
        return (
          HeapNode(address: refs, kind: .dispatch(.sourceRefs(handler: handler, type: type.name))),
          HeapStep(kind: .pending)
        )
      }
      return nil
    }

    private func wrapperHolder(_ start: UInt, offset: UInt, wrapper: DispatchFacts.Wrapper?) -> (HeapNode, HeapStep)? {
      guard let wrapper, offset == wrapper.offset, ProcessMemory.word(at: start) == wrapper.metadata,
        HeapProofs.isAlive(objectAt: start)
      else { return nil }
      return (
        HeapNode(address: start, kind: .object(typeName: wrapper.typeName)),
        HeapStep(kind: .member, component: DispatchFacts.wrappedComponent)
      )
    }

    /// Whether a value of `type` (an existential that is not class-bound, `any DispatchSourceTimer`,
    /// or an optional one) at `address` holds the object `child` in its inline buffer: the
    /// container's type word (after its three-word buffer) is the child's own class metadata. A
    /// class instance is always stored inline, as one strong reference in the buffer's first word;
    /// an error existential (`any Error`, boxed) is not read.
    func existentialHoldsInline(_ type: Any.Type, at address: UInt, child: HeapNode) -> Bool {
      let metadata = unsafeBitCast(HeapProofs.unwrappingOptionals(type), to: UnsafeRawPointer.self)
      guard MetadataKind.of(metadata) == MetadataKind.existential else { return false }
      let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
      // Bit 31: not class-bound (class-bound ones are strong references already); bits 24-29: a
      // special protocol (`Error`), whose value is boxed.
      guard flags & 0x8000_0000 != 0, (flags >> 24) & 0x3F == 0 else { return false }
      switch child.kind {
      case .survivor, .object: break
      default: return false
      }
      guard let isa = ProcessMemory.word(at: child.address), ProcessMemory.word(at: isa) == 0,
        ProcessMemory.word(at: address &+ 24) == isa
      else { return false }
      return true
    }
  }

  extension HeapNode {
    /// Whether this node is a `.dispatch(.listItem)`, which has a frontier of its own.
    var isDispatchListItem: Bool {
      if case .dispatch(.listItem) = kind { return true }
      return false
    }
  }

  extension DispatchFacts {
    /// The component of a wrapper's step: its `__wrapped`, never shown.
    static let wrappedComponent = ".__wrapped"
  }

  extension HolderWording {
    /// The line of a chain through a Dispatch object a user made, or `nil` for a chain through
    /// none: what the object keeps (`a block queued on the suspended DispatchQueue "sync"`, `the
    /// event handler of a DispatchSourceTimer`, `the notify block of a DispatchGroup, waiting for
    /// 1 leave()`), what holds its Swift wrapper (`in Uploader.queue`, `in the global App.queue`),
    /// the closure, and the path from the block down to the object (`, through Cache.entry`).
    static func dispatchLine(for chain: [Int], in search: HolderSearch) -> (String, Int)? {
      let entries = search.entries
      var found: (position: Int, part: DispatchPart)?
      for (position, index) in chain.enumerated() {
        if case .dispatch(let part) = entries[index].node.kind, part.isObject {
          found = (position, part)
          break
        }
      }
      guard let (position, part) = found else { return nil }
      // Above the Dispatch object: its wrapper, and what holds that.
      var holder: String?
      if position > 0, entries[chain[position - 1]].step?.component == DispatchFacts.wrappedComponent {
        holder = wrapperHolder(Array(chain[..<(position - 1)]), wrapper: chain[position - 1], in: search)
      }
      let object: String
      switch part {
      case .queue(let label, let state):
        let adjective = state == .suspended ? "suspended " : state == .inactive ? "inactive " : ""
        let article = holder != nil || label != nil ? "the " : "a "
        object = "a block queued on \(article)\(adjective)DispatchQueue" + (label.map { " \"\($0)\"" } ?? "")
      case .source(let handler, let type):
        object = "the \(handler.name) of \(holder == nil ? "a" : "the") \(type)"
      case .group:
        object = "the notify block of \(holder == nil ? "a" : "the") DispatchGroup"
      case .listItem, .sourceRefs:
        return nil
      }
      var text = object + (holder.map { " in " + $0 } ?? "")
      if case .group(let pending) = part, pending > 0 {
        text += ", waiting for \(pending) leave()" + (pending == 1 ? "" : " calls")
      }
      if let closure = innermostClosure(chain, in: entries) { text += ": " + closure }
      let below = segments(of: Array(chain[(position + 1)...].dropLast()), in: entries)
      if !below.isEmpty { text += ", through " + below.joined(separator: " → ") }
      return (text, 0)
    }

    /// What holds a Dispatch object's wrapper (`wrapper`), from the chain above it (`above`, from
    /// its top): a global (`the global App.queue`, then `, through` the objects on the way), an
    /// object found holding the top of the chain in a cycle (`Uploader.queue`), or an object nobody
    /// tracked (`an untracked Sync.queue`); `nil` when nothing above it was found.
    private static func wrapperHolder(_ above: [Int], wrapper: Int, in search: HolderSearch) -> String? {
      let entries = search.entries
      let top = above.first ?? wrapper
      var path = segments(of: above, in: entries)
      if case .global(let name) = entries[top].node.kind {
        let joined = path.joined(separator: " → ")
        if joined.isEmpty { return "the global \(name)" }
        return joined.hasPrefix("[") ? "the global \(name)\(joined)" : "the global \(name), through \(joined)"
      }
      guard case .object = entries[top].node.kind else { return nil }
      if let cycle = search.cycles.first(where: { $0.top == top }), let name = typeName(of: cycle.by, in: search) {
        path.insert(name + (cycle.step.component ?? ""), at: 0)
        return path.joined(separator: " → ")
      }
      return path.isEmpty ? nil : "an untracked " + path.joined(separator: " → ")
    }

    /// The objects of `chain` as a path: `Type.property` for each (its step's component),
    /// collections' subscripts appended to the one before. A Dispatch wrapper's `__wrapped` is
    /// left out.
    private static func segments(of chain: [Int], in entries: [HolderSearch.Entry]) -> [String] {
      var segments: [String] = []
      for index in chain {
        guard let step = entries[index].step, step.component != DispatchFacts.wrappedComponent else { continue }
        switch entries[index].node.kind {
        case .object(let typeName):
          segments.append(typeName + (step.component ?? ""))
        case .arrayStorage, .dictionaryStorage:
          if segments.isEmpty { segments.append("") }
          segments[segments.count - 1] += step.component ?? ""
        default:
          break
        }
      }
      return segments
    }

    /// The type name of an object of the search: an object's, or the survivor's (a live object its
    /// caller keeps alive through the scan, whose metadata the runtime made).
    private static func typeName(of index: Int, in search: HolderSearch) -> String? {
      let node = search.entries[index].node
      switch node.kind {
      case .object(let typeName):
        return typeName
      case .survivor:
        guard let metadata = ProcessMemory.word(at: node.address),
          let pointer = UnsafeRawPointer(bitPattern: metadata)
        else { return nil }
        return String(describing: unsafeBitCast(pointer, to: Any.Type.self))
      default:
        return nil
      }
    }
  }
#endif
