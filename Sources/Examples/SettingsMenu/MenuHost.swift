import PresentationModel

/// The bar button that hosts the settings menu, without UIKit: it holds the assigned menu, opens it
/// (running uncached providers), performs a chosen action, and closes unless the action keeps the
/// menu presented.
///
/// Like UIKit, an open menu shows the state of the moment its elements were provided. The host
/// observes ``SettingsChanged`` and re-assigns the menu, which makes an open menu provide its
/// elements again: the new state shows and the menu stays open.
///
/// ```swift
/// @MainActor func toggle() {
///   let settings = Settings(center: TypedNotificationCenter())
///   let host = MenuHost(settings: settings)
///   host.open()
///   host.choose(id: "viewMode.grid")
///   print(host.isOpen, host.presentedItems.first { $0.isOn }?.title ?? "")  // true Grid
/// }
/// ```
@MainActor
public final class MenuHost {
  public let settings: Settings
  /// The assigned menu; assigning it while open refreshes what is presented.
  public private(set) var menu: MenuDescription {
    didSet { if isOpen { present() } }
  }
  public private(set) var isOpen = false
  /// What is on screen while open, in order; empty while closed.
  public private(set) var presentedItems: [PresentedMenuItem] = []
  /// How many times uncached providers have run: every opening and every re-assignment while open.
  public private(set) var providerRuns = 0

  private var handlers: [String: (action: @MainActor @Sendable () -> Void, keepsOpen: Bool)] = [:]

  public init(settings: Settings) {
    self.settings = settings
    self.menu = SettingsMenuBuilder(settings: settings).makeMenu()
    // Owner-bound: ends when the host deinitialises. Settings post on the main actor, so the menu
    // is re-assigned before the change returns.
    settings.center.observeOnMainActor(SettingsChanged.self, owner: self, from: settings) { host, _ in
      host.menu = SettingsMenuBuilder(settings: host.settings).makeMenu()
    }
  }

  /// Shows the menu, as a tap on the bar button does.
  public func open() {
    isOpen = true
    present()
  }

  /// Closes the menu, as a tap outside it does.
  public func close() {
    isOpen = false
    presentedItems = []
    handlers = [:]
  }

  /// Chooses the presented action with `id`: runs it, then closes the menu unless the action keeps
  /// it presented. An id that is not presented does nothing.
  public func choose(id: String) {
    guard isOpen, let chosen = handlers[id] else { return }
    if !chosen.keepsOpen { close() }
    chosen.action()
  }

  private func present() {
    var items: [PresentedMenuItem] = []
    var handlers: [String: (action: @MainActor @Sendable () -> Void, keepsOpen: Bool)] = [:]
    func walk(_ elements: [MenuElement], section: String?) {
      for element in elements {
        switch element {
        case .action(let action):
          items.append(
            PresentedMenuItem(
              id: action.id, title: action.title, imageName: action.imageName, isOn: action.state == .on,
              section: section))
          if !action.attributes.contains(.disabled) {
            handlers[action.id] = (action.handler, action.attributes.contains(.keepsMenuPresented))
          }
        case .menu(let submenu):
          walk(submenu.children, section: submenu.title)
        case .deferred(let deferred):
          providerRuns += 1
          walk(deferred.provider(), section: section)
        }
      }
    }
    walk(menu.children, section: nil)
    presentedItems = items
    self.handlers = handlers
  }
}
