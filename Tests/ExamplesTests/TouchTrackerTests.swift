import PresentationModel
import PresentationModelTesting
import PresentationTestSupport
import Testing
import TouchTrackerExample

@MainActor
@Suite struct TouchTrackerTests {
  let center = TypedNotificationCenter()

  func makeCanvas() -> DrawingCanvas {
    DrawingCanvas(drawing: Drawing(center: center), menu: ContextMenu(center: center), hitTolerance: 10)
  }

  @Test(arguments: [
    (Point(x: 50, y: 0), 0.0),  // on the segment
    (Point(x: 50, y: 7), 7.0),  // beside its middle
    (Point(x: -3, y: 4), 5.0),  // beyond its start: distance to the end point, not to the infinite line
    (Point(x: 106, y: -8), 10.0),  // beyond its end
  ])
  func distanceIsToTheSegment(point: Point, expected: Double) {
    let line = Line(id: 1, begin: Point(x: 0, y: 0), end: Point(x: 100, y: 0))
    #expect(abs(line.distance(to: point) - expected) < 1e-9)
  }

  @Test func degenerateLineMeasuresFromItsPoint() {
    let dot = Line(id: 1, begin: Point(x: 3, y: 4), end: Point(x: 3, y: 4))
    #expect(dot.distance(to: Point(x: 0, y: 0)) == 5)
  }

