import Dispatch
import Foundation
import PresentationModelTesting
import Testing

/// Dispatch keeping a block that uses an object: a work item, a timer source, a pending
/// `asyncAfter`, a suspended queue, a group's `notify` (each case names its source).
enum Dispatches {
  // https://courses.cocoacasts.com/mastering-grand-central-dispatch-grand-central-dispatch-and-memory-management:
  // a cell keeps the `DispatchWorkItem` that loads its thumbnail and the item's block uses `self`;
  // once performed, the item still holds its block. Twin: `[weak self]`.
  final class ThumbnailCell: @unchecked Sendable {
    // @unchecked Sendable: the work item's block writes `image` once, and the test reads it only
    // after waiting for the block.
    private(set) var fetchDataWorkItem: DispatchWorkItem?
    private(set) var image: Data?
    func configure(weakly: Bool) -> DispatchWorkItem {
      let workItem =
        weakly
        ? DispatchWorkItem { [weak self] in self?.image = Data([1]) }
        : DispatchWorkItem { self.image = Data([1]) }
      DispatchQueue.global().async(execute: workItem)
      fetchDataWorkItem = workItem
      return workItem
    }
    func prepareForReuse() {
      fetchDataWorkItem?.cancel()
      fetchDataWorkItem = nil
    }
  }

  // https://w3toppers.com/how-can-i-create-a-reference-cycle-using-dispatchqueues/ (Rob's answer,
  // "the classic example is the repeating timer"): a `Ticker` keeps a `DispatchSourceTimer` whose
  // event handler is missing `[weak self]`.
  final class Ticker: @unchecked Sendable {
    // @unchecked Sendable: `ticks` is only touched on `queue`; `timer` only by the test's task.
    private let queue = DispatchQueue(label: "EveryObjectCorpusTests.Ticker")
    private var timer: (any DispatchSourceTimer)?
    private var ticks = 0
    func startTicker(weakly: Bool) {
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(deadline: .now() + .seconds(3600), repeating: .seconds(3600))
      if weakly {
        timer.setEventHandler { [weak self] in self?.tick() }
      } else {
        timer.setEventHandler { self.tick() }
      }
      timer.resume()
      self.timer = timer
    }
    func stopTicker() {
      timer?.cancel()
      timer = nil
    }
    private func tick() { ticks += 1 }
  }

  // The same answer's question (https://w3toppers.com/how-can-i-create-a-reference-cycle-using-dispatchqueues/):
  // `queue?.asyncAfter(deadline: .now() + 3) { print(self.property) }` "only retains self for 3
  // seconds": no cycle, but the object outlives whatever should have released it. Here ten
  // minutes, past the end of the test run: the check must find the block still pending, and on a
  // loaded machine the report can come 15 s after the test (with 10 s, CI saw the block already
  // fired). Twin: `[weak self]`.
  final class UsingQueue: @unchecked Sendable {
    // @unchecked Sendable: `property` is never written after `init`.
    var property = 5
    let queue = DispatchQueue(label: "EveryObjectCorpusTests.UsingQueue")
    func enqueue(weakly: Bool) {
      if weakly {
        queue.asyncAfter(deadline: .now() + .seconds(600)) { [weak self] in _ = self?.property }
      } else {
        queue.asyncAfter(deadline: .now() + .seconds(600)) { _ = self.property }
      }
    }
  }

  // Apple, DispatchObject.suspend() (https://developer.apple.com/documentation/dispatch/dispatchobject/suspend()):
  // a suspended queue keeps the blocks submitted to it until it is resumed. An uploader pauses its
  // own queue while offline and submits a block that uses `self`.
  final class Uploader: @unchecked Sendable {
    // @unchecked Sendable: `uploads` is only touched on `queue`.
    let queue = DispatchQueue(label: "EveryObjectCorpusTests.Uploader")
    private var uploads = 0
    func goOffline() { queue.suspend() }
    func goOnline() { queue.resume() }
    func upload(weakly: Bool) {
      if weakly {
        queue.async { [weak self] in self?.uploads += 1 }
      } else {
        queue.async { self.uploads += 1 }
      }
    }
  }

  // matrix-org/matrix-ios-sdk#1739 (review: "Does it create an issue (like a retain cycle) if we
  // let the dispatch_group open … A dispatch group with a work count equal to 'one' will stick
  // somewhere forever"): a call manager enters its group per transfer request and leaves it on
  // success only; the group's `notify` block uses `self`. Twin: it leaves on failure too.
  final class CallTransferManager: @unchecked Sendable {
    // @unchecked Sendable: `finished` is only touched on the main queue's notify block, never read.
    let group = DispatchGroup()
    private var finished = false
    func transfer(succeeds: Bool, leavesOnFailure: Bool) {
      group.enter()
      if succeeds || leavesOnFailure { group.leave() }
      group.notify(queue: .global()) { self.finished = true }
    }
  }
}

