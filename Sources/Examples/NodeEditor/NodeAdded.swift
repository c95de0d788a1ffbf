public import PresentationModel

/// Posted after a node was added.
public struct NodeAdded: TypedNotification {
  public let node: Node
}
