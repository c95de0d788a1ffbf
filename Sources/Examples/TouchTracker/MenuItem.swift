/// One entry of a ``ContextMenu``: what it says and which action it sends.
public struct MenuItem: Hashable, Sendable {
  public let title: String
  public let action: MenuAction

  public init(title: String, action: MenuAction) {
    self.title = title
    self.action = action
  }
}
