public import Dispatch  // `DispatchQueue.main` is the default scheduler.

/// Fades widgets out in timed steps, then disposes each exactly once and lets go of it, so its
/// `deinit` can run and its owner-bound observers end.
///
/// Any number of widgets may be in flight at once, each on its own timeline. Deleting a widget
/// that is already fading joins that fade: it is disposed once and every completion is called.
///
/// ```swift
/// import PresentationModel
///
/// @MainActor
/// final class Canvas {
///   private let pendingDelete = PendingDelete()  // 300 ms, 10 steps, the main queue
///
///   func remove(_ widget: some Fadable) {
///     pendingDelete.fadeOutAndDispose(widget) { outcome in
///       print("widget \(outcome)")
///     }
///   }
/// }
/// ```
///
/// > Note: Guarantees you may rely on:
/// > - ``Fadable/dispose()`` is called at most once per widget by one `PendingDelete`, including
/// >   when the same widget is deleted again during or after its fade.
/// > - After the last step the widget's opacity is `0`, `dispose()` runs, then the completions, in
/// >   the order they were given; then nothing in `PendingDelete` or the scheduler holds the
/// >   widget any more.
/// > - Every completion is called exactly once, with ``Outcome/disposed`` or
/// >   ``Outcome/cancelled``.
/// > - Completions and `dispose()` run after the bookkeeping is done, so they may start, join or
/// >   cancel deletions, including of the same widget. A deletion of the same widget started
/// >   during its last step (from its opacity setter or its `dispose()`) joins the fade: its
/// >   completion runs after `dispose()`, after the earlier ones; cancelling it then is too late and
/// >   returns `false`.
/// > - Step `k` is timed from the start of the fade, at `k × duration / steps`, so a step that runs
/// >   late does not delay the ones after it and the fade ends on time whatever the step count.
/// > - Releasing a `PendingDelete` does not stop the fades it started: each one is held by its
/// >   scheduled step, finishes on its timeline, disposes its widget and calls its completions.
/// >   Call ``cancelAll()`` first to stop them instead.
@MainActor
public final class PendingDelete {
  /// How a deletion ended.
  public enum Outcome: Sendable, Hashable {
    /// The widget faded to `0` and its `dispose()` was called (now or by an earlier deletion).
    case disposed
    /// ``PendingDelete/cancel(_:)`` or ``PendingDelete/cancelAll()`` stopped the fade; the widget
    /// is back at its starting opacity and was not disposed.
    case cancelled
  }

  /// Called once when a deletion ends.
  public typealias Completion = @MainActor (Outcome) -> Void

  /// How long a fade takes, from the call to the disposal.
  public let duration: Duration
  /// How many equal opacity steps a fade takes; the last one reaches `0` and disposes.
  public let steps: Int
  private let scheduler: any StepScheduler
  private var inFlight: [ObjectIdentifier: FadeOut] = [:]
  private var disposedWidgets = DisposedWidgets()
  private var startedCount = 0

  /// Creates a helper whose fades take `duration` in `steps` equal steps, timed by `scheduler`.
  ///
  /// ```swift
  /// import PresentationModel
  ///
  /// @MainActor
  /// func makeQuickDeleter() -> PendingDelete {
  ///   PendingDelete(duration: .milliseconds(150), steps: 6)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - duration: From the call to the disposal. Zero or negative disposes at once (opacity set to
  ///     `0` first) and calls the completion before ``fadeOutAndDispose(_:fileID:line:completion:)`` returns.
  ///   - steps: At least 1, and (for a positive `duration`) at most the number of nanoseconds in
  ///     `duration`, so that no step is shorter than a nanosecond. Step `k` of `n` sets the opacity
  ///     to `start × (n − k) / n`, at `k × duration / n` after the fade started.
  ///   - scheduler: The clock; `DispatchQueue.main` by default, a `ManualStepScheduler` in tests.
  public init(
    duration: Duration = .milliseconds(300), steps: Int = 10, scheduler: any StepScheduler = DispatchQueue.main
  ) {
    precondition(steps >= 1, "PendingDelete needs steps >= 1 (the last step disposes); got steps: \(steps)")
    if let limit = Self.maximumSteps(in: duration) {
      precondition(
        steps <= limit,
        """
        PendingDelete got steps: \(steps) for duration: \(duration), more steps than the \(limit) \
        nanoseconds in the duration; a step shorter than a nanosecond cannot be timed (the fade would \
        never end). Use at most \(limit) steps
        """)
    }
    self.duration = duration
    self.steps = steps
    self.scheduler = scheduler
  }

  /// The number of whole nanoseconds in a positive `duration` (the most steps it can be cut
  /// into); `nil` when there is no limit: a non-positive duration disposes at once, and a duration
  /// of more than `Int.max` nanoseconds (292 years) has room for any step count.
  private static func maximumSteps(in duration: Duration) -> Int? {
    guard duration > .zero else { return nil }
    let (seconds, attoseconds) = duration.components
    let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, overflowedAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflowed || overflowedAgain ? nil : Int(total)
  }

