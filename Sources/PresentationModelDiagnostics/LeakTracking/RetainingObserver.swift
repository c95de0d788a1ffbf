public import PresentationModel

/// A live observer registration whose handler keeps a leaked object alive: the `observe` call to
/// fix.
///
/// The leak check finds these by reading the captures of every live handler in every center and
/// bridge of the process (`TypedNotificationCenter`, `MainActorNotificationCenter`,
/// `FoundationNotificationBridge`; see LeakTesting.md for what it can and cannot see).
public struct RetainingObserver: Sendable, CustomStringConvertible {
  /// The registration: its notification type, owner type, `observe` call and delivery.
  public let registration: RegistrationInfo
  /// How the handler reaches the object: `captures it`, `captures it in a var`,
  /// `captures it through Helper.model`.
  public let capture: String
  /// Where the leaked object stores this registration's token, when it does (the token keeps the
  /// registration, the center keeps the handler, the handler keeps the object: a cycle through the
  /// center), such as `Document.token`.
  public let tokenPath: String?

  /// For example `the handler of Saved observed (token) at MyAppTests/DocumentTests.swift:12,
  /// posting thread, which captures it (its token is stored in Document.token: a cycle through the
  /// center)`.
  public var description: String {
    var text = "the handler of \(registration), which \(capture)"
    if let tokenPath { text += " (its token is stored in \(tokenPath): a cycle through the center)" }
    return text
  }
}
