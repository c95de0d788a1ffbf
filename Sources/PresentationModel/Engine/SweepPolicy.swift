/// When a growing collection looks for members that ended by themselves and drops them: each time
/// it has doubled since it last looked. A channel looks for registrations whose owner or sender died
/// unnoticed (nobody posted since), an ``ObserverBag`` for tokens whose observation ended.
///
/// Looking costs the members counted, and happens once the count reaches twice what the last look
/// kept (at least `minimum`): looking is amortised O(1) per member added, and ended members never
/// outnumber twice the kept ones plus `minimum`. (A threshold set from the count before a look,
/// ended members included, doubled at every look: a channel whose owners all died kept nearly all of
/// them.)
struct SweepPolicy {
  private let minimum: Int
  private var threshold: Int

  init(minimum: Int) {
    self.minimum = minimum
    self.threshold = minimum
  }

  /// Whether the collection, holding `count` members not known to have ended, should look now.
  /// One look at a time: the next is due only after `finished(keeping:)`.
  mutating func isDue(count: Int) -> Bool {
    guard count >= threshold else { return false }
    threshold = .max
    return true
  }

  /// Sets the next look from how many members the last one kept.
  mutating func finished(keeping kept: Int) {
    threshold = Swift.max(minimum, kept * 2)
  }

  #if PRESENTATION_INTERNAL_CHECKS
    func _checkInvariants() {
      precondition(threshold >= minimum, "SweepPolicy: the next look at \(threshold) is below \(minimum)")
    }
  #endif
}
