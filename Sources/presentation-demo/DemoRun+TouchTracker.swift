import Foundation
import TouchTrackerExample

extension DemoRun {
  /// Tap a line for the shared menu, delete it, clear all, remove a selected line behind the menu's
  /// back; the menu never outlives the selection.
  func playTouchTracker() {
    introduce(.touchtracker, "tap to select, Delete from the shared menu, double-tap to clear")
    let drawing = ledger.track(Drawing(center: center))
    let menu = ledger.track(ContextMenu(center: center))
    let canvas = ledger.track(DrawingCanvas(drawing: drawing, menu: menu))
    func step(_ event: String, _ state: String) {
      say(event.padding(toLength: 44, withPad: " ", startingAt: 0) + "→ " + state)
    }
    func state() -> String {
      let selection = drawing.selectedLine.map { "line \($0.id)" } ?? "nothing"
      let shown = menu.isVisible ? "menu [\(menu.offeredItems.map(\.title).joined(separator: ", "))]" : "no menu"
      return "\(drawing.lines.count) line(s), \(selection) selected, \(shown)"
    }

    let first = drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 200, y: 0))
    drawing.addLine(from: Point(x: 0, y: 100), to: Point(x: 200, y: 150))
    step("drew two lines", state())
    canvas.tap(at: Point(x: 80, y: 6))
    step("tap at (80, 6), near line \(first.id)", state())
    if let delete = menu.offeredItems.first { menu.choose(delete) }
    step("choose Delete", state())
    canvas.tap(at: Point(x: 100, y: 130))
    step("tap near the remaining line", state())
    canvas.doubleTap()
    step("double-tap: clear all", state())
    let third = drawing.addLine(from: Point(x: 10, y: 10), to: Point(x: 10, y: 90))
    canvas.tap(at: Point(x: 12, y: 50))
    step("drew and selected line \(third.id)", state())
    drawing.removeLine(third.id)
    step("removed it directly, not through Delete", state())
  }
}
