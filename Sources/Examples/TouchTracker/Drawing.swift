public import PresentationModel

/// The presentation model of TouchTracker: the finished lines and which one is selected.
///
/// The selection is a line's id, validated against ``lines`` every time they change. Removing the
/// selected line therefore clears the selection by itself: a caller cannot forget it, which is the
/// bug the Objective-C edition's `deleteLine:` had.
///
/// ```swift
/// let drawing = Drawing(center: TypedNotificationCenter())
/// let line = drawing.addLine(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
/// drawing.select(line.id)
/// drawing.removeLine(line.id)
/// print(drawing.selectedLine as Any)  // nil
/// ```
///
/// > Note: ``SelectionChanged`` is posted (from the drawing) exactly when ``selectedLine`` changes,
/// > and ``LinesChanged`` whenever ``lines`` changes; both on the main actor, synchronously.
@MainActor
public final class Drawing {
  /// Where the drawing posts ``SelectionChanged`` and ``LinesChanged``.
  public let center: TypedNotificationCenter

  /// The finished lines, oldest first.
  public private(set) var lines: [Line] = [] {
    didSet {
      // Keep the selection pointing at a line that exists, whatever removed it.
      if let id = selectedLineID, !lines.contains(where: { $0.id == id }) { selectedLineID = nil }
      center.post(LinesChanged(lineCount: lines.count), from: self)
    }
  }

  /// The id of the selected line; always one of ``lines``, or `nil`.
  public private(set) var selectedLineID: Line.ID? {
    didSet {
      if selectedLineID != oldValue { center.post(SelectionChanged(selectedLineID: selectedLineID), from: self) }
    }
  }

  private var nextLineID = 1

  /// Creates an empty drawing that posts to `center`.
  public init(center: TypedNotificationCenter) {
    self.center = center
  }

  /// The selected line, if any.
  public var selectedLine: Line? {
    selectedLineID.flatMap { id in lines.first { $0.id == id } }
  }

  /// Adds a finished line and returns it.
  @discardableResult
  public func addLine(from begin: Point, to end: Point) -> Line {
    let line = Line(id: nextLineID, begin: begin, end: end)
    nextLineID += 1
    lines.append(line)
    return line
  }

  /// The line nearest to `point` within `tolerance` points, if any; the newest wins a tie.
  public func line(near point: Point, tolerance: Double) -> Line? {
    var best: (line: Line, distance: Double)?
    for line in lines.reversed() {
      let distance = line.distance(to: point)
      if distance <= tolerance, distance < best?.distance ?? .infinity { best = (line, distance) }
    }
    return best?.line
  }

  /// Selects the line with `id`, or nothing for `nil`. An id that is not in ``lines`` selects
  /// nothing (a documented no-op rather than a dangling selection).
  public func select(_ id: Line.ID?) {
    selectedLineID = id.flatMap { id in lines.contains { $0.id == id } ? id : nil }
  }

  /// Removes the line with `id`; an unknown id does nothing. If it was selected, the selection
  /// becomes `nil` and ``SelectionChanged`` is posted.
  public func removeLine(_ id: Line.ID) {
    guard let index = lines.firstIndex(where: { $0.id == id }) else { return }
    lines.remove(at: index)
  }

  /// Removes every line; the selection becomes `nil`.
  public func removeAll() {
    guard !lines.isEmpty else { return }
    lines.removeAll()
  }
}
