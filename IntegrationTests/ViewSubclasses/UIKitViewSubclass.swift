// An app's own module, type-checked by .ci/check-uikit-faces.sh against the UIKit stub and the
// PresentationModel module built with it. It must compile: importing PresentationModel adds no
// member to UIView, so a subclass keeps its own `opacity` and `dispose()`.
import PresentationModel
import UIKit

/// A view of an app's own whose `opacity` and `dispose()` mean something else than a fade.
@MainActor
final class MyView: UIView {
  var opacity: Double = 0.5
  private(set) var isDisposed = false

  func dispose() {
    isDisposed = true
  }
}

/// A view that adopts `Fadable` itself: `PendingDelete` takes it as it is, with no ambiguity.
@MainActor
final class MyFadingView: UIView, Fadable {
  var opacity: Double {
    get { Double(alpha) }
    set { alpha = CGFloat(newValue) }
  }

  func dispose() {
    removeFromSuperview()
  }
}

@MainActor
func delete(_ view: MyView, _ fading: MyFadingView, using pendingDelete: PendingDelete) {
  view.dispose()
  _ = view.opacity
  // Any view fades through `FadableView`: `alpha` and `removeFromSuperview()`.
  pendingDelete.fadeOutAndDispose(FadableView(view))
  pendingDelete.fadeOutAndDispose(fading)
  _ = pendingDelete.isPending(FadableView(view))
}
