/// What the editor's menu offers for the selected node.
public enum NodeMenuAction: Hashable, Sendable, CustomStringConvertible {
  case changeType(NodeType)
  case delete

  public var description: String {
    switch self {
    case .changeType(let type): "Change to \(type.rawValue)"
    case .delete: "Delete"
    }
  }
}
