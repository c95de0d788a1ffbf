#if canImport(UIKit)
  import PresentationModel
  public import UIKit

  /// A node on the iOS canvas. ``NodeCanvasView`` hands it to the canvas as `FadableView(view)`
  /// (alpha, `removeFromSuperview()`), so ``PendingDelete`` fades and disposes it like any widget;
  /// its observers end with it.
  @available(iOS 16.0, *)
  public final class NodeWidgetView: UIView {
    public let nodeID: Node.ID
    private let label = UILabel(frame: .zero)

    public init(node: Node, editor: NodeEditor, frame: CGRect) {
      nodeID = node.id
      super.init(frame: frame)
      label.text = "\(node.name) (\(node.type.rawValue))"
      addSubview(label)
      backgroundColor = editor.selectedNodeID == node.id ? .systemGreen : .secondarySystemBackground
      editor.center.observeOnMainActor(NodeTypeChanged.self, owner: self, from: editor) { view, change in
        if change.node.id == view.nodeID { view.label.text = "\(change.node.name) (\(change.node.type.rawValue))" }
      }
      editor.center.observeOnMainActor(NodeSelectionChanged.self, owner: self, from: editor) { view, change in
        view.backgroundColor = change.selectedNodeID == view.nodeID ? .systemGreen : .secondarySystemBackground
      }
    }

    @available(*, unavailable, message: "NodeWidgetView is created in code with init(node:editor:frame:)")
    public required init?(coder: NSCoder) {
      fatalError("NodeWidgetView is created in code with init(node:editor:frame:)")
    }
  }
#endif
