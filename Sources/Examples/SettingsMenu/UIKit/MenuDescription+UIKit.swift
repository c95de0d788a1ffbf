#if canImport(UIKit)
  import PresentationModel
  public import UIKit

  @available(iOS 16.0, *)
  extension MenuDescription {
    /// The `UIMenu` this description stands for; deferred elements become
    /// `UIDeferredMenuElement.uncached`, so they are provided afresh each time the menu shows.
    @MainActor
    public func makeUIMenu() -> UIMenu {
      var options: UIMenu.Options = []
      if self.options.contains(.displayInline) { options.insert(.displayInline) }
      if self.options.contains(.singleSelection) { options.insert(.singleSelection) }
      let menu = UIMenu(
        title: title, image: imageName.flatMap { UIImage(systemName: $0) }, options: options,
        children: children.map { $0.makeUIMenuElement() })
      switch preferredElementSize {
      case .small: menu.preferredElementSize = .small
      case .medium: menu.preferredElementSize = .medium
      case .large: menu.preferredElementSize = .large
      }
      return menu
    }
  }

  @available(iOS 16.0, *)
  extension MenuElement {
    /// The `UIMenuElement` this element stands for.
    @MainActor
    public func makeUIMenuElement() -> UIMenuElement {
      switch self {
      case .menu(let menu):
        return menu.makeUIMenu()
      case .deferred(let deferred):
        return UIDeferredMenuElement.uncached { completion in
          completion(deferred.provider().map { $0.makeUIMenuElement() })
        }
      case .action(let action):
        var attributes: UIMenuElement.Attributes = []
        if action.attributes.contains(.disabled) { attributes.insert(.disabled) }
        if action.attributes.contains(.destructive) { attributes.insert(.destructive) }
        if action.attributes.contains(.keepsMenuPresented) { attributes.insert(.keepsMenuPresented) }
        let state: UIMenuElement.State =
          switch action.state {
          case .on: .on
          case .off: .off
          case .mixed: .mixed
          }
        let handler = action.handler
        return UIAction(
          title: action.title, image: action.imageName.flatMap { UIImage(systemName: $0) }, attributes: attributes,
          state: state
        ) { _ in handler() }
      }
    }
  }
#endif
