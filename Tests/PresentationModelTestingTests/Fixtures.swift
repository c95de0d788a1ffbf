import Synchronization

/// Object graphs with and without leaks, shared by the harness's own tests.

/// Keeps itself alive through a closure that captures `self` strongly.
final class ClosureCycle {
  var onChange: (() -> Void)?

  func startObserving() {
    onChange = { self.refresh() }
  }

  func refresh() {}
}

/// A parent that holds its child, whose delegate is the parent.
final class DelegatingParent {
  let child = DelegatingChild()
}

final class DelegatingChild {
  var strongDelegate: DelegatingParent?
  weak var weakDelegate: DelegatingParent?
}

final class Canvas {
  var widgets: [Widget] = []
}

final class Widget {
  let name: String
  var canvas: Canvas?

  init(name: String) {
    self.name = name
  }
}

/// Holds objects strongly until told to let go, standing in for a fade that disposes a widget only
/// when its last step runs.
final class DelayedRelease: Sendable {
  private struct Held: @unchecked Sendable {
    // Only touched under the mutex, and the objects in it are never used, only retained.
    var objects: [AnyObject] = []
  }

  private let held = Mutex(Held())

  func hold(_ object: AnyObject) {
    held.withLock { $0.objects.append(object) }
  }

  var pendingCount: Int { held.withLock { $0.objects.count } }

  func completeAll() {
    held.withLock { $0.objects.removeAll() }
  }
}

/// An owner for notification observers.
final class Listener: Sendable {}

final class SpecialListener: Sendable {}
