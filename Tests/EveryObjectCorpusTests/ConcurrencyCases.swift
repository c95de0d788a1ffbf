import Foundation
import Observation
import PresentationModelTesting
import Testing

/// Tasks, async sequences, continuations, actors and Observation, from articles, Swift Evolution
/// proposals and the Swift project's own pull requests (each case names its source).
enum Concurrency {
  // https://www.swiftbysundell.com/articles/memory-management-when-using-async-await/ ("Long-running
  // observations"): a view controller keeps a task that iterates its user list's async sequence and
  // uses `self`; the sequence never ends, so neither does the task. Twin: `[weak self]`, and the
  // task cancelled when the screen goes.
  @MainActor final class UserList {
    let users: AsyncStream<[String]>
    private let continuation: AsyncStream<[String]>.Continuation
    init() { (users, continuation) = AsyncStream.makeStream(of: [String].self) }
    func update(_ users: [String]) { continuation.yield(users) }
  }

  @MainActor final class UserListViewController {
    let userList = UserList()
    private var observationTask: Task<Void, Never>?
    private(set) var rows: [String] = []
    func startObservingUsers() {
      observationTask = Task {
        for await users in userList.users {
          self.rows = users
        }
      }
    }
    func startObservingUsersWeakly() {
      observationTask = Task { [weak self, users = userList.users] in
        for await users in users {
          self?.rows = users
        }
      }
    }
    func stopObservingUsers() { observationTask?.cancel() }
  }

  // https://www.donnywals.com/how-to-use-weak-self-in-swift-concurrency-tasks/: a long-running
  // task in a loop that uses `self` keeps it until the loop ends; here an actor that polls a feed.
  // Twin: the loop reaches `self` weakly, once per turn.
  actor FeedPoller {
    private var task: Task<Void, Never>?
    private(set) var refreshes = 0
    func start() {
      task = Task {
        while !Task.isCancelled {
          self.refresh()
          try? await Task.sleep(for: .seconds(3600))
        }
      }
    }
    func startWeakly() {
      task = Task { [weak self] in
        while !Task.isCancelled, self != nil {
          await self?.refresh()
          try? await Task.sleep(for: .seconds(3600))
        }
      }
    }
    func stop() { task?.cancel() }
    private func refresh() { refreshes += 1 }
  }

  // https://dimillian.medium.com/use-task-with-asyncstream-and-avoid-retain-cycle-4c92dddf30ef: a
  // worker's `getSteps()` returns an AsyncStream whose `onTermination` cancels the worker's task and
  // uses `self`; a screen iterates it in a task (capturing the screen weakly), and "a Task will
  // retain everything within the Task": the iteration never ends, so the stream's `onTermination`,
  // and the worker, stay after the screen is gone. The article's fix captures `[weak self]` in
  // `onTermination` too.
  final class StepWorker: @unchecked Sendable {
    // @unchecked Sendable: `task` is only touched under `lock`.
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    func getSteps(weakly: Bool) -> AsyncStream<Int> {
      AsyncStream { continuation in
        if weakly {
          continuation.onTermination = { @Sendable [weak self] _ in self?.cancel() }
        } else {
          continuation.onTermination = { @Sendable _ in self.cancel() }
        }
        let task = Task {
          var step = 0
          while !Task.isCancelled {
            continuation.yield(step)
            step += 1
            try? await Task.sleep(for: .seconds(3600))
          }
          continuation.finish()
        }
        lock.withLock { self.task = task }
      }
    }
    func cancel() { lock.withLock { task }?.cancel() }
  }

  @MainActor final class StepsScreen {
    let worker = StepWorker()
    private(set) var label = 0
    func viewDidLoad(weakWorker: Bool) {
      let steps = worker.getSteps(weakly: weakWorker)
      Task { [weak self] in
        for await step in steps {
          self?.label = step
        }
      }
    }
  }

  // SE-0300, "Continuations for interfacing async tasks with synchronous code"
  // (https://github.com/swiftlang/swift-evolution/blob/main/proposals/0300-continuation.md): a task
  // suspended on a continuation nobody resumes stays suspended, with everything its frame holds.
  // A screen's task waits for a sign-in that never comes; the session keeps the continuation.
  final class Session: @unchecked Sendable {
    // @unchecked Sendable: `waiters` is only touched under `lock`.
    private let lock = NSLock()
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func waitUntilSignedIn() async {
      await withCheckedContinuation { continuation in lock.withLock { waiters.append(continuation) } }
    }
    func signIn() {
      for waiter in lock.withLock({ () -> [CheckedContinuation<Void, Never>] in
        defer { waiters.removeAll() }
        return waiters
      }) {
        waiter.resume()
      }
    }
  }

