/// A ``Fadable`` that stands for another object, as `FadableView` stands for its view: a
/// ``PendingDelete`` knows the widget by that object, so two wrappers of one object are one widget
/// (the second joins, cancels or finds the fade of the first).
@MainActor
protocol FadableProxy: Fadable {
  /// The object the widget stands for.
  var subject: AnyObject { get }
}

/// The object `widget` is known by in a ``PendingDelete``: the subject of a ``FadableProxy``, or
/// the widget itself.
@MainActor
func identity(of widget: any Fadable) -> AnyObject {
  (widget as? any FadableProxy)?.subject ?? widget
}

/// The key of `widget` in a ``PendingDelete``'s tables: that of its ``identity(of:)``.
@MainActor
func fadeKey(of widget: any Fadable) -> ObjectIdentifier {
  ObjectIdentifier(identity(of: widget))
}
