/// One child of a ``MenuDescription``: an action, a submenu, or an element provided only when the
/// menu opens; mirrors `UIMenuElement`.
public enum MenuElement: Sendable {
  case action(MenuActionDescription)
  case menu(MenuDescription)
  case deferred(DeferredMenuElement)
}
