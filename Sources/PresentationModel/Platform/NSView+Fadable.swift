#if canImport(AppKit)
  public import AppKit

  /// A view fades through `alphaValue` and is disposed by leaving its superview.
  extension NSView: Fadable {
    /// The view's `alphaValue`.
    public var opacity: Double {
      get { Double(alphaValue) }
      set { alphaValue = CGFloat(newValue) }
    }

    /// Removes the view from its superview.
    public func dispose() {
      removeFromSuperview()
    }
  }
#endif
