import PresentationModel
import Testing
import XCTest

/// Everything a test left behind, found when it ended, worded and located for its issues.
struct LeakFindings {
  struct Finding {
    let message: String
    let location: SourceLocation
    /// The type that leaked (an object, an observer's owner, a widget), for an expectation.
    let leakedType: (any AnyObject.Type)?
  }

  var findings: [Finding] = []

  /// Waits up to `timeout` for the tracked objects, and (from `.observersAndWidgets` on) the
  /// registrations and widgets of `log`, and the survivors of `everyObject`, to go; then words what
  /// is left.
  static func collect(
    tracker: LeakTracker, log: LeakScopeLog, everyObject: EveryObjectScope?, level: LeakDetectionTrait.Level,
    timeout: Duration, test: SourceLocation
  ) async -> LeakFindings {
    let clock = ContinuousClock()
    let start = clock.now
    // A test that left nothing behind is not kept waiting: the first look passes.
    await Polling.poll(timeout: timeout) { isClean(tracker: tracker, log: log, everyObject: everyObject, level: level) }
    return make(
      tracker: tracker, log: log, everyObject: everyObject, level: level, waited: start.duration(to: clock.now),
      test: test)
  }

  /// The blocking form of ``collect(tracker:log:everyObject:level:timeout:test:)``, for XCTest.
  static func collectBlocking(
    tracker: LeakTracker, log: LeakScopeLog, everyObject: EveryObjectScope?, level: LeakDetectionTrait.Level,
    timeout: Duration, test: SourceLocation
  ) -> LeakFindings {
    let clock = ContinuousClock()
    let start = clock.now
    Polling.pollBlocking(timeout: timeout) {
      isClean(tracker: tracker, log: log, everyObject: everyObject, level: level)
    }
    return make(
      tracker: tracker, log: log, everyObject: everyObject, level: level, waited: start.duration(to: clock.now),
      test: test)
  }

  private static func isClean(
    tracker: LeakTracker, log: LeakScopeLog, everyObject: EveryObjectScope?, level: LeakDetectionTrait.Level
  ) -> Bool {
    tracker.liveCount == 0 && (level < .observersAndWidgets || !TestLeftovers.anyLeft(in: log))
      && (everyObject?.statistics.live ?? 0) == 0
  }

  private static func make(
    tracker: LeakTracker, log: LeakScopeLog, everyObject: EveryObjectScope?, level: LeakDetectionTrait.Level,
    waited: Duration, test: SourceLocation
  ) -> LeakFindings {
    let checksLog = level >= .observersAndWidgets
    let everyObjectFindings = everyObject?.finish()
    var result = LeakFindings()
    let (report, survivors) = tracker.reportNow(waited: waited)
    for (survivor, object) in zip(report.survivors, survivors) {
      result.findings.append(
        Finding(
          message: SurvivorWording.leakFailure(survivor, waited: waited),
          location: SourceLocation(
            fileID: survivor.fileID, filePath: survivor.filePath, line: survivor.line, column: max(survivor.column, 1)),
          leakedType: type(of: object)))
    }
    guard checksLog else { return result }
    if let everyObjectFindings {
      result.findings += everyObjectLeaks(
        everyObjectFindings, tracked: survivors, log: log, waited: waited, test: test)
    }
    let leftovers = TestLeftovers.find(in: log, roots: survivors)
    for observer in leftovers.observers {
      result.findings.append(
        Finding(
          message: SurvivorWording.leftoverObserver(observer, waited: waited),
          location: SourceLocation(
            fileID: observer.registration.fileID, filePath: observer.registration.fileID,
            line: observer.registration.line, column: 1),
          leakedType: observer.registration.ownerType))
    }
    for widget in leftovers.widgets {
      let fileID = String(describing: widget.fileID)
      result.findings.append(
        Finding(
          message: SurvivorWording.leftoverWidget(widget, waited: waited),
          location: SourceLocation(fileID: fileID, filePath: fileID, line: widget.line, column: 1),
          leakedType: widget.type))
    }
    withExtendedLifetime(survivors) {}
    return result
  }

  /// One finding per leak among the objects the test allocated and left alive, at the test: those
  /// reported elsewhere with a better place (tracked objects, the owners of leftover registrations,
  /// widgets of leftover fades) are left out of the survivors, not of what holds them.
  private static func everyObjectLeaks(
    _ findings: EveryObjectFindings, tracked: [AnyObject], log: LeakScopeLog, waited: Duration, test: SourceLocation
  ) -> [Finding] {
    var reportedElsewhere = Set(tracked.map(ObjectIdentifier.init))
    for record in log.registrations where record.isLive {
      if let owner = record.owner { reportedElsewhere.insert(ObjectIdentifier(owner)) }
    }
    for fade in log.fades {
      if let widget = fade.widget { reportedElsewhere.insert(ObjectIdentifier(widget)) }
    }
    let survivors = findings.survivors.filter { !reportedElsewhere.contains(ObjectIdentifier($0.object)) }
    let singletons = EveryObjectLeak.singletons(among: survivors)
    let leaks = EveryObjectLeak.group(survivors, excluding: singletons.excluded)
    let heads = leaks.map { $0.members[0].object }
    var holders = Holders.of(heads, roots: findings.survivors.map(\.object) + tracked, log: log)
    // A path from a singleton starts at its global: `the global Registry.shared, through
    // Registry.listeners[0]`.
    for (identity, held) in holders {
      holders[identity]?.paths = held.paths.map { path in
        guard let global = singletons.globals.first(where: { path.hasPrefix($0.typeName + ".") }) else { return path }
        return "the global \(global.name), through \(path)"
      }
    }
    return leaks.map { leak in
      let head = leak.members[0].object
      return Finding(
        message: SurvivorWording.everyObjectLeak(
          leak, holders: holders[ObjectIdentifier(head)] ?? Holders(), waited: waited),
        location: test, leakedType: type(of: head))
    }
  }

  /// Records an issue per finding; with an expectation, the expected ones as known issues, and an
  /// issue for each expected leak not found.
  func record(expecting expectation: LeakDetectionTrait.Expectation?) {
    guard let expectation else {
      for finding in findings { Self.record(finding) }
      return
    }
    let isExpected = { (finding: Finding) -> Bool in
      guard !expectation.types.isEmpty else { return true }
      guard let leaked = finding.leakedType else { return false }
      return expectation.types.contains { ObjectIdentifier($0) == ObjectIdentifier(leaked) }
    }
    let expected = findings.filter(isExpected)
    for finding in findings where !isExpected(finding) { Self.record(finding) }
    if !expected.isEmpty {
      withKnownIssue {
        for finding in expected { Self.record(finding) }
      }
    }
    if expectation.types.isEmpty {
      if expected.isEmpty { Issue.record("The test was expected to leak (expecting: .anyLeak), and nothing leaked.") }
      return
    }
    for type in expectation.types
    where !expected.contains(where: { $0.leakedType.map(ObjectIdentifier.init) == ObjectIdentifier(type) }) {
      Issue.record(
        "The test was expected to leak a \(String(reflecting: type)) (expecting: .leaks(of:)), and none leaked.")
    }
  }

  private static func record(_ finding: Finding) {
    Issue.record(Comment(rawValue: finding.message), sourceLocation: finding.location)
  }

  /// Fails the running XCTest test once per finding, at `file` and `line` (XCTest takes only a
  /// `StaticString` file), each message saying where the leftover was made.
  func failInXCTest(file: StaticString, line: UInt) {
    for finding in findings {
      XCTFail("\(finding.location.fileID):\(finding.location.line): \(finding.message)", file: file, line: line)
    }
  }
}
