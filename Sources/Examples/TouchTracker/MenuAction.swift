/// The message a menu item sends to the current responder: the platform-neutral `Selector`.
///
/// ```swift
/// extension MenuAction {
///   static let duplicateLine = MenuAction("duplicateLine:")
/// }
/// ```
public struct MenuAction: Hashable, Sendable, CustomStringConvertible {
  /// The action's name, spelled like an Objective-C selector for readers of the Objective-C edition.
  public let name: String

  public init(_ name: String) {
    self.name = name
  }

  /// Deletes the selected line.
  public static let deleteLine = MenuAction("deleteLine:")

  public var description: String { name }
}
