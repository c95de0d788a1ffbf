import PresentationModel
import PresentationModelTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct AsyncSequenceTests {
  @Test func deliversInPostingOrderAndRegistersAtOnce() async {
    let center = TypedNotificationCenter()
    let sequence = center.notifications(of: Counted.self, bufferingPolicy: .unbounded)
    #expect(center.observerCount(for: Counted.self) == 1, "registered before iteration starts")
    for value in 1...5 { center.post(Counted(value: value)) }
    var received: [Int] = []
    for await note in sequence {
      received.append(note.value)
      if received.count == 5 { break }
    }
    #expect(received == [1, 2, 3, 4, 5])
  }

  @Test func bufferingNewestKeepsTheLatest() async {
    let center = TypedNotificationCenter()
    let sequence = center.notifications(of: Counted.self, bufferingPolicy: .bufferingNewest(2))
    for value in 1...5 { center.post(Counted(value: value)) }
    sequence.token.cancel()  // finish after what is buffered
    var received: [Int] = []
    for await note in sequence { received.append(note.value) }
    #expect(received == [4, 5])
  }

  @Test func bufferingOldestKeepsTheFirst() async {
    let center = TypedNotificationCenter()
    let sequence = center.notifications(of: Counted.self, bufferingPolicy: .bufferingOldest(2))
    for value in 1...5 { center.post(Counted(value: value)) }
    sequence.token.cancel()
    var received: [Int] = []
    for await note in sequence { received.append(note.value) }
    #expect(received == [1, 2])
  }

  @Test func cancellingTheConsumingTaskEndsTheRegistration() async {
    let center = TypedNotificationCenter()
    let sequence = center.notifications(of: Counted.self, bufferingPolicy: .unbounded)
    let consumer = Task {
      var count = 0
      for await _ in sequence { count += 1 }
      return count
    }
    center.post(Counted(value: 1))
    consumer.cancel()
    _ = await consumer.value  // the loop ended: the task's cancellation finished the sequence
    #expect(!sequence.token.isActive)
    await expectNoObservers(in: center, of: Counted.self, timeout: .zero)
  }

  @Test func droppingTheSequenceEndsTheRegistration() {
    let center = TypedNotificationCenter()
    do {
      let sequence = center.notifications(of: Counted.self, bufferingPolicy: .unbounded)
      #expect(center.observerCount(for: Counted.self) == 1)
      _ = sequence.makeAsyncIterator()
    }
    expectNoObservers(in: center, timeout: .zero)
  }

  @Test func anIteratorKeepsTheRegistrationAliveAfterTheSequenceIsDropped() async {
    let center = TypedNotificationCenter()
    var iterator = center.notifications(of: Counted.self, bufferingPolicy: .unbounded).makeAsyncIterator()
    #expect(center.observerCount(for: Counted.self) == 1)
    center.post(Counted(value: 7))
    #expect(await iterator.next()?.value == 7)
  }

  @Test func centerDeinitFinishesTheSequence() async throws {
    var center: TypedNotificationCenter? = TypedNotificationCenter()
    let sequence = try #require(center).notifications(of: Counted.self, bufferingPolicy: .unbounded)
    try #require(center).post(Counted(value: 1))
    center = nil
    var received: [Int] = []
    for await note in sequence { received.append(note.value) }
    #expect(received == [1], "buffered values are handed out, then the sequence finishes")
    #expect(!sequence.token.isActive)
  }

  @Test func senderFilteredSequence() async {
    let center = TypedNotificationCenter()
    let sender = Sender()
    let sequence = center.notifications(of: Counted.self, from: sender, bufferingPolicy: .unbounded)
    center.post(Counted(value: 1))
    center.post(Counted(value: 2), from: sender)
    sequence.token.cancel()
    var received: [Int] = []
    for await note in sequence { received.append(note.value) }
    #expect(received == [2])
  }

  @Test func postsFromManyTasksAllArrive() async {
    let center = TypedNotificationCenter()
    let sequence = center.notifications(of: Counted.self, bufferingPolicy: .unbounded)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<4 {
        group.addTask {
          for value in 0..<250 { center.post(Counted(value: task * 1000 + value)) }
        }
      }
    }
    sequence.token.cancel()
    var received: [Int] = []
    for await note in sequence { received.append(note.value) }
    #expect(received.count == 1000)
    #expect(Set(received).count == 1000)
    for task in 0..<4 {
      let mine = received.filter { $0 / 1000 == task }
      #expect(mine == mine.sorted(), "posts from one task arrive in their order")
    }
  }
}
