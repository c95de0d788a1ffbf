public import PresentationModel

/// The one context menu an app shows, the platform-neutral `UIMenuController.shared`.
///
/// Fill ``items``, then ``show(at:for:)``: only the items whose action the responder implements are
/// offered, and with none of them the menu does not appear at all.
///
/// ```swift
/// final class Greeter: MenuResponder {
///   func canPerform(_ action: MenuAction) -> Bool { action == MenuAction("greet:") }
///   func perform(_ action: MenuAction) { print("hello") }
/// }
/// @MainActor func showMenu() {
///   let menu = ContextMenu(center: TypedNotificationCenter())
///   let greeter = Greeter()
///   menu.items = [MenuItem(title: "Greet", action: MenuAction("greet:")), MenuItem(title: "Delete", action: .deleteLine)]
///   menu.show(at: Point(x: 10, y: 10), for: greeter)
///   print(menu.offeredItems.map(\.title))  // ["Greet"]
/// }
/// ```
///
/// > Note: ``MenuVisibilityChanged`` is posted (from the menu) exactly when ``isVisible`` changes.
@MainActor
public final class ContextMenu {
  /// Where the menu posts ``MenuVisibilityChanged``.
  public let center: TypedNotificationCenter

  /// The items to offer the next time the menu is shown.
  public var items: [MenuItem] = []

  /// Whether the menu is on screen.
  public private(set) var isVisible = false

  /// The items on screen: those of ``items`` the responder implements. Empty while hidden.
  public private(set) var offeredItems: [MenuItem] = []

  /// Where the menu points at while visible.
  public private(set) var anchor: Point?

  /// The responder the menu is shown for; held weakly, as UIKit holds the first responder.
  public private(set) weak var responder: (any MenuResponder)?

  public init(center: TypedNotificationCenter) {
    self.center = center
  }

  /// Shows the menu at `anchor` for `responder`, offering the items it implements.
  ///
  /// - Returns: Whether the menu is visible: `false` when the responder implements none of the
  ///   items (the menu is then hidden).
  @discardableResult
  public func show(at anchor: Point, for responder: any MenuResponder) -> Bool {
    let offered = items.filter { responder.canPerform($0.action) }
    guard !offered.isEmpty else {
      hide()
      return false
    }
    self.responder = responder
    self.anchor = anchor
    offeredItems = offered
    isVisible = true
    center.post(MenuVisibilityChanged(isVisible: true, anchor: anchor, items: offered), from: self)
    return true
  }

  /// Hides the menu. Hiding a hidden menu does nothing.
  public func hide() {
    guard isVisible else { return }
    isVisible = false
    offeredItems = []
    anchor = nil
    responder = nil
    center.post(MenuVisibilityChanged(isVisible: false, anchor: nil, items: []), from: self)
  }

  /// Hides the menu if it is shown for `responder`; a menu shown for another responder stays.
  public func hide(ifShownFor responder: any MenuResponder) {
    if self.responder === responder { hide() }
  }

  /// What a tap on `item` does: hides the menu, then sends the item's action to the responder.
  /// An item that is not offered does nothing.
  public func choose(_ item: MenuItem) {
    guard isVisible, offeredItems.contains(item), let responder else { return }
    hide()
    responder.perform(item.action)
  }
}
