public import PresentationModel

/// The presentation state the settings menu shows and changes.
///
/// ```swift
/// @MainActor func switchToGrid() {
///   let settings = Settings(center: TypedNotificationCenter())
///   settings.viewMode = .grid  // posts SettingsChanged
/// }
/// ```
///
/// > Note: ``SettingsChanged`` is posted (from the settings object) after every actual change; setting
/// > a value it already has posts nothing.
@MainActor
public final class Settings {
  /// Where ``SettingsChanged`` is posted.
  public let center: TypedNotificationCenter

  /// The layout of the app's items.
  public var viewMode: ViewMode {
    didSet { if viewMode != oldValue { postChange() } }
  }

  /// Whether items show previews.
  public var showsPreviews: Bool {
    didSet { if showsPreviews != oldValue { postChange() } }
  }

  public init(center: TypedNotificationCenter, viewMode: ViewMode = .list, showsPreviews: Bool = true) {
    self.center = center
    self.viewMode = viewMode
    self.showsPreviews = showsPreviews
  }

  private func postChange() {
    center.post(SettingsChanged(viewMode: viewMode, showsPreviews: showsPreviews), from: self)
  }
}
