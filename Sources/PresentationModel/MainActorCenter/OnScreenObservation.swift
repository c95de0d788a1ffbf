/// An observation for something that comes and goes from the screen: it observes while it is
/// started, from a view's appearing to its disappearing, and calls the action set last.
///
/// SwiftUI's `onNotification(_:in:from:perform:)` view modifier is built on it; a UIKit view
/// controller can use it directly, starting it in `viewWillAppear(_:)` and stopping it in
/// `viewDidDisappear(_:)`:
///
/// ```swift
/// struct DocumentClosed: MainActorNotification {
///   let title: String
/// }
///
/// @MainActor func showAndHide(center: MainActorNotificationCenter) {
///   let observation = OnScreenObservation<DocumentClosed>()
///   observation.perform { closed in print("closed \(closed.title)") }
///   observation.start(in: center)  // the view appears
///   center.post(DocumentClosed(title: "Notes"))  // prints "closed Notes"
///   observation.stop()  // the view disappears
///   center.post(DocumentClosed(title: "Plans"))  // prints nothing
/// }
/// ```
///
/// > Note: Starting an observation that is already observing does nothing, and so does stopping
/// > one that is not: a view may appear twice without disappearing in between. The action is
/// > called on the main actor, before `post` returns for a main-actor center, and never after
/// > ``stop()`` returned. Releasing the observation stops it.
@MainActor
public final class OnScreenObservation<Value> {
  private var token: ObserverToken?
  private var action: (@MainActor (Value) -> Void)?

  /// Creates an observation that is stopped and has no action.
  public init() {}

  /// Whether the observation is started and its registration is live.
  public var isObserving: Bool { token?.isActive ?? false }

  /// Makes `action` the one each notification is given to from now on, replacing the previous one
  /// (a SwiftUI view sets it on each update, so the action sees the view's latest values).
  public func perform(_ action: @escaping @MainActor (Value) -> Void) {
    self.action = action
  }

  /// Starts observing `Value` notifications posted to `center`, from `sender` only when one is
  /// given; does nothing while already observing.
  ///
  /// - Parameters:
  ///   - center: The main-actor center to observe.
  ///   - sender: When given, only notifications posted `from:` this very object are delivered.
  ///     Never retained.
  ///   - fileID: The file of the call, recorded for `registrations`; leave the default.
  ///   - line: The line of the call, recorded for `registrations`; leave the default.
  public func start(
    in center: MainActorNotificationCenter, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line
  ) where Value: MainActorNotification {
    start { center.observe(Value.self, from: sender, fileID: fileID, line: line, $0) }
  }

  /// Starts observing `Value` notifications posted to `bridge`'s Foundation center, on the main
  /// actor, from `sender` only when one is given; does nothing while already observing.
  ///
  /// A notification posted on another thread is delivered on the main queue, unless the
  /// observation stopped before it runs.
  public func start(
    in bridge: FoundationNotificationBridge, from sender: AnyObject? = nil,
    fileID: StaticString = #fileID, line: Int = #line
  ) where Value: FoundationNotification {
    start { bridge.observeOnMainActor(Value.self, from: sender, fileID: fileID, line: line, $0) }
  }

  /// Registers, through `observe`, a handler that calls the latest action; nothing while already
  /// observing. The handler holds the observation weakly: no cycle through the center.
  private func start(_ observe: (_ handler: @escaping @MainActor @Sendable (Value) -> Void) -> ObserverToken) {
    guard !isObserving else { return }
    token = observe { [weak self] value in self?.action?(value) }
  }

  /// Stops observing; the registration ends at once. Does nothing when not observing.
  public func stop() {
    let ending = token
    token = nil
    // After the property is cleared: cancelling releases the handler, which is user code.
    ending?.cancel()
  }
}