  @MainActor final class ProfileScreen {
    let session = Session()
    private var loadTask: Task<Void, Never>?
    private(set) var isShowingProfile = false
    func load() {
      loadTask = Task {
        await session.waitUntilSignedIn()
        self.isShowingProfile = true
      }
    }
    func loadWeakly() {
      loadTask = Task { [weak self, session] in
        await session.waitUntilSignedIn()
        self?.isShowingProfile = true
      }
    }
  }

  // swiftlang/swift#82752 ("[Observation] Ensure deinitialized Observable types don't leave active
  // observations in memory") and `withObservationTracking(_:onChange:)`: the model's registrar keeps
  // `onChange` until the next change; a controller that owns the model and whose `onChange` uses
  // `self` stays. Twin: `[weak self]`.
  @Observable final class Counter {
    var value = 0
  }

  @MainActor final class CounterController {
    let counter = Counter()
    private(set) var renders = 0
    var isOnScreen = true
    func render() {
      guard isOnScreen else { return }
      renders += 1
      withObservationTracking {
        _ = counter.value
      } onChange: {
        Task { @MainActor in self.render() }
      }
    }
    func renderWeakly() {
      renders += 1
      withObservationTracking {
        _ = counter.value
      } onChange: { [weak self] in
        Task { @MainActor in self?.renderWeakly() }
      }
    }
  }

  // SE-0306, "Actors" (https://github.com/swiftlang/swift-evolution/blob/main/proposals/0306-actors.md):
  // its `BankAccount` actor's `transfer(amount:to:)`; here each account remembers its last
  // counterparty, strongly, so two accounts that traded hold each other.
  actor BankAccount {
    let accountNumber: Int
    private(set) var balance: Double
    private var lastCounterparty: BankAccount?
    init(accountNumber: Int, initialDeposit: Double) {
      self.accountNumber = accountNumber
      self.balance = initialDeposit
    }
    func transfer(amount: Double, to other: BankAccount) async {
      balance -= amount
      lastCounterparty = other
      await other.deposit(amount: amount, from: self)
    }
    func deposit(amount: Double, from other: BankAccount) {
      balance += amount
      lastCounterparty = other
    }
    func forgetCounterparty() { lastCounterparty = nil }
  }

  actor FixedBankAccount {
    let accountNumber: Int
    private(set) var balance: Double
    private weak var lastCounterparty: FixedBankAccount?
    init(accountNumber: Int, initialDeposit: Double) {
      self.accountNumber = accountNumber
      self.balance = initialDeposit
    }
    func transfer(amount: Double, to other: FixedBankAccount) async {
      balance -= amount
      lastCounterparty = other
      await other.deposit(amount: amount, from: self)
    }
    func deposit(amount: Double, from other: FixedBankAccount) {
      balance += amount
      lastCounterparty = other
    }
  }

  // The Swift Programming Language, "Concurrency" ("Like classes, actors are reference types") with
  // the ARC chapter's `asHTML` cycle: an actor keeps a closure that uses the actor.
  actor ThumbnailRenderer {
    private var onFinish: (@Sendable () async -> Void)?
    private(set) var finished = 0
    func configure() {
      onFinish = { await self.markFinished() }
    }
    func configureWeakly() {
      onFinish = { [weak self] in await self?.markFinished() }
    }
    func finish() async { await onFinish?() }
    func reset() { onFinish = nil }
    private func markFinished() { finished += 1 }
  }
}

