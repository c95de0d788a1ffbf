/// A menu as data: what UIKit's `UIMenu` shows, testable without UIKit.
///
/// ```swift
/// let menu = MenuDescription(
///   title: "View",
///   options: [.displayInline, .singleSelection],
///   children: [
///     .action(MenuActionDescription(id: "list", title: "List", state: .on) {}),
///     .action(MenuActionDescription(id: "grid", title: "Grid", state: .off) {}),
///   ])
/// print(menu.children.count)  // 2
/// ```
public struct MenuDescription: Sendable {
  /// How a submenu is shown; mirrors `UIMenu.Options`.
  public struct Options: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Shown inside its parent, separated by lines, rather than as a submenu.
    public static let displayInline = Options(rawValue: 1 << 0)
    /// At most one child action is on at a time.
    public static let singleSelection = Options(rawValue: 1 << 1)
  }

  /// How large the children are drawn; mirrors `UIMenu.ElementSize`.
  public enum ElementSize: Sendable {
    case small
    case medium
    case large
  }

  public var title: String
  /// An SF Symbol name.
  public var imageName: String?
  public var options: Options
  public var preferredElementSize: ElementSize
  public var children: [MenuElement]

  public init(
    title: String, imageName: String? = nil, options: Options = [], preferredElementSize: ElementSize = .large,
    children: [MenuElement]
  ) {
    self.title = title
    self.imageName = imageName
    self.options = options
    self.preferredElementSize = preferredElementSize
    self.children = children
  }
}
