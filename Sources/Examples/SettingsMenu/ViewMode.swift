/// How the app lays out its items: the setting the menu chooses with an inline single-selection group.
public enum ViewMode: String, CaseIterable, Sendable {
  case list
  case grid

  /// The title the menu shows.
  public var title: String {
    switch self {
    case .list: "List"
    case .grid: "Grid"
    }
  }

  /// The SF Symbol name the menu shows.
  public var imageName: String {
    switch self {
    case .list: "list.bullet"
    case .grid: "square.grid.2x2"
    }
  }
}
