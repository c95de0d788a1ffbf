public import PresentationModel

/// Posted by a ``Drawing`` whenever lines are added or removed, so views redraw.
public struct LinesChanged: TypedNotification {
  /// How many lines the drawing now has.
  public let lineCount: Int
}
