internal import Foundation

#if DEBUG
  /// The debug-build check that a sender filter is an object that can outlive the `observe` call.
  ///
  /// A registration holds its sender weakly and ends when the sender deinitialises. A value passed
  /// where an object is expected (`from: "editor" as AnyObject`, `from: 42 as AnyObject`) is
  /// boxed or bridged into a new object that only the call's argument holds: it deinitialises as
  /// soon as the call returns, and the token is inactive from then on, without a word. This check
  /// names the call instead.
  enum SenderCheck {
    private struct Probe {}

    /// The class Swift boxes a value in when it is cast to `AnyObject` and bridges to no
    /// Foundation class: one class for every such value type.
    private static let boxClass = ObjectIdentifier(type(of: Probe() as AnyObject))

    /// What `sender` is, when it is a value in an object made for the cast; `nil` for other objects.
    static func temporaryKind(of sender: AnyObject) -> String? {
      if ObjectIdentifier(type(of: sender)) == boxClass {
        return "a value of a struct or enum type, boxed in a new object"
      }
      #if !canImport(ObjectiveC)
        // swift-corelibs-foundation bridges these value types to a new object at every cast. (With
        // Objective-C, small strings and numbers bridge to tagged pointers and constants, which
        // never deinitialise, so there only the box above is a sure temporary.)
        if sender is NSString { return "a String bridged to a new NSString" }
        if sender is NSNumber { return "a number or Bool bridged to a new NSNumber" }
        if sender is NSArray { return "an Array bridged to a new NSArray" }
        if sender is NSDictionary { return "a Dictionary bridged to a new NSDictionary" }
        if sender is NSSet { return "a Set bridged to a new NSSet" }
        if sender is NSData { return "a Data bridged to a new NSData" }
        if sender is NSDate { return "a Date bridged to a new NSDate" }
        if sender is NSURL { return "a URL bridged to a new NSURL" }
        if sender is NSUUID { return "a UUID bridged to a new NSUUID" }
      #endif
      return nil
    }

    /// Reports the registration made at `fileID`:`line` when its sender filter (`from:`) is a
    /// temporary.
    static func check(_ sender: AnyObject?, fileID: StaticString, line: Int) {
      guard let sender, let kind = temporaryKind(of: sender) else { return }
      let message =
        "The sender filter (from:) of the observe call at \(fileID):\(line) is \(kind): nothing else holds "
        + "it, so it deinitialises when the call returns and the observation ends at once, delivering nothing. "
        + "Filter by the object that posts, an instance of a class that outlives the observation."
      RegistrationDiagnostics.report(.init(message: message, fileID: fileID, line: line))
    }
  }
#endif
