/// Where a harness call was made, kept in both forms the two test frameworks want: `StaticString`s
/// for XCTest's `file:line:` and plain values for Swift Testing's `SourceLocation`.
struct CallSite: Sendable, Hashable {
  let fileID: String
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = String(describing: fileID)
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `Module/File.swift:12`, the form compilers and test runners print.
  var description: String { "\(fileID):\(line)" }

  static func == (lhs: CallSite, rhs: CallSite) -> Bool {
    lhs.fileID == rhs.fileID && lhs.line == rhs.line && lhs.column == rhs.column
      && String(describing: lhs.filePath) == String(describing: rhs.filePath)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(fileID)
    hasher.combine(line)
    hasher.combine(column)
  }
}
