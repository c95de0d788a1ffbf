/// Menu elements provided when the menu opens, not when it is built; mirrors
/// `UIDeferredMenuElement.uncached`, whose provider runs every time the menu is shown.
///
/// ```swift
/// let now = DeferredMenuElement.uncached {
///   [.action(MenuActionDescription(id: "now", title: "Refreshed") {})]
/// }
/// _ = now
/// ```
public struct DeferredMenuElement: Sendable {
  /// Produces the current elements.
  public let provider: @MainActor @Sendable () -> [MenuElement]

  private init(provider: @escaping @MainActor @Sendable () -> [MenuElement]) {
    self.provider = provider
  }

  /// Elements computed afresh every time the menu presenting them is shown (or re-assigned while shown).
  public static func uncached(_ provider: @escaping @MainActor @Sendable () -> [MenuElement]) -> DeferredMenuElement {
    DeferredMenuElement(provider: provider)
  }
}
