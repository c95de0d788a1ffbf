import PresentationTestSupport
import Testing

@testable import PresentationModel

/// The engine's channel table against a `Dictionary`, through random inserts and removals among
/// 200 keys, at the front, the middle and the end of its order.
@Suite struct ChannelTableTests {
  private final class Key {}

  @Test(arguments: [1, 2, 3] as [UInt64])
  func agreesWithADictionary(seed: UInt64) {
    let keys = (0..<200).map { _ in Key() }
    var table = ChannelTable()
    // Each channel is told apart by its storage, made with it.
    var model: [ObjectIdentifier: EntryStorage] = [:]
    var generator = SeededGenerator(seed: seed)
    func next() -> Int {
      Int(truncatingIfNeeded: generator.next() >> 1)
    }
    for step in 0..<5_000 {
      let identifier = ObjectIdentifier(keys[next() % keys.count])
      if next() % 3 == 0 || model[identifier] != nil && next() % 2 == 0 {
        #expect(table.remove(identifier)?.storage === model.removeValue(forKey: identifier), "step \(step)")
      } else if model[identifier] == nil {
        model[identifier] = table.modifyOrInsert(identifier) { $0.storage }
      }
      #expect(table.all.count == model.count, "step \(step)")
      if step % 50 == 0 {
        for key in keys {
          let identifier = ObjectIdentifier(key)
          #expect(table.storage(of: identifier) === model[identifier], "step \(step)")
        }
        #expect(Set(table.all.map(\.key)) == Set(model.keys))
      }
    }
    withExtendedLifetime(keys) {}
  }
}
