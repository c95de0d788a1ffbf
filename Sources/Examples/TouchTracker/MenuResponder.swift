/// An object a ``ContextMenu`` can be shown for: it says which actions it implements and performs
/// them. The platform-neutral first responder.
@MainActor
public protocol MenuResponder: AnyObject {
  /// Whether the responder implements `action`. Items whose action it does not implement are not
  /// offered.
  func canPerform(_ action: MenuAction) -> Bool

  /// Performs `action`; called only for actions ``canPerform(_:)`` accepted.
  func perform(_ action: MenuAction)
}
