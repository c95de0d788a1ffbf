import Foundation
import PresentationModel
import PresentationTestSupport
import Testing

/// The engine under every center checks the rules of its storage (each entry at its registration's
/// slot, the tombstones counted, none at the end, fewer than half tombstones, no pending
/// registration stored, the channel table's keys in increasing order) after every change, in builds with
/// `PRESENTATION_INTERNAL_CHECKS` (CI's AddressSanitizer run: `.ci/sanitizers.sh`). A broken rule stops the program with
/// the rule's message; here every kind of change runs on every center in a child process, so that a
/// broken rule fails this test by name instead of ending the whole run.
@Suite(
  .enabled(if: TestHooks.internalChecksAreCompiledIn, "the checks are compiled in with PRESENTATION_INTERNAL_CHECKS"),
  .timeLimit(.minutes(1)))
struct StorageInvariantTests {
  /// The exit code of a child that ran the changes through: a failing code, because only an exit
  /// test that expects failure hands the test what the child wrote on standard error (a broken rule
  /// stops the child with a signal instead).
  static let ranThrough: CInt = 42

  @Test("every change of a center's storage keeps its rules", arguments: CenterKind.allCases)
  func everyChangeKeepsTheStorageRules(center kind: CenterKind) async {
    // An exit test captures nothing: one body per center.
    let result: ExitTest.Result?
    switch kind {
    case .typed:
      result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await StorageInvariantTests.changeEveryWay(on: .typed)
        exit(StorageInvariantTests.ranThrough)
      }
    case .mainActor:
      result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await StorageInvariantTests.changeEveryWay(on: .mainActor)
        exit(StorageInvariantTests.ranThrough)
      }
    case .bridge:
      result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await StorageInvariantTests.changeEveryWay(on: .bridge)
        exit(StorageInvariantTests.ranThrough)
      }
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    let broken = output.split(separator: "\n").first { $0.contains("failed") } ?? "\(output.prefix(300))"
    #expect(result?.exitStatus == .exitCode(Self.ranThrough), "\(kind): \(broken)")
  }

  /// Every change an engine makes to its storage: growth, appends while a post reads (a copy),
  /// removals while a post reads (deferred to the last reader), tombstones popped at the end and
  /// compacted at half, sweeps of owners that died unnoticed, channels removed and made again, and
  /// the center's end.
  @MainActor static func changeEveryWay(on kind: CenterKind) {
    let driver = kind.makeDriver()
    var owners = (0..<60).map { _ in ModelOwner() }
    var tokens: [ObserverToken] = []
    for (index, owner) in owners.enumerated() {
      let form = driver.forms[index % driver.forms.count]
      tokens.append(driver.observe(ModelPing.self, form: form, owner: owner, sender: nil) { _ in })
    }
    // During a post: ends a third of the others and registers more, then a nested post.
    let late = LockedBox<[ObserverToken]>([])
    tokens.append(
      driver.observe(ModelPing.self, form: .token, owner: nil, sender: nil) { [tokens] note in
        guard note.value == 1 else { return }
        for token in tokens.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) { token.cancel() }
        let added = driver.observe(ModelPing.self, form: .token, owner: nil, sender: nil) { _ in }
        late.withLock { $0.append(added) }
        driver.post(ModelPing(value: 2), sender: nil)
      })
    driver.post(ModelPing(value: 1), sender: nil)
    // Ends in a scrambled order: tombstones, pops at the end, compactions at half.
    for index in 0..<tokens.count where index % 2 == 1 { tokens[index * 7 % tokens.count].cancel() }
    // Owners that die unnoticed, swept by later registrations.
    owners.removeAll()
    for _ in 0..<80 {
      let owner = ModelOwner()
      driver.observe(ModelPong.self, form: .owner, owner: owner, sender: nil) { _ in }
    }
    // Every registration of a type ended: its channel goes, and comes back with the next one.
    for token in tokens + late.value { token.cancel() }
    let again = driver.observe(ModelPing.self, form: .token, owner: nil, sender: nil) { _ in }
    driver.post(ModelPing(value: 3), sender: nil)
    again.cancel()
    withExtendedLifetime(owners) {}
  }
}
