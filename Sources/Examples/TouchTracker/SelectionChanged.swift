public import PresentationModel

/// Posted by a ``Drawing`` whenever its selected line changes, including when the selected line
/// disappears because it was removed.
public struct SelectionChanged: TypedNotification {
  /// The newly selected line, or `nil` when nothing is selected.
  public let selectedLineID: Line.ID?
}
