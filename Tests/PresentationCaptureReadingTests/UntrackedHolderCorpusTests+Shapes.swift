import Dispatch
import Foundation
import PresentationModel

// The classes of the seven shapes whose holder the walk from tracked objects cannot start from,
// each written as its source writes it, with a `leaks` switch for its correct twin. They are
// `@unchecked Sendable`: their blocks and tasks never run while a test reads them (nothing is
// posted, no deadline is reached, a task sleeps or waits until the test cancels it).

/// https://www.swiftbysundell.com/articles/a-deep-dive-into-grand-central-dispatch-in-swift/
/// (John Sundell): a search controller keeps its pending `DispatchWorkItem`, whose block loads the
/// results. Sundell's block captures `[weak self]`; without it, the item's block keeps the
/// controller that keeps the item.
final class SearchController: @unchecked Sendable {
  // @unchecked Sendable: see the file's comment.
  var pendingRequestWorkItem: DispatchWorkItem?
  var results: [String] = []

  func search(for query: String, leaks: Bool) {
    pendingRequestWorkItem?.cancel()
    pendingRequestWorkItem =
      leaks
      ? DispatchWorkItem { self.results.append(query) }
      : DispatchWorkItem { [weak self] in self?.results.append(query) }
  }
}

/// https://github.com/wordpress-mobile/WordPress-iOS/issues/20994 (calls to
/// `addObserver(forName:object:queue:using:)` that discard the returned observer: "the block argument
/// will not be released, which causes some objects not being released") and
/// https://holko.pl/2015/08/05/notification-center/: a profile model observing with a block that
/// uses it, the observer never removed.
final class ProfileModel: @unchecked Sendable {
  // @unchecked Sendable: see the file's comment.
  static let didChange = Notification.Name("UntrackedHolderCorpus.ProfileDidChange")
  var reloads = 0

  func startObserving(_ center: NotificationCenter, leaks: Bool) -> any NSObjectProtocol {
    leaks
      ? center.addObserver(forName: Self.didChange, object: nil, queue: nil) { _ in self.reloads += 1 }
      : center.addObserver(forName: Self.didChange, object: nil, queue: nil) { [weak self] _ in self?.reloads += 1 }
  }
}

/// https://www.donnywals.com/how-to-use-weak-self-in-swift-concurrency-tasks (Donny Wals: a task
/// that loops for as long as it is not cancelled keeps everything it captures) and
/// https://forums.swift.org/t/task-async-retain-cycles/49585: a poller whose unstructured task
/// loops, sleeping between polls, and uses `self`. The twin checks `self` weakly at each turn.
final class Poller: @unchecked Sendable {
  // @unchecked Sendable: see the file's comment.
  var polls = 0

  func startPolling(leaks: Bool) -> Task<Void, Never> {
    if leaks {
      return Task {
        while !Task.isCancelled {
          try? await Task.sleep(nanoseconds: 3_600_000_000_000)
          self.polls += 1
        }
      }
    }
    return Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 3_600_000_000_000)
        guard let self else { return }
        self.polls += 1
      }
    }
  }
}

/// https://forums.swift.org/t/for-await-loop-wrapped-in-a-task-block/64159 (a model whose `init`
/// starts tasks that iterate `NotificationCenter.default.notifications(named:)` and use `self`:
/// "every time a Model object is instantiated, you create and leak three tasks"), on this package's
/// own async sequence (Foundation's `notifications(named:)` is not in swift-corelibs-foundation).
final class InboxModel: @unchecked Sendable {
  // @unchecked Sendable: see the file's comment.
  struct MessageArrived: TypedNotification {}
  /// The app's center, alive for the whole run (as `NotificationCenter.default` is).
  static let center = TypedNotificationCenter()
  var unread = 0

  func startListening(to center: TypedNotificationCenter, leaks: Bool) -> Task<Void, Never> {
    let messages = center.notifications(of: MessageArrived.self, bufferingPolicy: .unbounded)
    if leaks {
      return Task {
        for await _ in messages { self.unread += 1 }
      }
    }
    return Task { [weak self] in
      for await _ in messages { self?.unread += 1 }
    }
  }
}

