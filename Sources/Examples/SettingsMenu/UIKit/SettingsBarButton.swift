#if canImport(UIKit)
  import PresentationModel
  public import UIKit

  /// The gear button of a navigation bar, on iOS: its menu shows the ``Settings`` and stays open
  /// while they change.
  ///
  /// Choosing an action changes the settings, which post ``SettingsChanged``; the button observes it
  /// and re-assigns its item's `menu`. UIKit then runs the menu's uncached provider again, so the
  /// open menu shows the new check marks without closing.
  ///
  /// ```swift
  /// navigationItem.rightBarButtonItem = SettingsBarButton(settings: settings).item
  /// ```
  @available(iOS 16.0, *)
  @MainActor
  public final class SettingsBarButton {
    public let settings: Settings
    public let item: UIBarButtonItem

    public init(settings: Settings) {
      self.settings = settings
      item = UIBarButtonItem(
        image: UIImage(systemName: "gear"), menu: SettingsMenuBuilder(settings: settings).makeMenu().makeUIMenu())
      // Owner-bound: ends with the button. Re-assigning `menu` makes an open menu run its uncached provider again.
      settings.center.observeOnMainActor(SettingsChanged.self, owner: self, from: settings) { button, _ in
        button.item.menu = SettingsMenuBuilder(settings: button.settings).makeMenu().makeUIMenu()
      }
    }
  }
#endif
