// An app's own module, type-checked by .ci/check-uikit-faces.sh once against the UIKit stub and
// once against the AppKit stub, each time with the PresentationModel module built with that stub.
// It must compile: importing PresentationModel adds no member to UIView or NSView, so a subclass
// keeps its own `opacity` and `dispose()`.
import PresentationModel

#if canImport(UIKit)
  import UIKit

  typealias PlatformView = UIView
#elseif canImport(AppKit)
  import AppKit

  typealias PlatformView = NSView
#endif

/// A `UIView` (`NSView`) of an app's own whose `opacity` and `dispose()` mean something else than a
/// fade.
@MainActor
final class MyView: PlatformView {
  var opacity: Double = 0.5
  private(set) var isDisposed = false

  func dispose() {
    isDisposed = true
  }
}

/// A view that adopts `Fadable` itself.
@MainActor
final class MyFadingView: PlatformView, Fadable {
  var opacity = 1.0

  func dispose() {
    removeFromSuperview()
  }
}

/// Any view fades through `FadableView` (`alpha` / `alphaValue`, `removeFromSuperview()`); a view
/// that adopts `Fadable` itself is passed as it is, with no ambiguity.
@MainActor
func delete(_ view: MyView, _ fading: MyFadingView, using pendingDelete: PendingDelete) {
  view.dispose()
  _ = view.opacity
  pendingDelete.fadeOutAndDispose(FadableView(view))
  pendingDelete.fadeOutAndDispose(fading)
  _ = pendingDelete.isPending(FadableView(view))
}
