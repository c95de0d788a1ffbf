public import PresentationModel

/// Posted by ``Settings`` after any setting changed.
public struct SettingsChanged: TypedNotification {
  public let viewMode: ViewMode
  public let showsPreviews: Bool
}
