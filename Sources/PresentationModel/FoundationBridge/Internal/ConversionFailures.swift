internal import Foundation

/// Reports, in debug builds, the first Foundation notification of each type whose `init?(_:)`
/// returned `nil`. Release builds skip such notifications silently.
package enum ConversionFailures {
  #if DEBUG
    /// How many reports were printed, per type: at most one each.
    static let printed = LockedState<[ObjectIdentifier: Int]>([:])
  #endif

  static func report<N>(_ type: N.Type, name: Notification.Name) {
    #if DEBUG
      let isFirst = printed.withLock { printed in
        guard printed[ObjectIdentifier(N.self)] == nil else { return false }
        printed[ObjectIdentifier(N.self)] = 1
        return true
      }
      guard isFirst else { return }
      let line =
        "FoundationNotificationBridge: skipped a Foundation notification named \"\(name.rawValue)\": "
        + "\(String(reflecting: N.self)).init?(_:) returned nil. Reported once per type, in debug builds.\n"
      FileHandle.standardError.write(Data(line.utf8))
    #endif
  }
}
