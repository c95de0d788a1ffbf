import Dispatch
import PresentationModel
import Synchronization
import Testing

@Suite struct OneShotTests {
  @Test func tokenFormFiresOnceThenEnds() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    let token = center.observeOnce(Counted.self) { note in log.record("\(note.value)") }
    #expect(center.observerCount(for: Counted.self) == 1)
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])
    #expect(!token.isActive)
    #expect(center.observerCount(for: Counted.self) == 0)
  }

  @Test func ownerFormFiresOnceAndEndsWithTheOwner() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    var owner: Owner? = Owner("o", log: log)
    center.observeOnce(Counted.self, owner: owner!) { owner, note in owner.log.record("\(note.value)") }
    center.post(Counted(value: 1))
    center.post(Counted(value: 2))
    #expect(log.entries == ["1"])

    center.observeOnce(Counted.self, owner: owner!) { owner, note in owner.log.record("again \(note.value)") }
    owner = nil
    center.post(Counted(value: 3))
    #expect(log.entries == ["1"])
    #expect(center.observerCount(for: Counted.self) == 0)
  }

  @Test func releasingTheTokenBeforeAnyPostEndsItWithoutACall() {
    let center = TypedNotificationCenter()
    let log = Recorder()
    var token: ObserverToken? = center.observeOnce(Counted.self) { _ in log.record("called") }
    #expect(token?.isActive == true)
    token = nil
    center.post(Counted(value: 1))
    #expect(log.entries.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func concurrentPostsCallItExactlyOnce() {
    for _ in 0..<200 {
      let center = TypedNotificationCenter()
      let calls = Atomic<Int>(0)
      let token = center.observeOnce(Counted.self) { _ in calls.add(1, ordering: .relaxed) }
      DispatchQueue.concurrentPerform(iterations: 8) { index in center.post(Counted(value: index)) }
      #expect(calls.load(ordering: .relaxed) == 1)
      #expect(!token.isActive)
    }
  }
}
