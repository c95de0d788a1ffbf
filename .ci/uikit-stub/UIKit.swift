// A test-only stand-in for Apple's UIKit, declaring exactly the signatures the UIKit faces of this
// package use (Sources/**/UIKit/*.swift and Sources/PresentationModel/Platform), as Apple's
// documentation (developer.apple.com/documentation/uikit) gives them. .ci/check-uikit-faces.sh
// compiles it as module `UIKit` so those files type-check on Linux. Nothing here runs: every body
// traps. Add a declaration only when a face starts using it, with Apple's exact spelling, isolation
// (`@MainActor` where Apple's declaration shows it, and only there) and Sendable-ness. Overloads a
// face's call could also match are declared too, so overload resolution is Apple's. Availability
// is left out.
@_exported import Foundation

// Not `@MainActor`, not `@Sendable`: the SDK declares `typealias UIActionHandler = (UIAction) -> Void`.
// A closure passed as a handler from main-actor code is main-actor isolated because it is not
// `@Sendable`; UIKit calls it on the main thread.
public typealias UIActionHandler = (UIAction) -> Void

@MainActor
open class UIResponder: NSObject {
  open var canBecomeFirstResponder: Bool { fatalError("UIKit stub") }
  @discardableResult open func becomeFirstResponder() -> Bool { fatalError("UIKit stub") }
  open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { fatalError("UIKit stub") }
}

@MainActor
open class UIView: UIResponder {
  public init(frame: CGRect) { fatalError("UIKit stub") }
  public required init?(coder: NSCoder) { fatalError("UIKit stub") }
  open var alpha: CGFloat {
    get { fatalError("UIKit stub") }
    set { fatalError("UIKit stub") }
  }
  open var frame: CGRect {
    get { fatalError("UIKit stub") }
    set { fatalError("UIKit stub") }
  }
  open var backgroundColor: UIColor? {
    get { fatalError("UIKit stub") }
    set { fatalError("UIKit stub") }
  }
  open var superview: UIView? { fatalError("UIKit stub") }
  open func addSubview(_ view: UIView) { fatalError("UIKit stub") }
  open func removeFromSuperview() { fatalError("UIKit stub") }
  open func setNeedsDisplay() { fatalError("UIKit stub") }
  open func draw(_ rect: CGRect) { fatalError("UIKit stub") }
  open func addInteraction(_ interaction: any UIInteraction) { fatalError("UIKit stub") }
}

@MainActor
open class UILabel: UIView {
  open var text: String? {
    get { fatalError("UIKit stub") }
    set { fatalError("UIKit stub") }
  }
}

@MainActor
open class UITouch: NSObject {
  open var tapCount: Int { fatalError("UIKit stub") }
  open func location(in view: UIView?) -> CGPoint { fatalError("UIKit stub") }
}

@MainActor
open class UIEvent: NSObject {}

// `class UIColor` in the SDK: not main-actor isolated.
open class UIColor: NSObject {
  open class var black: UIColor { fatalError("UIKit stub") }
  open class var systemGreen: UIColor { fatalError("UIKit stub") }
  open class var systemBackground: UIColor { fatalError("UIKit stub") }
  open class var secondarySystemBackground: UIColor { fatalError("UIKit stub") }
  open func setStroke() { fatalError("UIKit stub") }
}

open class UIBezierPath: NSObject {
  public override init() { fatalError("UIKit stub") }
  open var lineWidth: CGFloat {
    get { fatalError("UIKit stub") }
    set { fatalError("UIKit stub") }
  }
  open func move(to point: CGPoint) { fatalError("UIKit stub") }
  open func addLine(to point: CGPoint) { fatalError("UIKit stub") }
  open func stroke() { fatalError("UIKit stub") }
}

open class UIImage: NSObject {
  public convenience init?(systemName name: String) { fatalError("UIKit stub") }
}

// MARK: Menus

@MainActor
open class UIMenuElement: NSObject {
  public struct Attributes: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static var disabled: Attributes { fatalError("UIKit stub") }
    public static var destructive: Attributes { fatalError("UIKit stub") }
    public static var keepsMenuPresented: Attributes { fatalError("UIKit stub") }
  }

  public enum State: Int, Sendable {
    case off
    case on
    case mixed
  }
}

