import Dispatch
import Foundation
import PresentationCaptureReading
import Testing

extension HeapScanSuites {
  /// The heap scan names a block that Dispatch keeps (issue 26, item 3): queued on a suspended
  /// queue, a source's handler, a group's notify block, each from the Dispatch object up to what
  /// holds its Swift wrapper; and names nothing where a proof fails (a list that does not reach
  /// the block, a block that ran). Under ThreadSanitizer, whose interceptors submit a context or a
  /// block of their own around the user's block, nothing is named (pinned).
  @Suite struct HeapScanDispatchTests {
    final class Survivor: @unchecked Sendable {
      // @unchecked Sendable: `uses` is only written by blocks the tests run one at a time.
      var uses = 0
    }

    /// Keeps Dispatch objects the way an app's object does; nobody tracks it.
    final class Station: @unchecked Sendable {
      // @unchecked Sendable: set up by the test before the scan and torn down after it.
      let queue: DispatchQueue
      var timer: (any DispatchSourceTimer)?
      var source: (any DispatchSourceUserDataAdd)?
      /// A timer kept only as an `Unmanaged` reference, which holds nothing the scan reads.
      var unkept: Unmanaged<DispatchSource>?
      let group = DispatchGroup()

      init(label: String) { queue = DispatchQueue(label: label) }

