import PresentationModel

/// What an `expectNoObservers` call checks and where it fails: it polls the leftovers until there
/// are none or the timeout passes, then fails at the call's line listing what is left.
struct NoObserversExpectation {
  let filter: ObserverFilter
  let timeout: Duration
  let site: CallSite

  /// Polls `leftovers` on the caller's actor, so that it may read a main-actor center.
  func check(
    _ leftovers: (ObserverFilter) -> [LeftoverObserver], isolation: isolated (any Actor)? = #isolation
  ) async -> [RegistrationInfo] {
    let start = ContinuousClock.now
    await Polling.poll(timeout: timeout) { leftovers(filter).isEmpty }
    return report(leftovers(filter), waited: start.duration(to: .now))
  }

  /// The blocking form of ``check(_:isolation:)``.
  func checkBlocking(_ leftovers: (ObserverFilter) -> [LeftoverObserver]) -> [RegistrationInfo] {
    let start = ContinuousClock.now
    Polling.pollBlocking(timeout: timeout) { leftovers(filter).isEmpty }
    return report(leftovers(filter), waited: start.duration(to: .now))
  }

  /// Fails at the call's line listing `remaining`, if any; returns their registrations.
  private func report(_ remaining: [LeftoverObserver], waited: Duration) -> [RegistrationInfo] {
    if !remaining.isEmpty {
      let message = SurvivorWording.observers(
        remaining.map { SurvivorWording.observer($0.registration, owner: $0.owner) },
        notificationType: filter.notificationType, ownerType: filter.ownerType, waited: waited)
      FailureReporter.fail(message, at: site)
    }
    return remaining.map(\.registration)
  }
}
