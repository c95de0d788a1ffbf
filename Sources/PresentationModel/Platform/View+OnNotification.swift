// The one place the package touches SwiftUI. Its logic lives in OnScreenObservation, which the
// Linux tests cover; .ci/check-swiftui-modifier.sh type-checks this file against a SwiftUI stub.
#if canImport(SwiftUI)
  public import SwiftUI

  extension View {
    /// Calls `action` with each `type` notification posted to `center` while this view is on
    /// screen: the observation starts when the view appears and ends when it disappears.
    ///
    /// ```swift
    /// struct DocumentClosed: MainActorNotification {
    ///   let title: String
    /// }
    ///
    /// struct RecentsView: View {
    ///   @State private var closed: [String] = []
    ///
    ///   var body: some View {
    ///     Text(closed.joined(separator: ", "))
    ///       .onNotification(DocumentClosed.self) { note in closed.append(note.title) }
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The notification type to observe.
    ///   - center: The main-actor center to observe; `MainActorNotificationCenter.default` unless
    ///     given.
    ///   - sender: When given, only notifications posted `from:` this very object are delivered.
    ///   - fileID: The file of the call, recorded for the center's `registrations`; leave the
    ///     default.
    ///   - line: The line of the call, recorded likewise; leave the default.
    ///   - action: Runs on the main actor; the one given at the view's latest update is called.
    public func onNotification<N: MainActorNotification>(
      _ type: N.Type, in center: MainActorNotificationCenter = .default, from sender: AnyObject? = nil,
      fileID: StaticString = #fileID, line: Int = #line,
      perform action: @escaping @MainActor (N) -> Void
    ) -> some View {
      modifier(
        OnScreenObservationModifier(action: action) { observation in
          observation.start(in: center, from: sender, fileID: fileID, line: line)
        })
    }

    /// Calls `action` on the main actor with each `type` notification posted to `bridge`'s
    /// Foundation center while this view is on screen: the observation starts when the view
    /// appears and ends when it disappears.
    ///
    /// - Parameters:
    ///   - type: The Foundation notification type to observe.
    ///   - bridge: The bridge to the Foundation center to observe.
    ///   - sender: When given, only notifications posted with this very object are delivered.
    ///   - fileID: The file of the call, recorded for the bridge's `registrations`; leave the
    ///     default.
    ///   - line: The line of the call, recorded likewise; leave the default.
    ///   - action: Runs on the main actor; the one given at the view's latest update is called.
    public func onNotification<N: FoundationNotification>(
      _ type: N.Type, in bridge: FoundationNotificationBridge, from sender: AnyObject? = nil,
      fileID: StaticString = #fileID, line: Int = #line,
      perform action: @escaping @MainActor (N) -> Void
    ) -> some View {
      modifier(
        OnScreenObservationModifier(action: action) { observation in
          observation.start(in: bridge, from: sender, fileID: fileID, line: line)
        })
    }
  }

  /// Keeps one ``OnScreenObservation`` per view in SwiftUI's state storage, starts it when the view
  /// appears and stops it when the view disappears.
  private struct OnScreenObservationModifier<Value>: ViewModifier {
    let action: @MainActor (Value) -> Void
    let start: @MainActor (OnScreenObservation<Value>) -> Void
    /// Made once per view identity (SwiftUI keeps the first value and discards later ones).
    @State private var observation = OnScreenObservation<Value>()

    func body(content: Content) -> some View {
      // The latest action, so that a notification sees the view's current values; setting it
      // changes no SwiftUI state, so it causes no update.
      observation.perform(action)
      return
        content
        .onAppear { start(observation) }
        .onDisappear { observation.stop() }
    }
  }
#endif
