public import PresentationModel

/// A node on the canvas, without a platform view: what it shows and how opaque it is.
///
/// It observes the editor for its own node's type and selection, with observers bound to its
/// lifetime: once ``PendingDelete`` disposes of it and lets go, it deinitialises and they are gone.
///
/// > Note: A disposed widget ignores further notifications; ``isOnCanvas`` turns `false` once.
@MainActor
public final class NodeWidget: Fadable {
  public let nodeID: Node.ID
  public private(set) var title: String
  public private(set) var isSelected = false
  public private(set) var isOnCanvas = true
  public var opacity = 1.0 {
    didSet { onOpacityChange?(opacity) }
  }
  /// Called after each opacity change: where a platform view would redraw (the demo draws a bar).
  /// Capture the widget weakly, or not at all.
  public var onOpacityChange: (@MainActor (Double) -> Void)?
  /// Called once, when the widget is disposed.
  public var onDispose: (@MainActor () -> Void)?

  /// Creates the widget for `node` and starts following `editor`.
  public init(node: Node, editor: NodeEditor) {
    nodeID = node.id
    title = Self.title(for: node)
    isSelected = editor.selectedNodeID == node.id
    editor.center.observeOnMainActor(NodeTypeChanged.self, owner: self, from: editor) { widget, change in
      if change.node.id == widget.nodeID, widget.isOnCanvas { widget.title = Self.title(for: change.node) }
    }
    editor.center.observeOnMainActor(NodeSelectionChanged.self, owner: self, from: editor) { widget, change in
      if widget.isOnCanvas { widget.isSelected = change.selectedNodeID == widget.nodeID }
    }
  }

  public func dispose() {
    guard isOnCanvas else { return }
    isOnCanvas = false
    onDispose?()
  }

  private static func title(for node: Node) -> String {
    "\(node.name) (\(node.type.rawValue))"
  }
}
