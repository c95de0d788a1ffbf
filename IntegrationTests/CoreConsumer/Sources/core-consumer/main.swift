import PresentationModel

struct NodeDeleted: TypedNotification {
  let nodeID: Int
}

final class Widget: Sendable {}

let center = TypedNotificationCenter()
var owner: Widget? = Widget()
weak let weakOwner = owner
nonisolated(unsafe) var received: [Int] = []  // only touched on this thread
center.observe(NodeDeleted.self, owner: owner!) { _, note in received.append(note.nodeID) }
center.post(NodeDeleted(nodeID: 1))
let before = center.observerCount(for: NodeDeleted.self)
owner = nil
let after = center.observerCount(for: NodeDeleted.self)
center.post(NodeDeleted(nodeID: 2))

print("received \(received), observers before \(before), after \(after), owner deallocated \(weakOwner == nil)")
guard received == [1], before == 1, after == 0, weakOwner == nil else {
  print("FAILED: the outside consumer did not see the documented behaviour")
  exit(1)
}
print("OK")

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
