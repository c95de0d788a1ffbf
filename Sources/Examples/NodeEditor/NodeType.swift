/// What a node computes; the editor's menu changes it.
public enum NodeType: String, CaseIterable, Sendable {
  case number
  case add
  case multiply
  case output
}
