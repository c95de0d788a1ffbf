import Dispatch
import Foundation
import PresentationCaptureReading
import PresentationModel
import PresentationModelDiagnostics
import Testing

extension HeapScanSuites {
  /// The seven plain leaks from outside sources whose holder the walk from tracked objects and from
  /// the centers' handlers cannot start from (issue 26, item 3): a `DispatchWorkItem`'s block, a
  /// Foundation block observer, a `Task` loop, a `Task` iterating notifications, a recursive closure
  /// variable, a singleton registry, a long `asyncAfter`. Each is tracked with a `LeakTracker` as a
  /// user's test would, and the report must name its holder, found by the heap scan; each correct twin
  /// must report no leak. Linux only (the scan's platform); elsewhere the leaks are still reported,
  /// with no holder.
  ///
  /// Serialized (as a child of `HeapScanSuites`): the registry shape shares a global.
  @Suite(.timeLimit(.minutes(1))) struct UntrackedHolderCorpusTests {
    struct Built {
      let target: AnyObject
      /// Ends the leak (cancels the task, removes the observer), so the process does not keep it.
      var release: () -> Void = {}
    }

    struct Shape: Sendable, CustomTestStringConvertible {
      let name: String
      /// The report's line for the holder, exactly.
      let holder: String
      /// Why the holder stays unnamed under ThreadSanitizer, if it does.
      var unnamedUnderThreadSanitizer: String?
      let build: @Sendable (_ leaks: Bool) async -> Built
      var testDescription: String { name }
    }

    static let shapes: [Shape] = [
      Shape(
        name: "a DispatchWorkItem's block capturing the object",
        holder: "a Dispatch work item's block: closure #1 in SearchController.search(for:leaks:)"
      ) { leaks in
        let controller = SearchController()
        controller.search(for: "swift", leaks: leaks)
        return Built(target: controller) { [weak controller] in controller?.pendingRequestWorkItem = nil }
      },
      Shape(
        name: "a Foundation block observer whose block captures the object",
        holder: "a NotificationCenter block observer for UntrackedHolderCorpus.ProfileDidChange: "
          + "closure #1 in ProfileModel.startObserving(_:leaks:)"
      ) { leaks in
        let center = NotificationCenter()
        let model = ProfileModel()
        let observer = model.startObserving(center, leaks: leaks)
        return Built(target: model) { center.removeObserver(observer) }
      },
      Shape(
        name: "a Task loop capturing self",
        holder: "a suspended Task: closure #1 in Poller.startPolling(leaks:), awaiting Task.sleep(nanoseconds:)"
      ) { leaks in
        let poller = Poller()
        let task = poller.startPolling(leaks: leaks)
        await Self.waitUntilSuspended()
        return Built(target: poller) { task.cancel() }
      },
      Shape(
        name: "a Task iterating notifications, capturing self",
        holder: "a suspended Task: closure #1 in InboxModel.startListening(to:leaks:), "
          + "awaiting TypedNotificationSequence.AsyncIterator.next(isolation:)"
      ) { leaks in
        let inbox = InboxModel()
        let task = inbox.startListening(to: InboxModel.center, leaks: leaks)
        await Self.waitUntilSuspended()
        return Built(target: inbox) { task.cancel() }
      },
      Shape(
        name: "a recursive closure variable capturing the object",
        holder: "a closure kept in a var that it captures itself: closure #1 in Retrier.start(retries:leaks:)"
      ) { leaks in
        let retrier = Retrier()
        let dispose = retrier.start(retries: 3, leaks: leaks)
        return Built(target: retrier, release: dispose)
      },
      Shape(
        name: "a singleton registry holding the object",
        holder: "the global ListenerRegistry.shared, through ListenerRegistry.listeners[0]"
      ) { leaks in
        let listener = BadgeListener()
        ListenerRegistry.shared.register(listener, leaks: leaks)
        return Built(target: listener) { [weak listener] in ListenerRegistry.shared.unregister(listener) }
      },
      Shape(
        name: "a long asyncAfter whose block captures the object",
        holder: "a Dispatch queue's pending block (asyncAfter): closure #1 in BannerModel.hideLater(on:leaks:)",
        unnamedUnderThreadSanitizer:
          "ThreadSanitizer's dispatch_after interceptor queues a context of its own around the block, which the scan "
          + "does not read"
      ) { leaks in
        let banner = BannerModel()
        banner.hideLater(on: DispatchQueue(label: "UntrackedHolderCorpus.banner"), leaks: leaks)
        // A dispatch_after block cannot be cancelled: the leaking banner stays until its deadline.
        return Built(target: banner)
      },
    ]

    /// Lets a task just started run to its first suspension (it sleeps for an hour or waits for a
    /// notification nobody posts).
    static func waitUntilSuspended() async {
      for _ in 0..<20 { await Task.yield() }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }

    /// Builds the leak (`true`) or its twin, tracks the object with a new tracker, lets go of
    /// everything else, and returns the report of a check (the heap scan on), then ends the leak.
    static func report(of shape: Shape, leaks: Bool) async -> LeakReport {
      let tracker = LeakTracker()
      var release: () -> Void = {}
      do {
        let built = await shape.build(leaks)
        tracker.track(built.target)
        release = built.release
      }
      defer { release() }
      return await UntrackedHolderFinder.$enabledInThisTask.withValue(true) {
        await tracker.checkForLeaks(timeout: .zero)
      }
    }

    @Test(arguments: shapes)
    func theReportNamesTheHolder(_ shape: Shape) async {
      let report = await Self.report(of: shape, leaks: true)
      #expect(report.hasLeaks)
      let paths = report.survivors.flatMap(\.retainingPaths)
      if !UntrackedHolderFinder.isAvailable {
        #expect(paths.isEmpty, "no scan where it cannot run: \(report)")
      } else if let reason = shape.unnamedUnderThreadSanitizer, CaptureScanner.heapScanAllocator == "ThreadSanitizer" {
        #expect(paths.isEmpty, "pinned: \(reason): \(report)")
      } else {
        #expect(paths.contains(shape.holder), "\(report)")
      }
    }

    @Test(arguments: shapes)
    func theTwinDoesNotLeak(_ shape: Shape) async {
      let report = await Self.report(of: shape, leaks: false)
      #expect(!report.hasLeaks, "\(report)")
    }

    /// A task's local variables are words in its async frames, whose slots may hold what the
    /// function no longer uses: an object only a suspended task's frame holds is named by the frame,
    /// which the line says is not known to be live.
    static let frameHeld = Shape(
      name: "a [weak self] task loop that binds self strongly",
      holder: "a suspended Task: closure #1 in Ticker.start(), awaiting Task.sleep(nanoseconds:), through a word in"
        + " its async frame of closure #1 in Ticker.start() (the runtime does not say whether that slot is live)"
    ) { leaks in
      let (target, task): (AnyObject, Task<Void, Never>) =
        leaks
        ? {
          let ticker = Ticker()
          return (ticker, ticker.start())
        }()
        : {
          let poller = Poller()
          return (poller, poller.startPolling(leaks: false))
        }()
      await Self.waitUntilSuspended()
      return Built(target: target) { task.cancel() }
    }

    @Test func anObjectOnlyATasksFrameHoldsIsNamedByTheFrame() async {
      let report = await Self.report(of: Self.frameHeld, leaks: true)
      #expect(report.hasLeaks)
      #expect(report.survivors.flatMap(\.retainingPaths) == [Self.frameHeld.holder], "\(report)")
      let twin = await Self.report(of: Self.frameHeld, leaks: false)
      #expect(!twin.hasLeaks, "\(twin)")
    }
  }
}
