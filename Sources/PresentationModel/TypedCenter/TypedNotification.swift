/// A notification whose type is its name and whose stored properties are its payload.
///
/// Declare one type per event. The compiler then checks every post and every observer:
///
/// ```swift
/// struct NodeDeleted: TypedNotification {
///   let nodeID: Int
/// }
///
/// let center = TypedNotificationCenter()
/// let token = center.observe(NodeDeleted.self) { note in
///   print("node \(note.nodeID) was deleted")
/// }
/// center.post(NodeDeleted(nodeID: 7))
/// token.cancel()
/// ```
///
/// A notification crosses threads and actors when it is delivered, so it must be `Sendable`.
public protocol TypedNotification: Sendable {}
