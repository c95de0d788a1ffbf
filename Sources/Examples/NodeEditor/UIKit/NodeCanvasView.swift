#if canImport(UIKit)
  import PresentationModel
  public import UIKit

  /// The iOS canvas: a ``NodeCanvas`` whose widgets are ``NodeWidgetView``s laid out in a grid.
  @available(iOS 16.0, *)
  public final class NodeCanvasView: UIView {
    public private(set) var canvas: NodeCanvas?

    public init(editor: NodeEditor, frame: CGRect) {
      super.init(frame: frame)
      canvas = NodeCanvas(editor: editor, pendingDelete: PendingDelete()) { [weak self] node, editor in
        let column = Double((node.id - 1) % 4)
        let row = Double((node.id - 1) / 4)
        let widget = NodeWidgetView(
          node: node, editor: editor, frame: CGRect(x: 20 + 140 * column, y: 20 + 90 * row, width: 120, height: 60))
        self?.addSubview(widget)
        return FadableView(widget)
      }
    }

    @available(*, unavailable, message: "NodeCanvasView is created in code with init(editor:frame:)")
    public required init?(coder: NSCoder) {
      fatalError("NodeCanvasView is created in code with init(editor:frame:)")
    }
  }
#endif
