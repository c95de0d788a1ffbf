internal import Synchronization

// What a test's log keeps of the fades it started: recorded by `PendingDelete` when a fade starts,
// updated by the fade as it goes, read by the leak harness when the test ends.
extension LeakScopeLog {
  /// One fade started in the scope, updated by the fade as it goes.
  package final class FadeRecord: Sendable {
    private let reference: WeakReference
    package let widgetType: any AnyObject.Type
    package let fileID: StaticString
    package let line: Int
    package let steps: Int
    private let state = Atomic<UInt8>(FadeState.fading.rawValue)
    private let stepsTakenStorage = Atomic<Int>(0)

    init(widget: AnyObject, fileID: StaticString, line: Int, steps: Int) {
      self.reference = WeakReference(widget)
      self.widgetType = type(of: widget)
      self.fileID = fileID
      self.line = line
      self.steps = steps
    }

    /// What the widget stands for (the view of a `FadableView`): the object that must deinitialise.
    package var widget: AnyObject? { reference.object }
    package var fadeState: FadeState { FadeState(rawValue: state.load(ordering: .acquiring)) ?? .fading }
    package var stepsTaken: Int { stepsTakenStorage.load(ordering: .relaxed) }

    func set(_ newState: FadeState) { state.store(newState.rawValue, ordering: .releasing) }
    func setStepsTaken(_ count: Int) { stepsTakenStorage.store(count, ordering: .relaxed) }
  }

  /// Where a fade is.
  package enum FadeState: UInt8, Sendable {
    case fading
    case disposed
    case cancelled
  }

  func recordFade(of widget: AnyObject, fileID: StaticString, line: Int, steps: Int) -> FadeRecord {
    let record = FadeRecord(widget: widget, fileID: fileID, line: line, steps: steps)
    records.withLock { $0.fades.append(record) }
    return record
  }

  /// The fades started in the scope, in the order they started.
  package var fades: [FadeRecord] { records.withLock(\.fades) }
}
