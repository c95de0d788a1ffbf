import Foundation
import PresentationModel
import PresentationTestSupport
import Testing

/// Each transition of a registration's life, pinned on every center and every form it offers:
/// stored when `observe` returns, never stored when its owner is already deinitialising, ended by a
/// cancel (at once, or after the post reading it), by a one-shot's call, by a post that finds its
/// owner or sender dead, by its token's release, by its sequence's end and by its center's end.
/// Each checks what the transition decides (whether the handler is called) and what the engine then
/// carries out (whether the handler, held through what it captures, is released).
@Suite(.timeLimit(.minutes(1))) @MainActor struct LifecycleTests {
  /// Runs `body` for each form of a fresh center of `kind` that `isIncluded` accepts, with one
  /// owner for all (kept alive throughout) and one counter of the probes the handlers capture.
  private func forEachForm(
    of kind: CenterKind, where isIncluded: (ObserveForm) -> Bool = { _ in true },
    _ body: (_ driver: any CenterDriver, _ form: ObserveForm, _ owner: ModelOwner, _ probes: CaptureProbes) -> Void
  ) {
    let driver = kind.makeDriver()
    let owner = ModelOwner()
    let probes = CaptureProbes()
    for form in driver.forms where isIncluded(form) { body(driver, form, owner, probes) }
    withExtendedLifetime(owner) {}
  }

  /// Observes `ModelPing` in `form` with a handler that captures a new probe of `probes` (held by
  /// nothing else) and counts its calls in `calls`.
  private func observe(
    on driver: any CenterDriver, _ form: ObserveForm, owner: ModelOwner?, sender: ModelSender? = nil,
    probes: CaptureProbes, counting calls: LockedBox<Int>
  ) -> ObserverToken {
    let probe = probes.make()
    return driver.observe(ModelPing.self, form: form, owner: owner, sender: sender) { _ in
      probe.touch()
      calls.withLock { $0 += 1 }
    }
  }

  @Test("pending → live: a registration is stored and delivers once observe returns", arguments: CenterKind.allCases)
  func registrationIsLiveOnceObserveReturns(center kind: CenterKind) {
    forEachForm(of: kind) { driver, form, owner, _ in
      let calls = LockedBox(0)
      let token = driver.observe(ModelPing.self, form: form, owner: owner, sender: nil) { _ in
        calls.withLock { $0 += 1 }
      }
      #expect(token.isActive, "\(kind), \(form)")
      #expect(driver.observerCount(for: ModelPing.self) == 1, "\(kind), \(form)")
      driver.post(ModelPing(value: 1), sender: nil)
      #expect(calls.value == 1, "\(kind), \(form): not delivered")
      token.cancel()
    }
  }

  @Test(
    "pending → ended: an observer whose owner is already deinitialising is never stored, and its handler goes at once",
    arguments: CenterKind.allCases)
  func registrationWhoseOwnerIsDeinitialisingIsNeverStored(center kind: CenterKind) {
    let driver = kind.makeDriver()
    let probes = CaptureProbes()
    let tokens = LockedBox<[ObserverToken]>([])
    for form in driver.forms where form.hasOwner {
      let probe = probes.make()
      _ = ModelOwner { owner in  // deinitialises at once
        let token = driver.observe(ModelPing.self, form: form, owner: owner, sender: nil) { _ in probe.touch() }
        tokens.withLock { $0.append(token) }
      }
    }
    #expect(tokens.value.count == driver.forms.count { $0.hasOwner })
    #expect(tokens.value.allSatisfy { !$0.isActive }, "\(kind): a token of a dead owner is active")
    #expect(probes.aliveCount == 0, "\(kind): \(probes.aliveCount) handlers of dead owners still held")
    #expect(driver.registrationCount == 0, "\(kind)")
  }

  @Test("live → ended: a cancel ends a registration and releases its handler at once", arguments: CenterKind.allCases)
  func cancelEndsARegistrationAndReleasesItsHandler(center kind: CenterKind) {
    forEachForm(of: kind) { driver, form, owner, probes in
      let calls = LockedBox(0)
      let token = observe(on: driver, form, owner: owner, probes: probes, counting: calls)
      token.cancel()
      #expect(!token.isActive, "\(kind), \(form)")
      #expect(probes.aliveCount == 0, "\(kind), \(form): the handler outlived the cancel")
      driver.post(ModelPing(value: 1), sender: nil)
      #expect(calls.value == 0, "\(kind), \(form): called after its cancel")
    }
  }

  @Test(
    "live → ended during a post: not called by it afterwards, and released once the post returns",
    arguments: CenterKind.allCases)
  func registrationEndedDuringAPostIsReleasedWhenThePostReturns(center kind: CenterKind) {
    forEachForm(of: kind) { driver, form, owner, probes in
      // Two observers that end each other: whichever the post calls first (the bridge calls in
      // Foundation's order), the other ends while the post is under way.
      let calls = LockedBox(0)
      let tokens = LockedBox<[ObserverToken]>([])
      for index in 0..<2 {
        let probe = probes.make()
        let token = driver.observe(ModelPing.self, form: form, owner: owner, sender: nil) { _ in
          probe.touch()
          calls.withLock { $0 += 1 }
          tokens.value[1 - index].cancel()
        }
        tokens.withLock { $0.append(token) }
      }
      driver.post(ModelPing(value: 1), sender: nil)
      // The one called lives on, unless it is a one-shot, which its call ended.
      let survivors = form.isOneShot ? 0 : 1
      #expect(calls.value == 1, "\(kind), \(form): called after it ended during the post")
      #expect(tokens.value.count { $0.isActive } == survivors, "\(kind), \(form)")
      #expect(probes.aliveCount == survivors, "\(kind), \(form): the handler outlived the post that ended it")
      for token in tokens.value { token.cancel() }
    }
  }

  @Test(
    "live → claimed → ended: a one-shot is called once, even when it posts the same type, then released",
    arguments: CenterKind.allCases)
  func oneShotIsCalledOnceThenReleased(center kind: CenterKind) {
    forEachForm(of: kind, where: \.isOneShot) { driver, form, owner, probes in
      let calls = LockedBox(0)
      let probe = probes.make()
      let token = driver.observe(ModelPing.self, form: form, owner: owner, sender: nil) { note in
        probe.touch()
        calls.withLock { $0 += 1 }
        if note.value < 3 { driver.post(ModelPing(value: note.value + 1), sender: nil) }
      }
      _ = consume probe
      driver.post(ModelPing(value: 1), sender: nil)
      driver.post(ModelPing(value: 1), sender: nil)
      #expect(calls.value == 1, "\(kind), \(form): a one-shot called \(calls.value) times")
      #expect(!token.isActive && probes.aliveCount == 0, "\(kind), \(form): the handler outlived its one call")
    }
  }

  @Test("live → ended: a post that finds the owner dead ends the registration", arguments: CenterKind.allCases)
  func postThatFindsTheOwnerDeadEndsTheRegistration(center kind: CenterKind) {
    forEachForm(of: kind, where: \.hasOwner) { driver, form, _, probes in
      var owner: ModelOwner? = ModelOwner()
      let calls = LockedBox(0)
      let token = observe(on: driver, form, owner: owner, probes: probes, counting: calls)
      owner = nil
      #expect(probes.aliveCount == 1, "\(kind), \(form): held until something looks")
      driver.post(ModelPing(value: 1), sender: nil)
      #expect(calls.value == 0, "\(kind), \(form): called without its owner")
      #expect(!token.isActive, "\(kind), \(form)")
      #expect(probes.aliveCount == 0, "\(kind), \(form): the post did not end it")
    }
  }

  /// A sender's death is found by a post of the typed and main-actor centers (any post: the
  /// filter is read before the sender is compared); the bridge's Foundation center only calls an
  /// observer for its own object, so there the sweep of a later registration of the type finds it.
  @Test("live → ended: a registration whose sender died is ended by the next look", arguments: CenterKind.allCases)
  func registrationWhoseSenderDiedIsEnded(center kind: CenterKind) {
    forEachForm(of: kind) { driver, form, owner, probes in
      var sender: ModelSender? = ModelSender()
      let token = observe(on: driver, form, owner: owner, sender: sender, probes: probes, counting: LockedBox(0))
      sender = nil
      #expect(!token.isActive, "\(kind), \(form)")
      if kind == .bridge {
        let keep = (0..<40).map { _ in driver.observe(ModelPing.self, form: .token, owner: nil, sender: nil) { _ in } }
        for token in keep { token.cancel() }
      } else {
        driver.post(ModelPing(value: 1), sender: ModelSender())
      }
      #expect(probes.aliveCount == 0, "\(kind), \(form): nothing ended it")
    }
  }

  @Test("live → ended: releasing its last token ends a token-bound registration", arguments: CenterKind.allCases)
  func releasingTheTokenEndsATokenBoundRegistration(center kind: CenterKind) {
    let driver = kind.makeDriver()
    let probes = CaptureProbes()
    for form in driver.forms where !form.hasOwner {
      let probe = probes.make()
      do {
        _ = driver.observe(ModelPing.self, form: form, owner: nil, sender: nil) { _ in probe.touch() }
      }
      _ = consume probe
      #expect(probes.aliveCount == 0, "\(kind), \(form): the handler outlived its token")
      #expect(driver.registrationCount == 0, "\(kind), \(form)")
    }
  }

  @Test(
    "live → ended: the center's end ends every registration and releases every handler", arguments: CenterKind.allCases)
  func centerEndEndsEveryRegistration(center kind: CenterKind) {
    var driver: (any CenterDriver)? = kind.makeDriver()
    let owner = ModelOwner()
    let probes = CaptureProbes()
    var tokens: [ObserverToken] = []
    for form in driver?.forms ?? [] {
      let probe = probes.make()
      tokens.append(driver!.observe(ModelPing.self, form: form, owner: owner, sender: nil) { _ in probe.touch() })
    }
    weak let center = driver?.center
    driver = nil
    #expect(center == nil, "\(kind): the center outlived its last reference")
    #expect(tokens.allSatisfy { !$0.isActive }, "\(kind): a token is active after its center went")
    #expect(probes.aliveCount == 0, "\(kind): \(probes.aliveCount) handlers outlived their center")
    withExtendedLifetime(owner) {}
  }

  @Test("live → ended: a sequence's end (its task cancelled) ends its registration", arguments: CenterKind.allCases)
  func sequenceEndEndsItsRegistration(center kind: CenterKind) async {
    let driver = kind.makeDriver()
    let consumer: Task<Void, Never>
    let token: ObserverToken
    switch driver {
    case let typed as TypedCenterDriver:
      let sequence = typed.typed.notifications(of: ModelPing.self, bufferingPolicy: .unbounded)
      token = sequence.token
      consumer = Task { for await _ in sequence {} }
    case let mainActor as MainActorCenterDriver:
      let sequence = mainActor.mainActor.notifications(of: ModelPing.self, bufferingPolicy: .unbounded)
      token = sequence.token
      consumer = Task { for await _ in sequence {} }
    case let bridge as BridgeDriver:
      let sequence = bridge.bridge.notifications(of: ModelPing.self, bufferingPolicy: .unbounded)
      token = sequence.token
      consumer = Task { for await _ in sequence {} }
    default:
      Issue.record("no such center: \(kind)")
      return
    }
    #expect(token.isActive)
    consumer.cancel()
    await consumer.value
    await drainMainQueue()
    #expect(!token.isActive, "\(kind): the sequence ended, its registration did not")
    #expect(driver.registrationCount == 0, "\(kind)")
  }
}
