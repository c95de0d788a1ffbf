public import PresentationModel

/// Posted by a ``ContextMenu`` when it appears or hides, so a platform view can follow it.
public struct MenuVisibilityChanged: TypedNotification {
  public let isVisible: Bool
  /// Where the menu points at, while visible.
  public let anchor: Point?
  /// The items offered, while visible.
  public let items: [MenuItem]
}