@Suite(.everyObjectRuns) struct DispatchCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a work item kept by the object its block uses")
  func workItemKeptByItsObject() async throws {
    try await Corpus.expectLeak([
      .object(
        Dispatches.ThumbnailCell.self, heldBy: "a Dispatch work item's block…ThumbnailCell.configure(weakly:)")
    ]) {
      let cell = Dispatches.ThumbnailCell()
      let workItem = cell.configure(weakly: false)
      await withCheckedContinuation { continuation in
        workItem.notify(queue: .global()) { continuation.resume() }
      }
      return Leak(cell) { [weak cell] in cell?.prepareForReuse() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func workItemCapturingItsObjectWeakly() async {
    let cell = Dispatches.ThumbnailCell()
    let workItem = cell.configure(weakly: true)
    await withCheckedContinuation { continuation in
      workItem.notify(queue: .global()) { continuation.resume() }
    }
  }

  @Test("Fails on purpose: a timer source's event handler uses its owner")
  func timerSourceHandlerUsesItsOwner() async throws {
    try await Corpus.expectLeak([
      .object(
        Dispatches.Ticker.self, heldBy: "Ticker.timer|Dispatch…Ticker.startTicker(weakly:)",
        gap: SanitizerGap.underThreadSanitizer(SanitizerGap.dispatchBlock))
    ]) {
      let ticker = Dispatches.Ticker()
      ticker.startTicker(weakly: false)
      return Leak(ticker) { [weak ticker] in ticker?.stopTicker() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func timerSourceHandlerCapturesItsOwnerWeakly() async {
    let ticker = Dispatches.Ticker()
    ticker.startTicker(weakly: true)
  }

  @Test("Fails on purpose: a block pending in asyncAfter keeps its object past the test")
  func asyncAfterKeepsItsObject() async throws {
    try await Corpus.expectLeak([
      .object(
        Dispatches.UsingQueue.self, heldBy: "a Dispatch queue's pending block (asyncAfter)…UsingQueue.enqueue(weakly:)",
        gap: SanitizerGap.underThreadSanitizer(SanitizerGap.asyncAfter))
    ]) {
      let object = Dispatches.UsingQueue()
      object.enqueue(weakly: false)
      // Undone by the deadline passing: the block runs ten minutes later and lets go; nothing waits for it.
      return Leak.permanent(object)
    }
  }

  @Test(.detectsLeaks(.everyObject)) func asyncAfterCapturingItsObjectWeakly() async {
    let object = Dispatches.UsingQueue()
    object.enqueue(weakly: true)
  }

  @Test("Fails on purpose: a block pending on a suspended queue its object owns")
  func blockPendingOnASuspendedQueue() async throws {
    try await Corpus.expectLeak([
      .object(
        Dispatches.Uploader.self, heldBy: "Uploader.queue|Dispatch…Uploader.upload(weakly:)",
        gap: SanitizerGap.underThreadSanitizer(SanitizerGap.dispatchBlock))
    ]) {
      let uploader = Dispatches.Uploader()
      uploader.goOffline()
      uploader.upload(weakly: false)
      return Leak(uploader) { [weak uploader] in uploader?.goOnline() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func blockPendingOnASuspendedQueueCapturesWeakly() async {
    let uploader = Dispatches.Uploader()
    uploader.goOffline()
    uploader.upload(weakly: true)
    let queue = uploader.queue
    queue.resume()  // a queue must not be freed while suspended
  }

  @Test("Fails on purpose: a group's notify block waits for a leave that never comes")
  func groupNotifyNeverFires() async throws {
    try await Corpus.expectLeak([
      .object(
        Dispatches.CallTransferManager.self,
        heldBy: "CallTransferManager.group|Dispatch…CallTransferManager.transfer(succeeds:leavesOnFailure:)",
        gap: SanitizerGap.underThreadSanitizer(SanitizerGap.dispatchBlock))
    ]) {
      let manager = Dispatches.CallTransferManager()
      manager.transfer(succeeds: false, leavesOnFailure: false)
      return Leak(manager) { [weak manager] in manager?.group.leave() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func groupLeftOnFailureToo() async {
    let manager = Dispatches.CallTransferManager()
    manager.transfer(succeeds: false, leavesOnFailure: true)
  }
}
