/// A node of the graph: a value object. Its inputs are the ids of the nodes that feed it.
public struct Node: Identifiable, Hashable, Sendable {
  public let id: Int
  public var name: String
  public var type: NodeType
  /// The nodes this one reads from, by id, in input order.
  public var inputs: [Node.ID]

  public init(id: Int, name: String, type: NodeType, inputs: [Node.ID] = []) {
    self.id = id
    self.name = name
    self.type = type
    self.inputs = inputs
  }
}
