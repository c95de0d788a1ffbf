import Foundation
import PresentationModelDiagnostics
import PresentationTestSupport
import Testing

/// What a scope reports: no false survivor from a reused address; only classes of the counted
/// modules; module narrowing and the ignore list; bounded memory for objects made and freed.
@Suite(.everyObjectRuns) struct EveryObjectSoundnessTests {
  // Two classes of one instance size (two words of header, two of fields): glibc hands a freed
  // instance's memory to the next allocation of that size.
  final class Freed {
    var first = 0
    var second = 0
  }
  final class SameSize {
    var first = 0
    var second = 0
  }

  static func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

  @Test("a freed object's address is not handed out while its record holds it, so it cannot be reported as alive")
  func addressReuseGivesNoFalseReport() async throws {
    // Without a scope, the allocator hands a freed instance's address to the next object of that
    // size (skipped under a sanitizer, whose allocator quarantines freed memory): this is the
    // hazard. Shown on a thread of its own, whose allocation cache starts empty: on a pool thread
    // that other tests' work had filled, the freed chunk went to the arena, where other threads
    // took it (CI saw none of 64 allocations get it, twice, with the other suites in parallel).
    if !isSanitized {
      let reused = await onAThreadOfItsOwn { () -> Bool in
        var first: Freed? = made { Freed() }
        let freedAddress = Self.address(first!)
        first = nil
        let next = made { SameSize() }
        return withExtendedLifetime(next) { Self.address(next) == freedAddress }
      }
      #expect(reused, "glibc did not reuse the address: the test proves nothing here")
    }
    let scope = try EveryObjectScope(EveryObjectOptions(modules: [testModule]))
    var recordedAddress: UInt = 0
    scope.withTracking {
      var object: Freed? = made { Freed() }
      recordedAddress = Self.address(object!)
      object = nil
    }
    // Same-size objects made outside the scope and kept: none takes the recorded address.
    var others: [SameSize] = []
    for _ in 0..<10_000 {
      others.append(made { SameSize() })
    }
    #expect(!others.contains { Self.address($0) == recordedAddress })
    let findings = scope.finish()
    #expect(findings.survivors.isEmpty, "\(findings.survivorNames)")
    #expect(findings.trackedCount == 1)
    if !isSanitized {
      // The record released, the memory is the allocator's again: a few same-size allocations on
      // this thread take it back (not necessarily the first: `finish()` may free other chunks of
      // this size after the record, and the allocator hands out the last freed first).
      var reused: [SameSize] = []
      for _ in 0..<64 {
        reused.append(made { SameSize() })
      }
      #expect(reused.contains { Self.address($0) == recordedAddress })
    }
  }

  final class Counted: Sendable {}

  @Test(
    "types outside the counted modules are not reported: Foundation's, the standard library's storage, closures, boxes, this package's own"
  )
  func typesOutsideTheCountedModulesAreNotReported() throws {
    let scope = try EveryObjectScope()
    var kept: [Any] = []
    var counter = 0
    scope.withTracking {
      kept.append(NSObject())
      kept.append(NSMutableArray(array: [1, 2, 3]))
      kept.append(JSONEncoder())
      kept.append(DispatchQueue(label: "kept"))
      kept.append([1, 2, 3])  // array storage
      kept.append(String(repeating: "heap string ", count: 8))  // string storage
      kept.append([1: "one"])  // dictionary storage
      kept.append({ counter += 1 })  // a closure context and the box of `counter`
      kept.append(TypedNotificationCenter())  // PresentationModel
      kept.append(LeakTracker())  // PresentationModelDiagnostics
      kept.append(Counted())  // the one that counts
    }
    let findings = scope.finish()
    #expect(findings.survivorNames == ["Counted"])
    #expect(findings.trackedCount == 1)
    withExtendedLifetime(kept) {}
  }

