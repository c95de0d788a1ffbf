#if canImport(UIKit)
  public import UIKit

  /// A view fades through `alpha` and is disposed by leaving its superview.
  extension UIView: Fadable {
    public var opacity: Double {
      get { Double(alpha) }
      set { alpha = CGFloat(newValue) }
    }

    public func dispose() {
      removeFromSuperview()
    }
  }
#endif
