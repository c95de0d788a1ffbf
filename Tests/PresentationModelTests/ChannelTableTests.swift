import PresentationTestSupport
import Testing

@testable import PresentationModel

/// The center's channel table against a `Dictionary`, through random inserts and removals that
/// grow it and make long probe runs, so that deletion by backward shift is exercised.
@Suite struct ChannelTableTests {
  private struct Probe: TypedNotification {}
  private final class Key {}

  @Test(arguments: [1, 2, 3] as [UInt64])
  func agreesWithADictionary(seed: UInt64) {
    let keys = (0..<200).map { _ in Key() }
    var table = ChannelTable()
    var model: [ObjectIdentifier: Channel] = [:]
    var generator = SeededGenerator(seed: seed)
    func next() -> Int {
      Int(truncatingIfNeeded: generator.next() >> 1)
    }
    for step in 0..<5_000 {
      let identifier = ObjectIdentifier(keys[next() % keys.count])
      if next() % 3 == 0 || model[identifier] != nil && next() % 2 == 0 {
        #expect(table.remove(identifier) === model.removeValue(forKey: identifier), "step \(step)")
      } else if model[identifier] == nil {
        let channel = Channel()
        table.insert(channel, for: identifier)
        model[identifier] = channel
      }
      #expect(table.count == model.count, "step \(step)")
      if step % 50 == 0 {
        for key in keys {
          let identifier = ObjectIdentifier(key)
          #expect(table[identifier] === model[identifier], "step \(step)")
        }
        #expect(Set(table.identifiers) == Set(model.keys))
      }
    }
    withExtendedLifetime(keys) {}
  }
}
