/// One ``LeakTracker`` per running `XCTestCase`, so every object a test tracks is checked together
/// (and the report can say which tracked object holds which). The entry is removed by the teardown
/// block that checks it.
enum TestCaseTrackers {
  private static let trackers = LockedState<[ObjectIdentifier: LeakTracker]>([:])

  /// The tracker for `testCase`, and whether this call created it (the caller then registers the
  /// teardown block that checks it).
  static func tracker(for testCase: ObjectIdentifier) -> (tracker: LeakTracker, isNew: Bool) {
    trackers.withLock { trackers in
      if let existing = trackers[testCase] { return (existing, false) }
      let tracker = LeakTracker()
      trackers[testCase] = tracker
      return (tracker, true)
    }
  }

  static func remove(_ testCase: ObjectIdentifier) {
    _ = trackers.withLock { trackers in trackers.removeValue(forKey: testCase) }
  }
}
