#if canImport(UIKit)
  import PresentationModel
  public import UIKit

  /// The node menu of a navigation bar, on iOS: change the selected node's type, or delete it.
  /// The menu is re-assigned whenever the selection or a type changes, so it always offers what the
  /// editor's ``NodeEditor/menuActions`` offer.
  @available(iOS 16.0, *)
  @MainActor
  public final class NodeMenuBarButton {
    public let editor: NodeEditor
    public let item: UIBarButtonItem

    public init(editor: NodeEditor) {
      self.editor = editor
      item = UIBarButtonItem(image: UIImage(systemName: "ellipsis.circle"), menu: nil)
      item.menu = makeMenu()
      editor.center.observeOnMainActor(NodeSelectionChanged.self, owner: self, from: editor) { button, _ in
        button.item.menu = button.makeMenu()
      }
      editor.center.observeOnMainActor(NodeTypeChanged.self, owner: self, from: editor) { button, _ in
        button.item.menu = button.makeMenu()
      }
    }

    private func makeMenu() -> UIMenu {
      UIMenu(
        children: editor.menuActions.map { action in
          UIAction(
            title: action.description, attributes: action == .delete ? .destructive : []
          ) { [weak editor] _ in editor?.perform(action) }
        })
    }
  }
#endif