  @Test("narrowed to named modules, only their classes count")
  func moduleNarrowing() throws {
    func survivors(modules: [String]) throws -> [String] {
      let scope = try EveryObjectScope(EveryObjectOptions(modules: modules))
      var kept: [AnyObject] = []
      scope.withTracking {
        kept.append(LockedBox(1))  // PresentationTestSupport
        kept.append(Counted())  // this module
      }
      defer { withExtendedLifetime(kept) {} }
      return scope.finish().survivorNames
    }
    #expect(try survivors(modules: []) == ["LockedBox<Int>", "Counted"])
    #expect(try survivors(modules: ["PresentationTestSupport"]) == ["LockedBox<Int>"])
    #expect(try survivors(modules: [testModule]) == ["Counted"])
    #expect(try survivors(modules: [testModule, "PresentationTestSupport"]) == ["LockedBox<Int>", "Counted"])
    #expect(try survivors(modules: ["NoSuchModule"]) == [])
  }

  class Ignored {}
  final class IgnoredSubclass: Ignored {}
  final class Generic<Element> {}

  @Test("ignored types are not reported, a generic one in every specialisation; their subclasses are")
  func ignoreList() throws {
    let scope = try EveryObjectScope(EveryObjectOptions(ignoring: [Ignored.self, Generic<Int>.self]))
    var kept: [AnyObject] = []
    scope.withTracking {
      kept.append(Ignored())
      kept.append(Generic<Int>())
      kept.append(Generic<String>())
      kept.append(IgnoredSubclass())
      kept.append(Counted())
    }
    let findings = scope.finish()
    #expect(findings.survivorNames == ["IgnoredSubclass", "Counted"])
    #expect(findings.trackedCount == 2)
    withExtendedLifetime(kept) {}
  }

  final class Churn: Sendable {}

  @Test(
    "1,000,000 objects (100,000 under a sanitizer) made and freed in a scope are swept as it goes: their memory is not held"
  )
  func madeAndFreedObjectsAreSwept() async throws {
    let count = repetitions(1_000_000, sanitized: 100_000)
    let scope = try EveryObjectScope(EveryObjectOptions(modules: [testModule]))
    let (survivor, mostHeld) = await onAThreadOfItsOwn {
      var mostHeld = 0
      let kept = scope.withTracking {
        let kept = made { Churn() }
        for index in 0..<count {
          _ = made { Churn() }
          if index % 4_096 == 0 { mostHeld = max(mostHeld, scope.statistics.held) }
        }
        return kept
      }
      return (kept, mostHeld)
    }
    let statistics = scope.statistics
    #expect(statistics.tracked == count + 1)
    #expect(statistics.live == 1)
    #expect(statistics.swept >= count + 1 - 128)
    #expect(
      mostHeld <= 128 && statistics.held <= 128, "records held: at most \(mostHeld), at the end \(statistics.held)")
    let findings = scope.finish()
    #expect(findings.survivors.count == 1 && findings.survivors.first?.object === survivor)
  }

  @Test("finish closes the scope: a second finish, and allocations after it, find nothing; statistics read zero")
  func finishCloses() throws {
    let scope = try EveryObjectScope(EveryObjectOptions(modules: [testModule]))
    var kept: [AnyObject] = []
    scope.withTracking { kept.append(Counted()) }
    let open = scope.statistics
    #expect(open.live == 1 && open.held == 1 && open.tracked == 1 && open.swept == 0)
    #expect(scope.finish().survivors.count == 1)
    scope.withTracking { kept.append(Counted()) }
    let again = scope.finish()
    #expect(again.survivors.isEmpty && again.trackedCount == 0)
    let closed = scope.statistics
    #expect(closed.live == 0 && closed.held == 0 && closed.tracked == 0 && closed.swept == 0)
  }

  @Test("a scope dropped without finish gives back the retain it took on each survivor")
  func aDroppedScopeReleasesItsSurvivors() throws {
    var survivor: Counted?
    do {
      let scope = try EveryObjectScope(EveryObjectOptions(modules: [testModule]))
      survivor = scope.withTracking { made { Counted() } }
    }
    weak let weakSurvivor = survivor
    survivor = nil
    #expect(weakSurvivor == nil)
  }
}
