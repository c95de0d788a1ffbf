#if canImport(AppKit)
  public import AppKit

  /// A view fades through `alphaValue` and is disposed by leaving its superview.
  extension NSView: Fadable {
    public var opacity: Double {
      get { Double(alphaValue) }
      set { alphaValue = CGFloat(newValue) }
    }

    public func dispose() {
      removeFromSuperview()
    }
  }
#endif
