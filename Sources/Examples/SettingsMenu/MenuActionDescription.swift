/// An action of a ``MenuDescription``: title, image, attributes, on/off state and what it does;
/// mirrors `UIAction`.
public struct MenuActionDescription: Sendable {
  /// Mirrors `UIMenuElement.Attributes`.
  public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let disabled = Attributes(rawValue: 1 << 0)
    public static let destructive = Attributes(rawValue: 1 << 1)
    /// Choosing the action leaves the menu open, so several settings can be changed in a row.
    public static let keepsMenuPresented = Attributes(rawValue: 1 << 2)
  }

  /// Mirrors `UIMenuElement.State`.
  public enum State: Sendable {
    case off
    case on
    case mixed
  }

  /// Identifies the action within its menu (tests and hosts choose actions by id).
  public var id: String
  public var title: String
  /// An SF Symbol name.
  public var imageName: String?
  public var attributes: Attributes
  public var state: State
  /// What choosing the action does.
  public var handler: @MainActor @Sendable () -> Void

  public init(
    id: String, title: String, imageName: String? = nil, attributes: Attributes = [], state: State = .off,
    handler: @escaping @MainActor @Sendable () -> Void
  ) {
    self.id = id
    self.title = title
    self.imageName = imageName
    self.attributes = attributes
    self.state = state
    self.handler = handler
  }
}
