public import PresentationModel

/// Posted after the selected node changed, including when the selected node was deleted.
public struct NodeSelectionChanged: TypedNotification {
  public let selectedNodeID: Node.ID?
}
