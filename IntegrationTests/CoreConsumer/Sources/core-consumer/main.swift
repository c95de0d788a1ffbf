import PresentationModel
import PresentationModelTesting

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

// Pending delete with virtual time: fade, dispose, and the widget's deinit runs.
@MainActor
final class FadingWidget: Fadable {
  var opacity = 1.0
  var disposed = 0
  func dispose() { disposed += 1 }
}

MainActor.assumeIsolated {
  let scheduler = ManualStepScheduler()
  let pendingDelete = PendingDelete(duration: .milliseconds(300), steps: 3, scheduler: scheduler)
  weak var weakWidget: FadingWidget?
  var opacities: [Double] = []
  var outcome: PendingDelete.Outcome?
  do {
    let widget = FadingWidget()
    weakWidget = widget
    pendingDelete.fadeOutAndDispose(widget) { outcome = $0 }
    for _ in 0..<3 {
      scheduler.advance(by: .milliseconds(100))
      opacities.append(widget.opacity)
    }
    guard widget.disposed == 1 else {
      print("FAILED: dispose ran \(widget.disposed) times")
      exit(1)
    }
  }
  let deinitRan = weakWidget == nil
  print("opacities \(opacities), outcome \(String(describing: outcome)), deinit ran \(deinitRan)")
  guard deinitRan, outcome == .disposed, pendingDelete.pendingCount == 0, opacities.last == 0 else {
    print("FAILED: the fade did not end in a disposed, deinitialised widget")
    exit(1)
  }
}
guard MainActor.assumeIsolated({ checkMainActorNotifications() }) else {
  print("FAILED: main-actor notifications did not behave as documented")
  exit(1)
}
guard checkFoundationBridge() else {
  print("FAILED: the Foundation bridge did not behave as documented")
  exit(1)
}
print("OK")

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