      func enqueue(_ survivor: Survivor) { queue.async { survivor.uses += 1 } }
      func enqueueOther() { queue.async {} }
      /// A work item nobody keeps: only its dispatch block, in the queue, is left.
      func enqueueWorkItem(_ survivor: Survivor) { queue.async(execute: DispatchWorkItem { survivor.uses += 1 }) }
      func startTimer(_ survivor: Survivor, cancelHandler: Bool) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(3600), repeating: .seconds(3600))
        if cancelHandler {
          timer.setCancelHandler { survivor.uses += 1 }
        } else {
          timer.setEventHandler { survivor.uses += 1 }
        }
        timer.resume()
        self.timer = timer
      }
      func startUnkeptTimer(_ survivor: Survivor) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(3600), repeating: .seconds(3600))
        timer.setEventHandler { survivor.uses += 1 }
        timer.resume()
        unkept = .passRetained(timer as! DispatchSource)
      }
      /// With a QoS, the overlay sets a `DispatchWorkItem`'s dispatch block as the handler.
      func startTimerWithQoS(_ survivor: Survivor) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(3600), repeating: .seconds(3600))
        timer.setEventHandler(qos: .utility, flags: []) { survivor.uses += 1 }
        timer.resume()
        self.timer = timer
      }
      func startSource(_ survivor: Survivor) {
        let source = DispatchSource.makeUserDataAddSource(queue: queue)
        source.setEventHandler { survivor.uses += 1 }
        source.resume()
        self.source = source
      }
      func notifyWhenDone(_ survivor: Survivor) {
        group.notify(queue: queue) { survivor.uses += 1 }
      }
      /// The C queue the wrapper keeps (its `__wrapped`, right after its object header), and the
      /// first block's continuation in its list (`dq_items_head`, at 104).
      var queueObject: (queue: UnsafeRawPointer, head: UnsafeRawPointer?) {
        let queue = UnsafeRawPointer(Unmanaged.passUnretained(self.queue).toOpaque())
          .load(fromByteOffset: 16, as: UnsafeRawPointer.self)
        return (queue, queue.load(fromByteOffset: 104, as: UnsafeRawPointer?.self))
      }
      func tearDown() {
        timer?.cancel()
        source?.cancel()
        unkept?.takeRetainedValue().cancel()
      }
    }

    static var underThreadSanitizer: Bool { CaptureScanner.heapScanAllocator == "ThreadSanitizer" }

    /// The scan's lines for `survivor`, or `nil` where the scan cannot run.
    static func holders(of survivor: Survivor) throws -> [String]? {
      guard CaptureScanner.heapScanIsAvailable else { return nil }
      return try #require(CaptureScanner.scanHeap(forHoldersOf: survivor)).holders
    }

    /// The lines that name a Dispatch holder.
    static func isDispatchLine(_ line: String) -> Bool {
      [
        "a block queued on ", "the event handler of ", "the cancel handler of ", "the registration handler of ",
        "the notify block of ", "a Dispatch queue's pending block", "a Dispatch work item's block",
      ]
      .contains { line.hasPrefix($0) }
    }

    /// The Dispatch lines are exactly `expected`, or (pinned) none under ThreadSanitizer. Other
    /// lines are not checked: in the full test run, an object another suite freed can still read
    /// as live (its words intact in memory glibc handed out again and nobody wrote over yet) and
    /// be named holding the survivor (`an untracked Node.model`), a gap of the scan's liveness
    /// proof that these cases do not exercise.
    static func expectHolders(_ survivor: Survivor, _ expected: [String]) throws {
      guard let holders = try holders(of: survivor) else { return }
      let dispatchLines = holders.filter(isDispatchLine)
      if underThreadSanitizer {
        #expect(dispatchLines.isEmpty, "pinned: ThreadSanitizer wraps the block: \(holders)")
      } else {
        #expect(dispatchLines == expected, "\(holders)")
      }
    }

    /// Alone in its queue's list (its head and tail), or between two other blocks: then only the
    /// previous one's `do_next` holds it, one step up. A work item's block has private data: its
    /// continuation's function is `_dispatch_block_async_invoke_and_release` (and its chain is a
    /// step longer: between two blocks, the wrapper's holder would be the scan's eighth step).
    @Test(arguments: [(0, false), (0, true), (1, false)])
    func namesABlockQueuedOnASuspendedQueue(between others: Int, asWorkItem: Bool) throws {
      let survivor = Survivor()
      let station = Station(label: "HeapScanDispatchTests.suspended")
      station.queue.suspend()
      defer { station.queue.resume() }
      for _ in 0..<others { station.enqueueOther() }
      if asWorkItem {
        station.enqueueWorkItem(survivor)
      } else {
        station.enqueue(survivor)
      }
      for _ in 0..<others { station.enqueueOther() }
      try Self.expectHolders(
        survivor,
        [
          "a block queued on the suspended DispatchQueue \"HeapScanDispatchTests.suspended\" in an untracked "
            + "Station.queue: closure #1 in HeapScanSuites.HeapScanDispatchTests.Station."
            + (asWorkItem ? "enqueueWorkItem(_:)" : "enqueue(_:)")
        ])
      withExtendedLifetime(station) {}
    }

    @Test func namesNothingOnceTheQueueRanTheBlock() throws {
      let survivor = Survivor()
      let station = Station(label: "HeapScanDispatchTests.ran")
      station.queue.suspend()
      station.enqueue(survivor)
      station.queue.resume()
      station.queue.sync {}
      #expect(survivor.uses == 1)
      try Self.expectHolders(survivor, [])
      withExtendedLifetime(station) {}
    }

    /// A source's handler, set up on a `Station`, and the line that names it.
    struct Handler: Sendable, CustomTestStringConvertible {
      let testDescription: String
      let line: String
      let start: @Sendable (Station, Survivor) -> Void
    }

    static let handlers = [
      Handler(
        testDescription: "a timer's event handler",
        line: "the event handler of the DispatchSourceTimer in an untracked Station.timer: "
          + "closure #2 in HeapScanSuites.HeapScanDispatchTests.Station.startTimer(_:cancelHandler:)"
      ) { $0.startTimer($1, cancelHandler: false) },
      // A cancel handler's continuation consumes its block (`_dispatch_call_block_and_release`).
      Handler(
        testDescription: "a timer's cancel handler",
        line: "the cancel handler of the DispatchSourceTimer in an untracked Station.timer: "
          + "closure #1 in HeapScanSuites.HeapScanDispatchTests.Station.startTimer(_:cancelHandler:)"
      ) { $0.startTimer($1, cancelHandler: true) },
      // Its continuation keeps a dispatch block (`_dispatch_block_async_invoke`).
      Handler(
        testDescription: "a timer's event handler set with a QoS",
        line: "the event handler of the DispatchSourceTimer in an untracked Station.timer: "
          + "closure #1 in HeapScanSuites.HeapScanDispatchTests.Station.startTimerWithQoS(_:)"
      ) { $0.startTimerWithQoS($1) },
      Handler(
        testDescription: "the event handler of a timer nothing the scan reads holds",
        line: "the event handler of a DispatchSourceTimer: "
          + "closure #1 in HeapScanSuites.HeapScanDispatchTests.Station.startUnkeptTimer(_:)"
      ) { $0.startUnkeptTimer($1) },
      Handler(
        testDescription: "a user data source's event handler",
        line: "the event handler of the DispatchSourceUserDataAdd in an untracked Station.source: "
          + "closure #1 in HeapScanSuites.HeapScanDispatchTests.Station.startSource(_:)"
      ) { $0.startSource($1) },
    ]

    @Test(arguments: handlers)
    func namesASourcesHandler(_ handler: Handler) throws {
      let survivor = Survivor()
      let station = Station(label: "HeapScanDispatchTests.source")
      handler.start(station, survivor)
      defer { station.tearDown() }
      try Self.expectHolders(survivor, [handler.line])
      withExtendedLifetime(station) {}
    }

    @Test func namesAGroupsNotifyBlock() throws {
      let survivor = Survivor()
      let station = Station(label: "HeapScanDispatchTests.group")
      station.group.enter()
      station.group.enter()
      station.notifyWhenDone(survivor)
      defer {
        station.group.leave()
        station.group.leave()
      }
      try Self.expectHolders(
        survivor,
        [
          "the notify block of the DispatchGroup in an untracked Station.group, waiting for 2 leave() calls: "
            + "closure #1 in HeapScanSuites.HeapScanDispatchTests.Station.notifyWhenDone(_:)"
        ])
      withExtendedLifetime(station) {}
    }

    static let sharedQueue = DispatchQueue(label: "HeapScanDispatchTests.shared")

    @Test func namesAQueueAGlobalHolds() throws {
      let survivor = Survivor()
      Self.sharedQueue.suspend()
      defer { Self.sharedQueue.resume() }
      Self.sharedQueue.async { survivor.uses += 1 }
      try Self.expectHolders(
        survivor,
        [
          "a block queued on the suspended DispatchQueue \"HeapScanDispatchTests.shared\" in the global "
            + "HeapScanSuites.HeapScanDispatchTests.sharedQueue: "
            + "closure #1 in HeapScanSuites.HeapScanDispatchTests.namesAQueueAGlobalHolds()"
        ])
    }

    /// A queue's object laid out in `malloc`'d memory: a real queue's first 120 bytes (its
    /// `DISPATCH_LANE_CLASS_HEADER` on 64-bit Linux, swift-corelibs-libdispatch
    /// src/queue_internal.h: vtable, counts, ..., `dq_items_tail` at 48, `dq_label` at 72,
    /// `dq_items_head` at 104), its label replaced, its tail pointing at a real queued block's
    /// continuation and its head at nothing: the list, walked from its head, does not reach the
    /// block, so this queue is not named (the real one is).
    @Test func namesNoQueueWhoseListDoesNotReachTheBlock() throws {
      let survivor = Survivor()
      let station = Station(label: "HeapScanDispatchTests.real")
      station.queue.suspend()
      defer { station.queue.resume() }
      station.enqueue(survivor)
      let (queue, head) = station.queueObject
      let continuation = try #require(head)
      let forged = UnsafeMutableRawPointer.allocate(byteCount: 120, alignment: 16)
      defer { forged.deallocate() }
      forged.copyMemory(from: queue, byteCount: 120)
      let label = strdup("HeapScanDispatchTests.forged")
      defer { free(label) }
      forged.storeBytes(of: UInt(bitPattern: label), toByteOffset: 72, as: UInt.self)
      forged.storeBytes(of: UInt(bitPattern: continuation), toByteOffset: 48, as: UInt.self)
      forged.storeBytes(of: 0, toByteOffset: 104, as: UInt.self)
      guard let holders = try Self.holders(of: survivor) else { return }
      #expect(!holders.contains { $0.contains("forged") }, "\(holders)")
      if !Self.underThreadSanitizer {
        #expect(holders.contains { $0.contains("HeapScanDispatchTests.real") }, "\(holders)")
      }
      withExtendedLifetime(station) {}
    }

    /// A continuation's `do_next` is stale outside a list (one taken from the thread's cache keeps
    /// the cache's next entry there): in the full test run, a pending `asyncAfter` continuation's
    /// pointed at a block queued later, and the scan named that block's object as the timer's. Here
    /// a continuation-shaped block whose `do_next` points at a real queued block's continuation is
    /// put in a live timer's empty registration-handler slot (`ds_handler[2]`, at 56 in its refs,
    /// swift-corelibs-libdispatch src/event/event_internal.h; the source's refs at 88, after its
    /// `DISPATCH_LANE_CLASS_HEADER`), and taken out before the timer is cancelled: only a queue's or
    /// a group's list walk may believe a `do_next`, so the timer is not named.
    @Test func namesNothingThroughAStaleNextPointer() throws {
      let survivor = Survivor()
      let station = Station(label: "HeapScanDispatchTests.stale")
      station.queue.suspend()
      defer { station.queue.resume() }
      station.enqueue(survivor)
      station.startTimer(Survivor(), cancelHandler: false)
      defer { station.tearDown() }
      let continuation = try #require(station.queueObject.head)
      let stale = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
      defer { stale.deallocate() }
      stale.copyMemory(from: continuation, byteCount: 64)
      stale.storeBytes(of: UInt(bitPattern: continuation), toByteOffset: 16, as: UInt.self)  // `do_next`
      stale.storeBytes(of: 0, toByteOffset: 40, as: UInt.self)  // no block of its own (`dc_ctxt`)
      let timer = try #require(station.timer)
      let source = UnsafeRawPointer(Unmanaged.passUnretained(timer as AnyObject).toOpaque())
        .load(fromByteOffset: 16, as: UnsafeRawPointer.self)
      let slot = source.load(fromByteOffset: 88, as: UnsafeMutableRawPointer.self) + 56
      try #require(slot.load(as: UInt.self) == 0, "the registration handler's slot is empty")
      slot.storeBytes(of: UInt(bitPattern: stale), as: UInt.self)
      let holders = try Self.holders(of: survivor)
      slot.storeBytes(of: 0, as: UInt.self)
      guard let holders else { return }
      #expect(!holders.contains { $0.contains("DispatchSourceTimer") }, "\(holders)")
      if !Self.underThreadSanitizer {
        #expect(holders.contains { $0.contains("HeapScanDispatchTests.stale") }, "\(holders)")
      }
      withExtendedLifetime(station) {}
    }
  }
}