@Suite(.everyObjectRuns) struct ConcurrencyCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a task iterating a never-ending sequence uses self")
  func taskIteratingASequenceUsesSelf() async throws {
    try await Corpus.expectLeak(
      [
        .object(
          Concurrency.UserListViewController.self, heldBy: "Task: …UserListViewController.startObservingUsers()"),
        .also(Concurrency.UserList.self, heldBy: "UserListViewController.userList"),
      ],
      onMainActor: {
        let controller = Concurrency.UserListViewController()
        controller.startObservingUsers()
        controller.userList.update(["Ada"])
        return Leak(controller) { @MainActor [weak controller] in controller?.stopObservingUsers() }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func taskIteratingASequenceCapturesSelfWeakly() async {
    let controller = Concurrency.UserListViewController()
    controller.startObservingUsersWeakly()
    controller.userList.update(["Ada"])
    controller.stopObservingUsers()
  }

  @Test("Fails on purpose: an actor's polling task uses the actor")
  func pollingTaskUsesItsActor() async throws {
    try await Corpus.expectLeak([
      .object(Concurrency.FeedPoller.self, heldBy: "Task: …FeedPoller.start()")
    ]) {
      let poller = Concurrency.FeedPoller()
      await poller.start()
      return Leak(poller) { [weak poller] in await poller?.stop() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func pollingTaskReachesItsActorWeakly() async {
    let poller = Concurrency.FeedPoller()
    await poller.startWeakly()
  }

  @Test("Fails on purpose: an AsyncStream's onTermination uses the worker its task feeds")
  func asyncStreamOnTerminationUsesTheWorker() async throws {
    try await Corpus.expectLeak(
      [
        .object(
          Concurrency.StepWorker.self,
          heldBy: "Task: closure #3 in closure #1 in …getSteps(weakly:)…_Storage.state.onTermination")
      ],
      onMainActor: {
        let screen = Concurrency.StepsScreen()
        screen.viewDidLoad(weakWorker: false)
        let worker = screen.worker
        return Leak(worker) { [weak worker] in worker?.cancel() }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func asyncStreamOnTerminationCapturesTheWorkerWeakly() async {
    let screen = Concurrency.StepsScreen()
    screen.viewDidLoad(weakWorker: true)
  }

  @Test("Fails on purpose: a task suspended on a continuation nobody resumes")
  func taskSuspendedOnAContinuation() async throws {
    try await Corpus.expectLeak(
      [
        .object(Concurrency.ProfileScreen.self, heldBy: "Task: …ProfileScreen.load()"),
        .also(Concurrency.Session.self, heldBy: "ProfileScreen.session"),
      ],
      onMainActor: {
        let screen = Concurrency.ProfileScreen()
        screen.load()
        // Let the task reach its continuation, so the session keeps it.
        await Task.yield()
        return Leak(screen) { @MainActor [weak screen] in screen?.session.signIn() }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func taskSuspendedOnAContinuationCapturesTheScreenWeakly() async {
    let screen = Concurrency.ProfileScreen()
    screen.loadWeakly()
    await Task.yield()
    let session = screen.session
    session.signIn()
  }

  @Test("Fails on purpose: an observation's onChange uses the controller that owns the model")
  func observationOnChangeUsesItsController() async throws {
    try await Corpus.expectLeak(
      [
        .object(Concurrency.CounterController.self, heldBy: "Counter._$observationRegistrar"),
        .also(Concurrency.Counter.self, heldBy: "CounterController.counter"),
      ],
      onMainActor: {
        let controller = Concurrency.CounterController()
        controller.render()
        return Leak(controller) { @MainActor [weak controller] in
          controller?.isOnScreen = false
          controller?.counter.value += 1  // runs `onChange` once, which drops it
        }
      })
  }

  @Test(.detectsLeaks(.everyObject)) @MainActor func observationOnChangeCapturesTheControllerWeakly() async {
    let controller = Concurrency.CounterController()
    controller.renderWeakly()
  }

  @Test("Fails on purpose: two actors that traded hold each other")
  func actorsHoldingEachOther() async throws {
    try await Corpus.expectLeak([
      .object(Concurrency.BankAccount.self, heldBy: "BankAccount.lastCounterparty"),
      .also(Concurrency.BankAccount.self, heldBy: "BankAccount.lastCounterparty"),
    ]) {
      let checking = Concurrency.BankAccount(accountNumber: 1, initialDeposit: 100)
      let savings = Concurrency.BankAccount(accountNumber: 2, initialDeposit: 0)
      await checking.transfer(amount: 25, to: savings)
      return Leak(checking, savings) { [weak checking] in await checking?.forgetCounterparty() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func actorsRememberingEachOtherWeakly() async {
    let checking = Concurrency.FixedBankAccount(accountNumber: 1, initialDeposit: 100)
    let savings = Concurrency.FixedBankAccount(accountNumber: 2, initialDeposit: 0)
    await checking.transfer(amount: 25, to: savings)
  }

  @Test("Fails on purpose: an actor keeps a closure that uses the actor")
  func actorKeepsAClosureUsingItself() async throws {
    try await Corpus.expectLeak([
      .object(Concurrency.ThumbnailRenderer.self, heldBy: "ThumbnailRenderer.onFinish (a closure that captures it)")
    ]) {
      let renderer = Concurrency.ThumbnailRenderer()
      await renderer.configure()
      await renderer.finish()
      return Leak(renderer) { [weak renderer] in await renderer?.reset() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func actorKeepsAClosureUsingItselfWeakly() async {
    let renderer = Concurrency.ThumbnailRenderer()
    await renderer.configureWeakly()
    await renderer.finish()
  }
}
