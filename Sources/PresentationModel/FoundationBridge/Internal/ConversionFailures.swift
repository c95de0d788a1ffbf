internal import Foundation

/// Reports, in debug builds, the first Foundation notification of each type whose `init?(_:)`
/// returned `nil`. Release builds skip such notifications silently.
package enum ConversionFailures {
  /// The types whose failure was reported (made the first time one is, in a debug build).
  static let printed = LockedState<Set<ObjectIdentifier>>([])

  static func report<N>(_ type: N.Type, name: Notification.Name) {
    #if DEBUG
      guard printed.withLock({ $0.insert(ObjectIdentifier(N.self)).inserted }) else { return }
      let line =
        "FoundationNotificationBridge: skipped a Foundation notification named \"\(name.rawValue)\": "
        + "\(String(reflecting: N.self)).init?(_:) returned nil. Reported once per type, in debug builds.\n"
      FileHandle.standardError.write(Data(line.utf8))
    #endif
  }
}
