import Foundation

/// Writes the demo's output unbuffered, and knows whether it may redraw a line in place.
@MainActor
struct Console {
  /// Whether standard output is a terminal: fades are then drawn as a progress bar redrawn in place.
  let isTerminal = isatty(FileHandle.standardOutput.fileDescriptor) != 0
  private var lineIsOpen = false

  /// Writes `text` as a line of its own.
  mutating func line(_ text: String = "") {
    closeLine()
    write(text + "\n")
  }

  /// Redraws the current line (terminal only).
  mutating func redraw(_ text: String) {
    write("\r\u{1B}[2K" + text)
    lineIsOpen = true
  }

  /// Ends a line left open by ``redraw(_:)``.
  mutating func closeLine() {
    if lineIsOpen { write("\n") }
    lineIsOpen = false
  }

  func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  private func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// `[########····] 0.33` for an opacity.
  static func bar(_ opacity: Double, width: Int = 20) -> String {
    let filled = max(0, min(width, Int((opacity * Double(width)).rounded())))
    return "[" + String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled) + "] "
      + String(format: "%.2f", opacity)
  }
}
