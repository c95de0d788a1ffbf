import Foundation
import PresentationModelTesting
import Synchronization
import Testing

/// Leaks that survive the usual fix, or that no stored property shows: `[weak self]` on the inner
/// closure only, `guard let self` at the top of a task, a nested function, a task-local value
/// copied into a task, an unbalanced retain (each case names its source).
enum Subtle {
  // https://benoitpasquier.com/weak-self-story-memory-management-closure-swift/ ("Weak self, a story
  // about memory management and closure in Swift"): `[weak self]` on the inner closure only; the
  // outer closure, which the object keeps until its work finishes, still captures `self` strongly
  // (to make the inner weak reference). Twin: `[weak self]` on the outer closure.
  final class Pipeline {
    private var pending: [() -> Void] = []
    private(set) var didSomething = false
    private(set) var didSomethingElse = false
    func doSomething(_ completion: @escaping () -> Void) { pending.append(completion) }
    func doSomethingElse(_ completion: @escaping () -> Void) { completion() }
    func doEverything(weakOuter: Bool) {
      if weakOuter {
        doSomething { [weak self] in
          self?.didSomething = true
          self?.doSomethingElse { [weak self] in self?.didSomethingElse = true }
        }
      } else {
        doSomething {
          self.didSomething = true
          self.doSomethingElse { [weak self] in self?.didSomethingElse = true }
        }
      }
    }
    func cancelPending() {
      let cancelled = pending
      pending.removeAll()
      withExtendedLifetime(cancelled) {}
    }
  }

  // https://eliaszsawicki.com/devlog ("[weak self] + guard let self in a Task — A Pattern Worth
  // Dropping": "guard let self at the top promotes the weak reference back to a strong one
  // immediately. Self is now strongly retained for the entire task"): a view model's task that
  // never ends. Twin: `self` reached per element, after the await.
  @MainActor final class InboxViewModel {
    let messages: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private(set) var unread = 0
    private var task: Task<Void, Never>?
    init() { (messages, continuation) = AsyncStream.makeStream(of: String.self) }
    func start(guardingAtTheTop: Bool) {
      if guardingAtTheTop {
        task = Task { [weak self, messages] in
          guard let self else { return }
          for await _ in messages {
            self.unread += 1
          }
        }
      } else {
        task = Task { [weak self, messages] in
          for await _ in messages {
            guard let self else { return }
            self.unread += 1
          }
        }
      }
    }
    func stop() { task?.cancel() }
  }

  // https://forums.swift.org/t/implicit-retain-cycle/15238 ("if you set the method directly because
  // you can, the compiler doesn't give you the warning"): the same with a nested function, which
  // uses `self` without writing it; a form keeps it as its field's validation handler.
  final class TextField {
    var onChange: ((String) -> Void)?
  }

  final class SignUpForm {
    let emailField = TextField()
    private(set) var isValid = false
    func configure(weakly: Bool) {
      func validate(_ text: String) { isValid = text.contains("@") }
      if weakly {
        emailField.onChange = { [weak self] text in self?.isValid = text.contains("@") }
      } else {
        emailField.onChange = validate
      }
    }
  }

  // SE-0311, "Task Local Values" (https://github.com/swiftlang/swift-evolution/blob/main/proposals/0311-task-locals.md):
  // an unstructured `Task {}` copies the task-local values bound where it starts, and keeps them
  // while it runs. A request context bound for one request is copied into a task that runs forever.
  // Twin: the task is cancelled when the request ends.
  final class RequestContext: Sendable {
    let requestID: Int
    init(requestID: Int) { self.requestID = requestID }
  }

  enum Request {
    @TaskLocal static var context: RequestContext?
  }

  final class MetricsReporter: Sendable {
    let reports = Mutex(0)
    func startReporting() -> Task<Void, Never> {
      Task {
        while !Task.isCancelled {
          self.reports.withLock { $0 += 1 }
          try? await Task.sleep(for: .seconds(3600))
        }
      }
    }
  }

