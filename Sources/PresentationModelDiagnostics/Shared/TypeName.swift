import Foundation

/// Readable type names for reports.
enum TypeName {
  /// The full name of `type`, without the `(unknown context at $…).` segment Swift inserts for
  /// private and local types: `MyTests.CanvasTests.Widget` rather than
  /// `MyTests.CanvasTests.(unknown context at $10a2c).Widget`.
  static func of(_ type: Any.Type) -> String {
    var name = String(reflecting: type)
    while let start = name.range(of: "(unknown context at "),
      let end = name[start.upperBound...].range(of: ").")
    {
      name.removeSubrange(start.lowerBound..<end.upperBound)
    }
    return name
  }
}
