/// Where a harness call was made, with Swift Testing's labels (`fileID:filePath:line:column:`) and
/// integer type (`Int`).
///
/// The file names stay `StaticString`s, as the caller's `#fileID` and `#filePath` give them: XCTest
/// reports a failure only at a `StaticString` file (`XCTFail(_:file:line:)`), and a `String` cannot
/// become one. Swift Testing's `SourceLocation` takes them as `String`s.
package struct CallSite: Sendable, CustomStringConvertible {
  package let fileID: StaticString
  package let filePath: StaticString
  package let line: Int
  package let column: Int

  package init(fileID: StaticString, filePath: StaticString, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `Module/File.swift:12`, the form compilers and test runners print.
  package var description: String { "\(fileID):\(line)" }
}
