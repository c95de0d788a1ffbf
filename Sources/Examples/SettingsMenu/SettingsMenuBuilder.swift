/// Builds the settings menu from ``Settings``: a gear menu whose content is deferred and uncached,
/// holding an inline single-selection group for the view mode and an on/off previews toggle, all
/// keeping the menu presented when chosen.
///
/// ```swift
/// @MainActor func build() {
///   let settings = Settings(center: TypedNotificationCenter())
///   let menu = SettingsMenuBuilder(settings: settings).makeMenu()
///   print(menu.imageName ?? "")  // gear
/// }
/// ```
@MainActor
public struct SettingsMenuBuilder {
  /// The state the menu shows. Providers and actions capture it weakly: an open menu must not keep
  /// the settings (and their screen) alive.
  public let settings: Settings

  public init(settings: Settings) {
    self.settings = settings
  }

  /// The menu to assign to the bar button. Its only child is deferred and uncached, so each showing
  /// (and each re-assignment while shown) reads the settings afresh.
  public func makeMenu() -> MenuDescription {
    MenuDescription(
      title: "", imageName: "gear",
      children: [
        .deferred(
          .uncached { [weak settings] in
            guard let settings else { return [] }
            return SettingsMenuBuilder(settings: settings).makeElements()
          })
      ])
  }

  /// The current elements: the view mode group and the previews toggle.
  public func makeElements() -> [MenuElement] {
    let modes = ViewMode.allCases.map { mode in
      MenuElement.action(
        MenuActionDescription(
          id: "viewMode.\(mode.rawValue)", title: mode.title, imageName: mode.imageName,
          attributes: .keepsMenuPresented, state: settings.viewMode == mode ? .on : .off
        ) { [weak settings] in settings?.viewMode = mode })
    }
    let previews = MenuActionDescription(
      id: "showsPreviews", title: "Show Previews", imageName: "eye", attributes: .keepsMenuPresented,
      state: settings.showsPreviews ? .on : .off
    ) { [weak settings] in settings?.showsPreviews.toggle() }
    return [
      .menu(
        MenuDescription(
          title: "View Mode", options: [.displayInline, .singleSelection], preferredElementSize: .medium,
          children: modes)),
      .action(previews),
    ]
  }
}