@MainActor
open class UIMenu: UIMenuElement {
  public struct Options: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static var displayInline: Options { fatalError("UIKit stub") }
    public static var singleSelection: Options { fatalError("UIKit stub") }
  }

  public enum ElementSize: Int, Sendable {
    case small = 0
    case medium = 1
    case large = 2
    case automatic = -1
  }

  public struct Identifier: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
  }

  @MainActor @preconcurrency public convenience init(
    title: String = "", image: UIImage? = nil, identifier: UIMenu.Identifier? = nil, options: UIMenu.Options = [],
    children: [UIMenuElement] = []
  ) { fatalError("UIKit stub") }

  // Apple's default for `preferredElementSize` is `.automatic` from iOS 17 on (`.large` before).
  @MainActor @preconcurrency public convenience init(
    title: String = "", subtitle: String? = nil, image: UIImage? = nil, identifier: UIMenu.Identifier? = nil,
    options: UIMenu.Options = [], preferredElementSize: UIMenu.ElementSize = .automatic,
    children: [UIMenuElement] = []
  ) { fatalError("UIKit stub") }

  open var preferredElementSize: UIMenu.ElementSize {
    get { fatalError("UIKit stub") }
    set { fatalError("UIKit stub") }
  }
}

@MainActor
open class UIAction: UIMenuElement {
  public struct Identifier: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
  }

  @MainActor @preconcurrency public convenience init(
    title: String = "", image: UIImage? = nil, identifier: UIAction.Identifier? = nil,
    discoverabilityTitle: String? = nil, attributes: UIMenuElement.Attributes = [],
    state: UIMenuElement.State = .off, handler: @escaping UIActionHandler
  ) { fatalError("UIKit stub") }

  @MainActor @preconcurrency public convenience init(
    title: String = "", subtitle: String? = nil, image: UIImage? = nil, identifier: UIAction.Identifier? = nil,
    discoverabilityTitle: String? = nil, attributes: UIMenuElement.Attributes = [],
    state: UIMenuElement.State = .off, handler: @escaping UIActionHandler
  ) { fatalError("UIKit stub") }

  @MainActor @preconcurrency public convenience init(
    title: String = "", subtitle: String? = nil, image: UIImage? = nil, selectedImage: UIImage? = nil,
    identifier: UIAction.Identifier? = nil, discoverabilityTitle: String? = nil,
    attributes: UIMenuElement.Attributes = [], state: UIMenuElement.State = .off,
    handler: @escaping UIActionHandler
  ) { fatalError("UIKit stub") }
}

@MainActor
open class UIDeferredMenuElement: UIMenuElement {
  // Neither closure is `@MainActor` or `@Sendable` in the SDK; the method is main-actor isolated
  // because the class is.
  open class func uncached(
    _ elementProvider: @escaping (@escaping ([UIMenuElement]) -> Void) -> Void
  ) -> Self { fatalError("UIKit stub") }
}

@MainActor
open class UIBarButtonItem: NSObject {
  // Objective-C `initWithImage:menu:`.
  public convenience init(image: UIImage?, menu: UIMenu?) { fatalError("UIKit stub") }

  @MainActor @preconcurrency public convenience init(
    title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil
  ) { fatalError("UIKit stub") }
  open var menu: UIMenu? {
    get { fatalError("UIKit stub") }
    set { fatalError("UIKit stub") }
  }
}

// MARK: Edit menu interaction (the successor of UIMenuController)

@MainActor
public protocol UIInteraction: NSObjectProtocol {}

@MainActor
public protocol UIEditMenuInteractionAnimating: NSObjectProtocol {}

@MainActor
open class UIEditMenuConfiguration: NSObject {
  @MainActor @preconcurrency public convenience init(identifier: AnyHashable?, sourcePoint: CGPoint) {
    fatalError("UIKit stub")
  }
}

/// Not `@MainActor` in the SDK (unlike `UIInteraction` and `UIEditMenuInteractionAnimating`), so a
/// main-actor view adopting it needs a `@preconcurrency` conformance. In UIKit every method is an
/// `optional` Objective-C requirement, which Swift on Linux cannot declare; the faces implement
/// these two, so the stub requires them (a misspelt witness then fails instead of going unused).
public protocol UIEditMenuInteractionDelegate: NSObjectProtocol {
  func editMenuInteraction(
    _ interaction: UIEditMenuInteraction, menuFor configuration: UIEditMenuConfiguration,
    suggestedActions: [UIMenuElement]
  ) -> UIMenu?
  func editMenuInteraction(
    _ interaction: UIEditMenuInteraction, willDismissMenuFor configuration: UIEditMenuConfiguration,
    animator: any UIEditMenuInteractionAnimating)
}

@MainActor
open class UIEditMenuInteraction: NSObject, UIInteraction {
  public init(delegate: (any UIEditMenuInteractionDelegate)?) { fatalError("UIKit stub") }
  open func presentEditMenu(with configuration: UIEditMenuConfiguration) { fatalError("UIKit stub") }
  open func dismissMenu() { fatalError("UIKit stub") }
}
