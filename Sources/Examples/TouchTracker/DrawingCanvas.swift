import PresentationModel

/// What TouchTracker's draw view does with taps, without the view: select the line near a tap and
/// show the shared menu with "Delete"; double-tap clears everything; "Delete" removes the line.
///
/// The canvas observes its drawing's ``SelectionChanged`` and hides the menu whenever the selection
/// becomes `nil`: after a deletion, after "clear all", after a tap on empty space. No code path has
/// to remember it.
///
/// ```swift
/// @MainActor func play() {
///   let center = TypedNotificationCenter()
///   let drawing = Drawing(center: center)
///   let canvas = DrawingCanvas(drawing: drawing, menu: ContextMenu(center: center))
///   drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 100, y: 100))
///   canvas.tap(at: Point(x: 50, y: 52))    // selects the line, shows the menu
///   canvas.doubleTap()                     // clears all lines; the menu hides
///   print(canvas.menu.isVisible)           // false
/// }
/// ```
@MainActor
public final class DrawingCanvas: MenuResponder {
  public let drawing: Drawing
  /// The app's shared menu.
  public let menu: ContextMenu
  /// How far from a line, in points, a tap still selects it.
  public var hitTolerance: Double

  /// Creates the canvas and starts following the drawing's selection.
  ///
  /// - Parameters:
  ///   - drawing: The lines to select and delete.
  ///   - menu: The app's shared context menu.
  ///   - hitTolerance: How far from a line a tap still selects it; must not be negative.
  public init(drawing: Drawing, menu: ContextMenu, hitTolerance: Double = 20) {
    precondition(hitTolerance >= 0, "DrawingCanvas: hitTolerance must not be negative, got \(hitTolerance)")
    self.drawing = drawing
    self.menu = menu
    self.hitTolerance = hitTolerance
    // Owner-bound: ends when the canvas deinitialises, so the view needs no deinit bookkeeping.
    // The drawing posts on the main actor, so delivery is synchronous: the menu hides before the
    // code that cleared the selection returns.
    drawing.center.observeOnMainActor(SelectionChanged.self, owner: self, from: drawing) { canvas, change in
      if change.selectedLineID == nil { canvas.menu.hide(ifShownFor: canvas) }
    }
  }

  /// A single tap: selects the line near `point` and shows the menu there, or deselects and hides
  /// the menu when no line is near.
  public func tap(at point: Point) {
    let line = drawing.line(near: point, tolerance: hitTolerance)
    drawing.select(line?.id)
    if line != nil {
      menu.items = [MenuItem(title: "Delete", action: .deleteLine)]
      menu.show(at: point, for: self)
    } else {
      // Nothing was selected before either: the observer did not fire, yet another responder's
      // menu may be showing; a tap on empty space dismisses it, as in UIKit.
      menu.hide()
    }
  }

  /// A double tap clears every line.
  public func doubleTap() {
    drawing.removeAll()
  }

  public func canPerform(_ action: MenuAction) -> Bool {
    action == .deleteLine
  }

  public func perform(_ action: MenuAction) {
    switch action {
    case .deleteLine:
      // Written like the Objective-C edition's deleteLine:, which never clears the selection. It need
      // not: the drawing drops a selection that no longer exists and the observer hides the menu.
      if let line = drawing.selectedLine { drawing.removeLine(line.id) }
    default:
      break
    }
  }
}
