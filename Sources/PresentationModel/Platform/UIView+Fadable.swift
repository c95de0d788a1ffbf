#if canImport(UIKit)
  public import UIKit

  /// A view fades through `alpha` and is disposed by leaving its superview.
  extension UIView: Fadable {
    /// The view's `alpha`.
    public var opacity: Double {
      get { Double(alpha) }
      set { alpha = CGFloat(newValue) }
    }

    /// Removes the view from its superview.
    public func dispose() {
      removeFromSuperview()
    }
  }
#endif
