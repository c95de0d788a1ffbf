/// Something on screen that ``PendingDelete`` can fade out and then dispose of.
///
/// On Apple platforms, wrap a `UIView` or `NSView` in a `FadableView` (its `alpha` / `alphaValue`
/// and `removeFromSuperview()`); the views themselves do not conform, so their subclasses keep
/// their own `opacity` and `dispose()`. Conform your own widget types, or a test double, like this:
///
/// ```swift
/// import PresentationModel
///
/// @MainActor
/// final class NodeWidget: Fadable {
///   var opacity = 1.0
///   private(set) var isOnCanvas = true
///
///   func dispose() {
///     isOnCanvas = false  // detach from the view tree; release what the canvas holds
///   }
/// }
/// ```
///
/// > Note: A ``PendingDelete`` calls ``dispose()`` at most once per widget it is given, and only on
/// > the main actor. It reads ``opacity`` once, when a fade starts; afterwards it only sets it (each
/// > step, and back to the starting value on cancellation).
@MainActor
public protocol Fadable: AnyObject {
  /// How opaque the widget is: `1` fully visible, `0` invisible.
  var opacity: Double { get set }

  /// Removes the widget from the screen and lets go of everything that keeps it on screen, so that
  /// once its last strong reference is dropped it deinitialises.
  func dispose()
}