  // Apple, Unmanaged (https://developer.apple.com/documentation/swift/unmanaged): `passRetained(_:)`
  // "performs an unbalanced retain", to hand an object to C code as a callback context; the
  // retain must be balanced by `release()` (or `takeRetainedValue()`) when the callback is removed.
  // A sound player that registers itself and is never stopped: nothing refers to it, yet it stays.
  final class SoundPlayer {
    private var context: Unmanaged<SoundPlayer>?
    func start() { context = Unmanaged.passRetained(self) }
    func stop() {
      context?.release()
      context = nil
    }
  }
}

@Suite(.everyObjectRuns) struct SubtleCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: [weak self] on the inner closure only")
  func weakSelfOnTheInnerClosureOnly() async throws {
    try await Corpus.expectLeak([
      .object(Subtle.Pipeline.self, heldBy: "Pipeline.pending[0] (a closure that captures it")
    ]) {
      let pipeline = Subtle.Pipeline()
      pipeline.doEverything(weakOuter: false)
      return Leak(pipeline) { [weak pipeline] in pipeline?.cancelPending() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func weakSelfOnTheOuterClosure() async {
    let pipeline = Subtle.Pipeline()
    pipeline.doEverything(weakOuter: true)
  }

  @Test("Fails on purpose: guard let self at the top of a task that never ends")
  func guardLetSelfAtTheTopOfATask() async throws {
    try await Corpus.expectLeak(
      [
        .object(
          Subtle.InboxViewModel.self,
          heldBy: "Task: …InboxViewModel.start(guardingAtTheTop:)…async frame of closure #1 in …InboxViewModel.start")
      ],
      onMainActor: {
        let viewModel = Subtle.InboxViewModel()
        viewModel.start(guardingAtTheTop: true)
        // Let the task reach its `guard let self`.
        await Task.yield()
        return Leak(viewModel) { @MainActor [weak viewModel] in viewModel?.stop() }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func guardLetSelfPerElement() async {
    let viewModel = Subtle.InboxViewModel()
    viewModel.start(guardingAtTheTop: false)
    await Task.yield()
    viewModel.stop()  // as the screen would when it goes (the stream never finishes)
  }

  @Test("Fails on purpose: a nested function kept as a field's handler")
  func nestedFunctionKeptAsAHandler() async throws {
    try await Corpus.expectLeak([
      .object(Subtle.SignUpForm.self, heldBy: "TextField.onChange|SignUpForm.emailField.onChange"),
      .also(Subtle.TextField.self, heldBy: "SignUpForm.emailField"),
    ]) {
      let form = Subtle.SignUpForm()
      form.configure(weakly: false)
      form.emailField.onChange?("ada@example.com")
      return Leak(form) { [weak form] in form?.emailField.onChange = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func closureCapturingTheFormWeakly() async {
    let form = Subtle.SignUpForm()
    form.configure(weakly: true)
    form.emailField.onChange?("ada@example.com")
  }

  @Test("Fails on purpose: a task-local value copied into a task that runs forever")
  func taskLocalCopiedIntoAForeverTask() async throws {
    let reporting = Mutex<Task<Void, Never>?>(nil)
    try await Corpus.expectLeak([
      .object(
        Subtle.RequestContext.self, heldBy: "Task: …startReporting()…its task-local Subtle.Request.$context"),
      .also(Subtle.MetricsReporter.self, heldBy: "Task: …MetricsReporter.startReporting()"),
    ]) {
      let context = Subtle.RequestContext(requestID: 7)
      let reporter = Subtle.MetricsReporter()
      let task = Subtle.Request.$context.withValue(context) { reporter.startReporting() }
      reporting.withLock { $0 = task }
      return Leak(context, reporter) { reporting.withLock { $0 }?.cancel() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func taskLocalCopiedIntoATaskCancelledWithItsRequest() async {
    let context = Subtle.RequestContext(requestID: 7)
    let reporter = Subtle.MetricsReporter()
    let task = Subtle.Request.$context.withValue(context) { reporter.startReporting() }
    task.cancel()
    await task.value
  }

  @Test("Fails on purpose: an unbalanced retain nothing refers to")
  func unbalancedRetain() async throws {
    try await Corpus.expectLeak([.objectWithNoHolder(Subtle.SoundPlayer.self)]) {
      let player = Subtle.SoundPlayer()
      player.start()
      return Leak(player) { [weak player] in player?.stop() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func balancedRetain() async {
    let player = Subtle.SoundPlayer()
    player.start()
    player.stop()
  }
}