  @Test func tapNearALineSelectsItAndShowsDeleteAtTheTap() throws {
    let canvas = makeCanvas()
    let line = canvas.drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 100, y: 100))
    canvas.drawing.addLine(from: Point(x: 0, y: 100), to: Point(x: 10, y: 100))

    canvas.tap(at: Point(x: 52, y: 47))

    #expect(canvas.drawing.selectedLine == line)
    #expect(canvas.menu.isVisible)
    #expect(canvas.menu.anchor == Point(x: 52, y: 47))
    #expect(canvas.menu.offeredItems == [MenuItem(title: "Delete", action: .deleteLine)])
    #expect(canvas.menu.responder === canvas)
  }

  @Test func tapAwayFromLinesDeselectsAndHides() {
    let canvas = makeCanvas()
    canvas.drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
    canvas.tap(at: Point(x: 50, y: 5))
    #expect(canvas.menu.isVisible)

    canvas.tap(at: Point(x: 50, y: 11))  // just outside the tolerance

    #expect(canvas.drawing.selectedLine == nil)
    #expect(!canvas.menu.isVisible)
  }

  @Test func deleteFromTheMenuRemovesTheLineClearsTheSelectionAndHidesTheMenu() throws {
    let canvas = makeCanvas()
    let keep = canvas.drawing.addLine(from: Point(x: 0, y: 50), to: Point(x: 100, y: 50))
    canvas.drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
    canvas.tap(at: Point(x: 20, y: 1))
    let delete = try #require(canvas.menu.offeredItems.first)

    canvas.menu.choose(delete)

    #expect(canvas.drawing.lines == [keep])
    #expect(canvas.drawing.selectedLineID == nil)
    #expect(!canvas.menu.isVisible)
  }

  /// The original Objective-C code's `deleteLine:` removes the line and never clears the selection.
  /// The same omission here cannot leave the menu up: the drawing validates its selection.
  @Test func removingTheSelectedLineWithoutTouchingTheSelectionStillHidesTheMenu() {
    let canvas = makeCanvas()
    let line = canvas.drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
    canvas.tap(at: Point(x: 50, y: 0))
    var changes: [Line.ID?] = []
    let token = center.observe(SelectionChanged.self) { change in
      MainActor.assumeIsolated { changes.append(change.selectedLineID) }
    }

    canvas.drawing.removeLine(line.id)

    #expect(changes == [nil])
    #expect(!canvas.menu.isVisible)
    token.cancel()
  }

  @Test func doubleTapClearsAllAndHidesTheMenu() {
    let canvas = makeCanvas()
    canvas.drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
    canvas.drawing.addLine(from: Point(x: 0, y: 9), to: Point(x: 100, y: 90))
    canvas.tap(at: Point(x: 50, y: 0))

    canvas.doubleTap()

    #expect(canvas.drawing.lines.isEmpty)
    #expect(canvas.drawing.selectedLine == nil)
    #expect(!canvas.menu.isVisible)
  }

  @Test func aMenuWhoseItemsTheResponderDoesNotImplementIsNotShown() {
    let menu = ContextMenu(center: center)
    let canvas = makeCanvas()
    menu.items = [
      MenuItem(title: "Copy", action: MenuAction("copy:")), MenuItem(title: "Paste", action: MenuAction("paste:")),
    ]

    #expect(!menu.show(at: Point(x: 0, y: 0), for: canvas))
    #expect(!menu.isVisible)

    menu.items.append(MenuItem(title: "Delete", action: .deleteLine))
    #expect(menu.show(at: Point(x: 0, y: 0), for: canvas))
    #expect(menu.offeredItems.map(\.title) == ["Delete"])
  }

  @Test func selectingAnUnknownLineSelectsNothing() {
    let drawing = Drawing(center: center)
    drawing.select(42)
    #expect(drawing.selectedLineID == nil)
  }

  /// Taps, double-taps, deletes and stray removals in a random order: the menu is never visible
  /// while nothing is selected, and is visible only for a selected line that exists.
  @Test(arguments: [1, 2, 3, 0xDEAD_BEEF, 20_240_601] as [UInt64])
  func menuIsNeverVisibleWithoutASelection(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let canvas = makeCanvas()
    func randomPoint() -> Point {
      Point(x: Double.random(in: 0...200, using: &random), y: Double.random(in: 0...200, using: &random))
    }
    var history: [String] = []
    for step in 0..<5_000 {
      let roll = Int.random(in: 0..<100, using: &random)
      switch roll {
      case 0..<25:
        let begin = randomPoint()
        canvas.drawing.addLine(from: begin, to: randomPoint())
        history.append("add")
      case 25..<60:
        // Aim at a line half of the time, so selections actually happen.
        if roll < 45, let line = canvas.drawing.lines.randomElement(using: &random) {
          canvas.tap(at: Point(x: (line.begin.x + line.end.x) / 2, y: (line.begin.y + line.end.y) / 2 + 3))
        } else {
          canvas.tap(at: randomPoint())
        }
        history.append("tap")
      case 60..<66:
        canvas.doubleTap()
        history.append("double-tap")
      case 66..<85:
        if let item = canvas.menu.offeredItems.first { canvas.menu.choose(item) }
        history.append("choose delete")
      case 85..<92:
        canvas.perform(.deleteLine)  // as a keyboard shortcut would, menu or not
        history.append("perform delete")
      default:
        if let line = canvas.drawing.lines.randomElement(using: &random) { canvas.drawing.removeLine(line.id) }
        history.append("remove a random line")
      }
      let menu = canvas.menu
      let selected = canvas.drawing.selectedLine
      let consistent = !menu.isVisible || (selected != nil && canvas.drawing.lines.contains { $0.id == selected?.id })
      #expect(
        consistent,
        "seed \(seed), step \(step): menu visible with selection \(String(describing: selected)); last steps \(history.suffix(5))"
      )
      if !consistent { return }
    }
  }
}

@MainActor
@Suite(.detectsLeaks, .timeLimit(.minutes(1)))
struct TouchTrackerLifetimeTests {
  @Test func aDiscardedCanvasLeavesNoObjectAndNoObserver() async {
    let center = TypedNotificationCenter()
    do {
      let drawing = Drawing(center: center)
      let menu = ContextMenu(center: center)
      let canvas = DrawingCanvas(drawing: drawing, menu: menu)
      trackForLeaks(drawing)
      trackForLeaks(menu)
      trackForLeaks(canvas)
      drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 10, y: 0))
      canvas.tap(at: Point(x: 5, y: 0))
      #expect(center.observerCount(for: SelectionChanged.self) == 1)
      canvas.perform(.deleteLine)
    }
    await expectNoObservers(in: center)
  }
}
