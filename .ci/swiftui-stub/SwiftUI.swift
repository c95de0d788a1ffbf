// A test-only stand-in for Apple's SwiftUI, declaring exactly the signatures that
// Sources/PresentationModel/Platform/View+OnNotification.swift, the examples' SwiftUI faces
// (Sources/Examples/*/SwiftUI) and the app module IntegrationTests/SwiftUIViews/SwiftUIViews.swift use, as Apple's documentation gives them (each
// declaration cites its page under developer.apple.com/documentation/swiftui/, read in the
// documentation's Markdown form). .ci/check-uikit-faces.sh compiles it as module `SwiftUI` so
// those files type-check on Linux. Nothing here runs: every body traps. Add a declaration only
// when a file starts using it, with Apple's exact spelling, isolation (`@MainActor` and
// `nonisolated` where Apple's declaration shows them, and only there) and Sendable-ness.
// Availability is left out, and so is what Apple's pages do not show (the `_`-prefixed
// requirements behind `View` and `ViewModifier`).
//
// Where the pages differ by SDK: they show `@ContentBuilder` on `View.body` and
// `ViewModifier.body(content:)` and say that Xcode 26 and earlier use `ViewBuilder` there
// (ViewBuilder's page); this stub follows Xcode 26, the package's toolchain on Apple platforms.
// `@export(implementation)` on ViewBuilder's methods is an inlining attribute, left out.

/// `view.md`: `@MainActor @preconcurrency protocol View`;
/// `view/body-swift.associatedtype.md`: `associatedtype Body : View`;
/// `view/body-8kl5o.md`: `@ContentBuilder @MainActor @preconcurrency var body: Self.Body { get }`
/// (`@ViewBuilder` in Xcode 26, see above).
@MainActor @preconcurrency
public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// Primitive views' `Body`: SwiftUI's leaf views declare `Body == Never`, and `Never` is a `View`.
extension Never: View {
  public var body: Never { fatalError("SwiftUI stub") }
}

/// `viewbuilder.md`: `@resultBuilder struct ViewBuilder`.
@resultBuilder
public struct ViewBuilder {
  /// `viewbuilder/buildblock(_:).md`: `static func buildBlock<Content>(_ content: Content) -> Content`
  /// (its older pages, and the Xcode 26 SDK, constrain `Content : View`).
  public static func buildBlock<Content>(_ content: Content) -> Content where Content: View {
    fatalError("SwiftUI stub")
  }
}

/// `viewmodifier.md`: `@MainActor @preconcurrency protocol ViewModifier`;
/// `viewmodifier/body(content:).md`:
/// `@ContentBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body`
/// (`@ViewBuilder` in Xcode 26); `viewmodifier/content.md`: `typealias Content`, whose type the
/// page does not show: here the placeholder view `_ViewModifier_Content<Self>`, as in the SDK.
@MainActor @preconcurrency
public protocol ViewModifier {
  associatedtype Body: View
  typealias Content = _ViewModifier_Content<Self>
  @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// The proxy a modifier's `body(content:)` receives (see `ViewModifier.Content`).
public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
  public var body: Never { fatalError("SwiftUI stub") }
}

/// `modifiedcontent.md`: `@frozen struct ModifiedContent<Content, Modifier>`; a `View` when
/// `Content` is a `View` and `Modifier` a `ViewModifier`
/// (`modifiedcontent/init(content:modifier:).md`).
@frozen
public struct ModifiedContent<Content, Modifier> {
  /// `modifiedcontent/init(content:modifier:).md`: `nonisolated init(content: Content, modifier: Modifier)`.
  nonisolated public init(content: Content, modifier: Modifier) { fatalError("SwiftUI stub") }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  public var body: Never { fatalError("SwiftUI stub") }
}

extension View {
  /// `view/modifier(_:).md`: `nonisolated func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T>`.
  nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { fatalError("SwiftUI stub") }

  /// `view/onappear(perform:).md`: `nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View`.
  /// Not `@MainActor`, not `@Sendable`: a closure passed from main-actor code (a `body`) is
  /// main-actor isolated because it is not `@Sendable`; SwiftUI calls it on the main thread.
  nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { stubbed(self) }

  /// `view/ondisappear(perform:).md`:
  /// `nonisolated func onDisappear(perform action: (() -> Void)? = nil) -> some View`.
  nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { stubbed(self) }
}

/// `state.md`: `@frozen @propertyWrapper struct State<Value>` (a property wrapper up to Xcode 26;
/// the page says Xcode 27 turns it into a macro).
@frozen @propertyWrapper
public struct State<Value> {
  /// `state/init(wrappedvalue:).md`: `init(wrappedValue value: Value)`.
  public init(wrappedValue value: Value) { fatalError("SwiftUI stub") }

  /// `state/wrappedvalue.md`: `var wrappedValue: Value { get nonmutating set }`.
  public var wrappedValue: Value {
    get { fatalError("SwiftUI stub") }
    nonmutating set { fatalError("SwiftUI stub") }
  }
}

/// `text.md`: `@frozen struct Text`.
@frozen
public struct Text: View {
  /// `text/init(_:)-9d1g4.md`: `init<S>(_ content: S) where S : StringProtocol`. The
  /// `LocalizedStringKey` overload (`text/init(_:tablename:bundle:comment:).md`) takes string
  /// literals only, which no checked file passes.
  public init<S>(_ content: S) where S: StringProtocol { fatalError("SwiftUI stub") }

  public var body: Never { fatalError("SwiftUI stub") }
}

/// Gives an opaque result its type without running: the stub's `some View` results are `Self`.
private func stubbed<V>(_ value: V) -> V { fatalError("SwiftUI stub") }
