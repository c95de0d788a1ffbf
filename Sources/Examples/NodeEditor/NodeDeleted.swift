public import PresentationModel

/// Posted after a node was removed from the graph and from every other node's inputs; the node is gone from `NodeEditor/nodes` when observers run.
public struct NodeDeleted: TypedNotification {
  public let node: Node
}
