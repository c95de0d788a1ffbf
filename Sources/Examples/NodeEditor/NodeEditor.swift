public import PresentationModel

/// The presentation model of the node editor: the nodes, their connections, the selection, and the
/// menu's actions.
///
/// Deleting the selected node removes it and every reference to it from other nodes' inputs, clears
/// the selection, then posts ``NodeDeleted``, ``RelationshipsChanged`` and ``NodeSelectionChanged``.
/// The state is consistent before the first observer runs: no observer sees a selection or an input
/// pointing at the deleted node.
///
/// ```swift
/// @MainActor func deleteOne() {
///   let editor = NodeEditor(center: TypedNotificationCenter())
///   let source = editor.addNode(named: "a", type: .number)
///   let sum = editor.addNode(named: "sum", type: .add)
///   editor.connect(source.id, to: sum.id)
///   editor.select(source.id)
///   editor.perform(.delete)
///   print(editor.nodes.map(\.name), editor.nodes[0].inputs)  // ["sum"] []
/// }
/// ```
@MainActor
public final class NodeEditor {
  /// Where the editor posts its notifications, always from itself.
  public let center: TypedNotificationCenter
  public private(set) var nodes: [Node] = []
  public private(set) var selectedNodeID: Node.ID?
  private var nextNodeID = 1

  public init(center: TypedNotificationCenter) {
    self.center = center
  }

  public var selectedNode: Node? {
    selectedNodeID.flatMap(node(withID:))
  }

  public func node(withID id: Node.ID) -> Node? {
    nodes.first { $0.id == id }
  }

  /// Adds a node and posts ``NodeAdded``.
  @discardableResult
  public func addNode(named name: String, type: NodeType) -> Node {
    let node = Node(id: nextNodeID, name: name, type: type)
    nextNodeID += 1
    nodes.append(node)
    center.post(NodeAdded(node: node), from: self)
    return node
  }

  /// Makes `source` an input of `target` and posts ``RelationshipsChanged``. Unknown ids, a node
  /// feeding itself, or a connection that exists already do nothing.
  public func connect(_ source: Node.ID, to target: Node.ID) {
    guard source != target, node(withID: source) != nil,
      let index = nodes.firstIndex(where: { $0.id == target }), !nodes[index].inputs.contains(source)
    else { return }
    nodes[index].inputs.append(source)
    center.post(RelationshipsChanged(changedNodeIDs: [target]), from: self)
  }

  /// Selects the node with `id`, or nothing for `nil`; an unknown id selects nothing.
  public func select(_ id: Node.ID?) {
    let newValue = id.flatMap { node(withID: $0)?.id }
    guard newValue != selectedNodeID else { return }
    selectedNodeID = newValue
    center.post(NodeSelectionChanged(selectedNodeID: newValue), from: self)
  }

  /// The menu's actions for the current selection: a type change to each other type, and delete.
  /// Empty when nothing is selected.
  public var menuActions: [NodeMenuAction] {
    guard let selected = selectedNode else { return [] }
    return NodeType.allCases.filter { $0 != selected.type }.map(NodeMenuAction.changeType) + [.delete]
  }

  /// Performs a menu action on the selected node; with nothing selected it does nothing.
  public func perform(_ action: NodeMenuAction) {
    guard let selected = selectedNode, let index = nodes.firstIndex(where: { $0.id == selected.id }) else { return }
    switch action {
    case .changeType(let type):
      guard type != selected.type else { return }
      nodes[index].type = type
      center.post(NodeTypeChanged(node: nodes[index]), from: self)
    case .delete:
      deleteNode(at: index)
    }
  }

  private func deleteNode(at index: Int) {
    let deleted = nodes.remove(at: index)
    var rewired: [Node.ID] = []
    for i in nodes.indices where nodes[i].inputs.contains(deleted.id) {
      nodes[i].inputs.removeAll { $0 == deleted.id }
      rewired.append(nodes[i].id)
    }
    let selectionChanged = selectedNodeID == deleted.id
    if selectionChanged { selectedNodeID = nil }
    // All state is final before anyone hears of it.
    center.post(NodeDeleted(node: deleted), from: self)
    center.post(RelationshipsChanged(changedNodeIDs: rewired), from: self)
    if selectionChanged { center.post(NodeSelectionChanged(selectedNodeID: nil), from: self) }
  }
}
