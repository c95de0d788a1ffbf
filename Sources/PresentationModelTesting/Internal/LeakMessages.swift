/// The wording of harness failures, shared by both test frameworks.
enum LeakMessages {
  static func survivor(_ survivor: LeakReport.Survivor, waited: Duration) -> String {
    var holders: [String] = []
    if !survivor.retainingPaths.isEmpty {
      holders.append("Still held by " + survivor.retainingPaths.joined(separator: ", ") + ".")
    }
    for observer in survivor.retainingObservers {
      holders.append("Held by \(observer).")
    }
    if holders.isEmpty {
      holders.append(
        "No tracked object holds it in a stored property: look for a closure capturing it, "
          + "a strong delegate, or an owner that was not tracked.")
    }
    return "Leaked \(survivor.typeName): still alive \(waited.roundedSeconds) s after the test ended "
      + "(tracked at \(survivor.site.description)). " + holders.joined(separator: " ")
  }

  static let trackedOutsideScope =
    "trackForLeaks(_:) was called outside a test that detects leaks, so nothing would check the object. "
    + "Add the trait, as in @Test(.detectsLeaks), or @Suite(.detectsLeaks) on the suite; "
    + "in an XCTestCase call self.trackForLeaks(_:) instead."
}
