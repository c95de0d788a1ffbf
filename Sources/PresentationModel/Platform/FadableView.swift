// The one place the package touches UIKit or AppKit. Mac Catalyst can import both: there the view
// is a `UIView`, as `#elseif` says.
#if canImport(UIKit)
  public import UIKit
#elseif canImport(AppKit)
  public import AppKit
#endif

#if canImport(UIKit) || canImport(AppKit)
  /// A view as a ``Fadable`` widget: a `UIView`, or an `NSView` on macOS. Its opacity is the view's
  /// `alpha` (`alphaValue`), and disposing it removes the view from its superview.
  ///
  /// `UIView` and `NSView` themselves do not conform, so no view in an app gains an `opacity` or a
  /// `dispose()` (a subclass may declare its own). Wrap a view where a ``Fadable`` is wanted:
  /// `pendingDelete.fadeOutAndDispose(FadableView(view))`. A ``PendingDelete`` knows the widget by
  /// its view, so a new `FadableView` of a view that is fading joins, cancels or finds that fade.
  @MainActor
  public final class FadableView: Fadable {
    #if canImport(UIKit)
      /// The view a `FadableView` wraps: `UIView` (`NSView` on macOS).
      public typealias View = UIView
    #else
      /// The view a `FadableView` wraps: `NSView` (`UIView` where UIKit is).
      public typealias View = NSView
    #endif

    /// The view that fades and leaves its superview.
    public let view: View

    /// Wraps `view`; the wrapper holds it strongly.
    public init(_ view: View) {
      self.view = view
    }

    #if canImport(UIKit)
      /// The view's `alpha`.
      public var opacity: Double {
        get { Double(view.alpha) }
        set { view.alpha = CGFloat(newValue) }
      }
    #else
      /// The view's `alphaValue`.
      public var opacity: Double {
        get { Double(view.alphaValue) }
        set { view.alphaValue = CGFloat(newValue) }
      }
    #endif

    /// Removes the view from its superview.
    public func dispose() {
      view.removeFromSuperview()
    }
  }

  extension FadableView: FadableProxy {
    var subject: AnyObject { view }
  }
#endif
