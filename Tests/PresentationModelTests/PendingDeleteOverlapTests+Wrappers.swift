import PresentationModelTesting
import Testing

@testable import PresentationModel

/// A stand-in for a `UIView` or `NSView`: what `FadableView` reads and changes.
@MainActor
private final class StandInView {
  var alpha = 1.0
  var isInSuperview = true
  private(set) var removeCount = 0

  func removeFromSuperview() {
    removeCount += 1
    isInSuperview = false
  }
}

/// A wrapper built like `FadableView` (which needs UIKit or AppKit, so cannot run here): a new one
/// each time, standing for its view.
@MainActor
private final class StandInFadableView: FadableProxy {
  let view: StandInView
  init(_ view: StandInView) { self.view = view }

  var opacity: Double {
    get { view.alpha }
    set { view.alpha = newValue }
  }

  func dispose() { view.removeFromSuperview() }

  var subject: AnyObject { view }
}

/// A view wrapped anew for each call is one widget to a `PendingDelete`: the wrapper's subject, not
/// the wrapper, is what it knows. Overlapping deletions of one view through different wrappers.
extension PendingDeleteOverlapTests {
  @Test func aSecondWrapperOfAFadingViewJoinsItsFade() {
    let pendingDelete = makePendingDelete()
    let view = StandInView()
    pendingDelete.fadeOutAndDispose(StandInFadableView(view), completion: outcomes.completion("first"))
    scheduler.advance(by: .milliseconds(50))
    #expect(pendingDelete.isPending(StandInFadableView(view)))
    pendingDelete.fadeOutAndDispose(StandInFadableView(view), completion: outcomes.completion("second"))
    #expect(pendingDelete.pendingCount == 1)

    scheduler.advance(by: .milliseconds(50))
    #expect(view.alpha == 0)
    #expect(view.removeCount == 1)
    #expect(outcomes.outcomes == ["first disposed", "second disposed"])
    #expect(!pendingDelete.isPending(StandInFadableView(view)))
  }

  @Test func aSecondWrapperCancelsTheFadeAndRestoresTheView() {
    let pendingDelete = makePendingDelete()
    let view = StandInView()
    view.alpha = 0.8
    pendingDelete.fadeOutAndDispose(StandInFadableView(view), completion: outcomes.completion("fade"))
    scheduler.advance(by: .milliseconds(50))
    #expect(view.alpha == 0.4)

    #expect(pendingDelete.cancel(StandInFadableView(view)))
    #expect(view.alpha == 0.8)
    #expect(view.isInSuperview)
    #expect(pendingDelete.pendingCount == 0)
    #expect(outcomes.outcomes == ["fade cancelled"])
  }

  @Test func aViewDisposedThroughOneWrapperIsNotDisposedAgainThroughAnother() {
    let pendingDelete = makePendingDelete()
    let view = StandInView()
    pendingDelete.fadeOutAndDispose(StandInFadableView(view))
    scheduler.advance(by: .milliseconds(100))
    #expect(view.removeCount == 1)

    pendingDelete.fadeOutAndDispose(StandInFadableView(view), completion: outcomes.completion("again"))
    #expect(outcomes.outcomes == ["again disposed"])
    #expect(view.removeCount == 1)
    #expect(pendingDelete.pendingCount == 0)
  }

  @Test func twoWrappedViewsAreTwoWidgets() {
    let pendingDelete = makePendingDelete()
    let first = StandInView()
    let second = StandInView()
    pendingDelete.fadeOutAndDispose(StandInFadableView(first))
    pendingDelete.fadeOutAndDispose(StandInFadableView(second))
    #expect(pendingDelete.pendingCount == 2)
    scheduler.advance(by: .milliseconds(100))
    #expect((first.removeCount, second.removeCount) == (1, 1))
  }
}
