/// Where a harness call was made, kept in both forms the two test frameworks want: `StaticString`s
/// for XCTest's `file:line:` and plain values for Swift Testing's `SourceLocation`.
package struct CallSite: Sendable, Hashable {
  package let fileID: String
  package let filePath: StaticString
  package let line: UInt
  package let column: UInt

  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = String(describing: fileID)
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `Module/File.swift:12`, the form compilers and test runners print.
  package var description: String { "\(fileID):\(line)" }

  package static func == (lhs: CallSite, rhs: CallSite) -> Bool {
    lhs.fileID == rhs.fileID && lhs.line == rhs.line && lhs.column == rhs.column
      && String(describing: lhs.filePath) == String(describing: rhs.filePath)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(fileID)
    hasher.combine(line)
    hasher.combine(column)
  }
}
