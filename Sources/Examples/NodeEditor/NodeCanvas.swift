public import PresentationModel

/// Shows one widget per node and fades out the widget of a deleted node with ``PendingDelete``.
///
/// The canvas holds its widgets strongly only while their nodes exist. On ``NodeDeleted`` it hands
/// the widget to ``PendingDelete`` and forgets it: the fade's strong reference is then the last one,
/// and after `dispose()` the widget deinitialises and its observers end. Two deletions in flight
/// are two independent fades (the classic single `nodeWidgetPendingDelete` slot could hold one).
///
/// ```swift
/// @MainActor func show() {
///   let editor = NodeEditor(center: TypedNotificationCenter())
///   let canvas = NodeCanvas(editor: editor, pendingDelete: PendingDelete()) { node, editor in
///     NodeWidget(node: node, editor: editor)
///   }
///   editor.addNode(named: "a", type: .number)
///   print(canvas.widgets.count)  // 1
/// }
/// ```
@MainActor
public final class NodeCanvas {
  /// Makes the widget for a node: a ``NodeWidget``, or a platform view.
  public typealias WidgetFactory = @MainActor (Node, NodeEditor) -> any Fadable

  public let editor: NodeEditor
  public let pendingDelete: PendingDelete
  /// The widgets of the nodes that exist, by node id. A deleted node's widget is not here, even
  /// while it fades.
  public private(set) var widgets: [Node.ID: any Fadable] = [:]
  private let makeWidget: WidgetFactory

  /// Creates the canvas, with a widget for each node the editor has, and follows the editor.
  public init(editor: NodeEditor, pendingDelete: PendingDelete, makeWidget: @escaping WidgetFactory) {
    self.editor = editor
    self.pendingDelete = pendingDelete
    self.makeWidget = makeWidget
    for node in editor.nodes { widgets[node.id] = makeWidget(node, editor) }
    editor.center.observeOnMainActor(NodeAdded.self, owner: self, from: editor) { canvas, added in
      canvas.widgets[added.node.id] = canvas.makeWidget(added.node, canvas.editor)
    }
    editor.center.observeOnMainActor(NodeDeleted.self, owner: self, from: editor) { canvas, deleted in
      guard let widget = canvas.widgets.removeValue(forKey: deleted.node.id) else { return }
      canvas.pendingDelete.fadeOutAndDispose(widget)
    }
  }
}
