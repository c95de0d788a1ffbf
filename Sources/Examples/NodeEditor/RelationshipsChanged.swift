public import PresentationModel

/// Posted after inputs changed: a connection was made, or references to a deleted node were removed.
public struct RelationshipsChanged: TypedNotification {
  /// The nodes whose inputs changed.
  public let changedNodeIDs: [Node.ID]
}
