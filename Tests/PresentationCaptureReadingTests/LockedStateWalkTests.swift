import Dispatch
import PresentationCaptureReading
import PresentationModel
import Testing

/// The walk reads the state a `LockedState` guards (a `ManagedBuffer` subclass) only under its lock,
/// tried and never waited for: a report walks handlers that reach objects other tests are still
/// changing (a center or a bag shared by tests running in parallel). Reading it without the lock
/// crashed a full test run ("_ContiguousArrayStorage deallocated with non-zero retain count").
@Suite struct LockedStateWalkTests {
  final class Model: Sendable {}

  final class Holder: Sendable {
    let state: LockedState<[Model]>
    init(_ models: [Model]) { state = LockedState(models) }
  }

  @Test func readsTheStateWhenItsLockIsFree() {
    let model = Model()
    let holder = Holder([model])
    let result = CaptureScanner.scan({ _ = holder }, for: [ObjectIdentifier(model)], followObjects: true)
    #expect(result.paths[ObjectIdentifier(model)] != nil, "\(result)")
  }

  @Test func leavesTheStateUnreadWhileAnotherThreadHoldsItsLock() {
    let model = Model()
    let holder = Holder([model])
    let locked = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      holder.state.withLock { _ in
        locked.signal()
        release.wait()
      }
      done.signal()
    }
    locked.wait()
    let result = CaptureScanner.scan({ _ = holder }, for: [ObjectIdentifier(model)], followObjects: true)
    release.signal()
    done.wait()
    #expect(result.paths[ObjectIdentifier(model)] == nil, "\(result)")
    #expect(result.unreadValues >= 1)
  }
}
