import PresentationModel
import Synchronization
import Testing

struct NodeDeleted: TypedNotification {
  let nodeID: Int
}

final class Recorder: Sendable {
  let received = Mutex<[Int]>([])
  var values: [Int] { received.withLock { $0 } }
  func record(_ value: Int) { received.withLock { $0.append(value) } }
}

@Suite struct ObservingTests {
  @Test func ownerBoundObserverEndsWhenOwnerDeinitialises() {
    let center = TypedNotificationCenter()
    var owner: Recorder? = Recorder()
    weak let weakOwner = owner
    center.observe(NodeDeleted.self, owner: owner!) { owner, note in owner.record(note.nodeID) }
    center.post(NodeDeleted(nodeID: 1))
    #expect(owner?.values == [1])
    #expect(center.observerCount(for: NodeDeleted.self) == 1)
    owner = nil
    #expect(weakOwner == nil)
    #expect(center.observerCount(for: NodeDeleted.self) == 0)
    center.post(NodeDeleted(nodeID: 2))
  }
}