/// https://github.com/DeclarativeHub/ReactiveKit/issues/14 ("Possible retain cycle": a `retry`
/// operator whose `attempt` closure, stored in a `var`, calls itself through that `var`; fixed by
/// setting `attempt = nil` when the operation is disposed): a retrier whose recursive closure uses
/// the retrier. The twin captures the retrier weakly.
final class Retrier: @unchecked Sendable {
  // @unchecked Sendable: see the file's comment.
  var attempts = 0

  /// Starts the attempts; returns what breaks the cycle (the twin's disposal).
  func start(retries: Int, leaks: Bool) -> () -> Void {
    var remaining = retries
    var attempt: (() -> Void)?
    if leaks {
      attempt = {
        self.attempts += 1
        remaining -= 1
        if remaining > 0 { attempt?() }
      }
    } else {
      attempt = { [weak self] in
        self?.attempts += 1
        remaining -= 1
        if remaining > 0 { attempt?() }
      }
    }
    attempt?()
    return { attempt = nil }
  }
}

/// https://swiftrocks.com/improving-observer-pattern-apis-in-swift-with-weak-collections (Bruno
/// Rocha: a registry's plain arrays and dictionaries retain what they hold, so observers outlive
/// their owners): a shared registry of listeners that nobody unregisters. The twin registers a
/// weak box.
final class ListenerRegistry: @unchecked Sendable {
  // @unchecked Sendable: the registry is only changed by the tests, one at a time (serialized).
  static let shared = ListenerRegistry()
  var listeners: [AnyObject] = []
  var weakListeners: [WeakListener] = []

  final class WeakListener {
    weak var listener: AnyObject?
    init(_ listener: AnyObject) { self.listener = listener }
  }

  func register(_ listener: AnyObject, leaks: Bool) {
    if leaks { listeners.append(listener) } else { weakListeners.append(WeakListener(listener)) }
  }

  /// Removes `listener` (and the weak boxes whose listener is gone).
  func unregister(_ listener: AnyObject?) {
    listeners.removeAll { $0 === listener }
    weakListeners.removeAll { $0.listener === listener || $0.listener == nil }
  }
}

/// A listener the registry keeps.
final class BadgeListener: @unchecked Sendable {
  // @unchecked Sendable: holds nothing.
}

/// https://pinyuanchen.github.io/posts/delayed-deallocation ("Delayed Deallocation Caused By
/// Nested Closures": an `asyncAfter` block that captures `self` keeps it until the deadline) and
/// https://developpaper.com/ios-dispatch_-after-delayed-execution-results-in-delayed-dealloc/: a
/// banner that hides itself an hour later. The twin captures it weakly.
final class BannerModel: @unchecked Sendable {
  // @unchecked Sendable: see the file's comment.
  var isVisible = true

  func hideLater(on queue: DispatchQueue, leaks: Bool) {
    if leaks {
      queue.asyncAfter(deadline: .now() + 3600) { self.isVisible = false }
    } else {
      queue.asyncAfter(deadline: .now() + 3600) { [weak self] in self?.isVisible = false }
    }
  }
}

/// https://paul-samuels.com/blog/2025/06/19/subtle-retain-cycle-is-subtle (Paul Samuels, "Subtle
/// retain cycle is subtle"): a task captures `self` weakly, but binds it strongly (`guard let self`)
/// before a loop that runs until the task is cancelled, so its frame keeps `self`. Its twin binds
/// `self` inside the loop, for one turn at a time: `Poller`'s.
final class Ticker: @unchecked Sendable {
  // @unchecked Sendable: see the file's comment.
  var ticks = 0

  func start() -> Task<Void, Never> {
    Task { [weak self] in
      guard let self else { return }
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 3_600_000_000_000)
        self.ticks += 1
      }
    }
  }
}
