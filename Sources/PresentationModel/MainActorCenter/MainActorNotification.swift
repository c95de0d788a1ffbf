/// A notification that is posted and observed on the main actor only, so that neither it nor its
/// observers' owners and handlers need to be `Sendable`.
///
/// Post and observe it through a ``MainActorNotificationCenter``:
///
/// ```swift
/// final class Thumbnail {  // not Sendable
///   var pixels: [UInt8] = []
/// }
///
/// struct ThumbnailReady: MainActorNotification {
///   let thumbnail: Thumbnail  // a non-Sendable payload
/// }
///
/// @MainActor func example() {
///   let center = MainActorNotificationCenter()
///   var received = 0
///   let token = center.observe(ThumbnailReady.self) { _ in received += 1 }
///   center.post(ThumbnailReady(thumbnail: Thumbnail()))
///   print(received)  // 1
///   token.cancel()
/// }
/// ```
///
/// A type that also crosses threads conforms to ``TypedNotification`` instead and goes through a
/// ``TypedNotificationCenter``; the two protocols and the two centers are independent.
public protocol MainActorNotification {}
