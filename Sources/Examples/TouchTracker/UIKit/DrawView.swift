#if canImport(UIKit)
  import PresentationModel
  public import UIKit

  /// TouchTracker's view on iOS: draws the drawing, turns touches into canvas taps, and shows the
  /// shared ``ContextMenu`` with an edit menu interaction, the successor of `UIMenuController`.
  ///
  /// All decisions live in ``DrawingCanvas``; the view only follows ``LinesChanged``,
  /// ``SelectionChanged`` and ``MenuVisibilityChanged``, with observers bound to its own lifetime.
  ///
  /// > Note: `UIEditMenuInteractionDelegate` is not main-actor isolated in the SDK, so the conformance
  /// > is `@preconcurrency`: UIKit calls the delegate on the main thread, and Swift checks that at run
  /// > time instead of rejecting the main-actor methods below.
  @available(iOS 16.0, *)
  public final class DrawView: UIView, @preconcurrency UIEditMenuInteractionDelegate {
    public let canvas: DrawingCanvas
    private var editMenu: UIEditMenuInteraction?

    public init(canvas: DrawingCanvas, frame: CGRect) {
      self.canvas = canvas
      super.init(frame: frame)
      let editMenu = UIEditMenuInteraction(delegate: self)
      addInteraction(editMenu)
      self.editMenu = editMenu
      let center = canvas.drawing.center
      center.observeOnMainActor(LinesChanged.self, owner: self, from: canvas.drawing) { view, _ in
        view.setNeedsDisplay()
      }
      center.observeOnMainActor(SelectionChanged.self, owner: self, from: canvas.drawing) { view, _ in
        view.setNeedsDisplay()
      }
      canvas.menu.center.observeOnMainActor(MenuVisibilityChanged.self, owner: self, from: canvas.menu) {
        view, change in
        view.follow(change)
      }
    }

    @available(*, unavailable, message: "DrawView is created in code with init(canvas:frame:)")
    public required init?(coder: NSCoder) {
      fatalError("DrawView is created in code with init(canvas:frame:)")
    }

    public override var canBecomeFirstResponder: Bool { true }

    public override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
      guard let touch = touches.first else { return }
      let location = touch.location(in: self)
      switch touch.tapCount {
      case 1: canvas.tap(at: Point(x: Double(location.x), y: Double(location.y)))
      case 2: canvas.doubleTap()
      default: break
      }
    }

    public override func draw(_ rect: CGRect) {
      for line in canvas.drawing.lines {
        let isSelected = line.id == canvas.drawing.selectedLineID
        let path = UIBezierPath()
        path.lineWidth = isSelected ? 10 : 6
        path.move(to: CGPoint(x: line.begin.x, y: line.begin.y))
        path.addLine(to: CGPoint(x: line.end.x, y: line.end.y))
        (isSelected ? UIColor.systemGreen : UIColor.black).setStroke()
        path.stroke()
      }
    }

    private func follow(_ change: MenuVisibilityChanged) {
      guard let editMenu else { return }
      if change.isVisible, let anchor = change.anchor {
        // The menu's actions go to the first responder, as UIMenuController's did.
        becomeFirstResponder()
        editMenu.presentEditMenu(
          with: UIEditMenuConfiguration(identifier: nil, sourcePoint: CGPoint(x: anchor.x, y: anchor.y)))
      } else {
        editMenu.dismissMenu()
      }
    }

    // MARK: UIEditMenuInteractionDelegate

    public func editMenuInteraction(
      _ interaction: UIEditMenuInteraction, menuFor configuration: UIEditMenuConfiguration,
      suggestedActions: [UIMenuElement]
    ) -> UIMenu? {
      // No `nil` here: nil asks UIKit for the system's default menu; an empty menu presents none.
      let items = canvas.menu.offeredItems
      return UIMenu(
        children: items.map { item in
          UIAction(title: item.title) { [weak self] _ in self?.canvas.menu.choose(item) }
        })
    }

    public func editMenuInteraction(
      _ interaction: UIEditMenuInteraction, willDismissMenuFor configuration: UIEditMenuConfiguration,
      animator: any UIEditMenuInteractionAnimating
    ) {
      // Dismissed by the user (a tap elsewhere): keep the model in step.
      canvas.menu.hide()
    }
  }
#endif
