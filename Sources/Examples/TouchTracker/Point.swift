/// A position on the drawing, in points. Platform-neutral stand-in for `CGPoint`.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The straight-line distance to `other`.
  public func distance(to other: Point) -> Double {
    ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
  }

  public var description: String { "(\(x), \(y))" }
}
