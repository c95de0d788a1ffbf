/// The wording of harness failures, shared by both test frameworks.
enum LeakMessages {
  static func survivor(_ survivor: LeakReport.Survivor, waited: Duration) -> String {
    let holders =
      survivor.retainingPaths.isEmpty
      ? "No tracked object holds it in a stored property: look for a closure capturing it, "
        + "a strong delegate, or an owner that was not tracked."
      : "Still held by " + survivor.retainingPaths.joined(separator: ", ") + "."
    return "Leaked \(survivor.typeName): still alive \(waited.roundedSeconds) s after the test ended "
      + "(tracked at \(survivor.site.description)). \(holders)"
  }

  static let trackedOutsideScope =
    "trackForLeaks(_:) was called outside a test that detects leaks, so nothing would check the object. "
    + "Add the trait, as in @Test(.detectsLeaks), or @Suite(.detectsLeaks) on the suite; "
    + "in an XCTestCase call self.trackForLeaks(_:) instead."
}
