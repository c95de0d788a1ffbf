/// One line of a menu as it is on screen: deferred elements resolved, submenus flattened into a
/// section named after them (the model does not distinguish inline groups from nested submenus).
public struct PresentedMenuItem: Hashable, Sendable, CustomStringConvertible {
  public let id: String
  public let title: String
  public let imageName: String?
  public let isOn: Bool
  /// The title of the inline group it belongs to, if any.
  public let section: String?

  public var description: String {
    "\(isOn ? "✓" : " ") \(title)" + (section.map { " [\($0)]" } ?? "")
  }
}
