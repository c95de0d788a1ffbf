public import PresentationModel

/// Posted after a node's type changed.
public struct NodeTypeChanged: TypedNotification {
  public let node: Node
}
