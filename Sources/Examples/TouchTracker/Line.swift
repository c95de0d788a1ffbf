/// A finished line of the drawing: a segment from `begin` to `end`.
///
/// ```swift
/// let line = Line(id: 1, begin: Point(x: 0, y: 0), end: Point(x: 100, y: 0))
/// line.distance(to: Point(x: 50, y: 5))  // 5
/// ```
public struct Line: Hashable, Sendable, Identifiable {
  /// Identifies the line for as long as it is in its drawing. Selection refers to lines by this id.
  public let id: Int
  public var begin: Point
  public var end: Point

  public init(id: Int, begin: Point, end: Point) {
    self.id = id
    self.begin = begin
    self.end = end
  }

  /// The distance from `point` to the nearest point of the segment (not of the infinite line).
  public func distance(to point: Point) -> Double {
    let dx = end.x - begin.x
    let dy = end.y - begin.y
    let squaredLength = dx * dx + dy * dy
    guard squaredLength > 0 else { return begin.distance(to: point) }
    // Where the perpendicular from `point` meets the segment, as a fraction clamped to its ends.
    let t = min(1, max(0, ((point.x - begin.x) * dx + (point.y - begin.y) * dy) / squaredLength))
    return Point(x: begin.x + t * dx, y: begin.y + t * dy).distance(to: point)
  }
}