  /// The number of widgets currently fading, including those whose last step is running.
  public var pendingCount: Int { inFlight.count }

  /// Whether `widget` is fading now.
  public func isPending(_ widget: any Fadable) -> Bool {
    inFlight[fadeKey(of: widget)] != nil
  }

  /// Fades `widget` from its current opacity to `0` in ``steps`` equal steps over ``duration``,
  /// then calls its `dispose()` and releases it.
  ///
  /// ```swift
  /// import PresentationModel
  ///
  /// @MainActor
  /// func deleteNode(_ widget: some Fadable, using pendingDelete: PendingDelete) {
  ///   pendingDelete.fadeOutAndDispose(widget) { outcome in
  ///     if outcome == .cancelled { print("kept") }
  ///   }
  /// }
  /// ```
  ///
  /// Under `@Test(.detectsLeaks)` (PresentationModelTesting), a widget handed over here in the test
  /// must have been disposed and deinitialised when the test ends; otherwise the test fails at this
  /// call. A fade cancelled with ``cancel(_:)`` or ``cancelAll()`` is not counted.
  ///
  /// - Parameters:
  ///   - widget: The widget to delete. If it is already fading here, this call joins that fade. If
  ///     this `PendingDelete` already disposed it, nothing is done again and `completion` is called
  ///     with ``Outcome/disposed`` at once.
  ///   - fileID: Leave the default; a leak check names this call's file.
  ///   - line: Leave the default; a leak check fails the test at this line.
  ///   - completion: Called once, on the main actor, after the widget was disposed or the fade was
  ///     cancelled.
  public func fadeOutAndDispose(
    _ widget: any Fadable, fileID: StaticString = #fileID, line: Int = #line, completion: Completion? = nil
  ) {
    if let fade = inFlight[fadeKey(of: widget)], fade.join(completion) { return }
    if disposedWidgets.contains(widget) {
      completion?(.disposed)
      return
    }
    startedCount += 1
    let record = LeakScopeLog.inScope?.recordFade(of: identity(of: widget), fileID: fileID, line: line, steps: steps)
    let fade = FadeOut(
      widget: widget, steps: steps, duration: duration, scheduler: scheduler, owner: self,
      startIndex: startedCount, record: record, completion: completion)
    inFlight[fadeKey(of: widget)] = fade
    fade.start()
  }

  /// Fades `widget` out and disposes it like ``fadeOutAndDispose(_:fileID:line:completion:)``, returning when
  /// the deletion has ended.
  ///
  /// ```swift
  /// import PresentationModel
  ///
  /// @MainActor
  /// func deleteAndLog(_ widget: some Fadable, using pendingDelete: PendingDelete) async {
  ///   let outcome = await pendingDelete.fadeOutAndDispose(widget)
  ///   print("deletion ended: \(outcome)")
  /// }
  /// ```
  ///
  /// > Note: Cancelling the calling task does not cancel the fade (it may have been joined by
  /// > others); use ``cancel(_:)``.
  @discardableResult
  public func fadeOutAndDispose(
    _ widget: any Fadable, fileID: StaticString = #fileID, line: Int = #line
  ) async -> Outcome {
    await withCheckedContinuation { continuation in
      fadeOutAndDispose(widget, fileID: fileID, line: line) { outcome in continuation.resume(returning: outcome) }
    }
  }

  /// Stops `widget`'s fade, restores the opacity it started from, and releases it without
  /// disposing it; its completions get ``Outcome/cancelled``.
  ///
  /// - Returns: `false`, doing nothing, if `widget` is not fading here.
  @discardableResult
  public func cancel(_ widget: any Fadable) -> Bool {
    let key = fadeKey(of: widget)
    // A fade whose last step is running cannot be cancelled and stays in flight until it ends.
    guard let cancellation = inFlight[key]?.cancel() else { return false }
    inFlight[key] = nil
    perform([cancellation])
    return true
  }

  /// Cancels every fade in progress, as ``cancel(_:)`` does, in the order they started.
  ///
  /// Every widget's opacity is restored before the first completion runs.
  public func cancelAll() {
    let fades = inFlight.values.sorted { $0.startIndex < $1.startIndex }
    let cancellations = fades.compactMap { $0.cancel() }
    for cancellation in cancellations { inFlight[fadeKey(of: cancellation.widget)] = nil }
    perform(cancellations)
  }

  private func perform(_ cancellations: [FadeOut.Cancellation]) {
    for cancellation in cancellations {
      cancellation.pendingStep?.cancel()
      cancellation.widget.opacity = cancellation.startOpacity
    }
    for cancellation in cancellations {
      for completion in cancellation.completions { completion(.cancelled) }
    }
  }

  /// Bookkeeping when `fade` has disposed its widget, before the completions run.
  func fadeOutDidDispose(_ fade: FadeOut, widget: any Fadable) {
    let key = fadeKey(of: widget)
    if inFlight[key] === fade { inFlight[key] = nil }
    disposedWidgets.insert(widget)
  }
}
