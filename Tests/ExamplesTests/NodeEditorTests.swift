import NodeEditorExample
import PresentationModel
import PresentationModelTesting
import Testing

@MainActor
@Suite(.detectsLeaks, .timeLimit(.minutes(1)))
struct NodeEditorTests {
  /// An editor with `a` and `b` feeding `sum`, which feeds `out`, on a canvas of ``NodeWidget``s
  /// faded by virtual time: 300 ms in 3 steps.
  @MainActor
  struct Fixture {
    let center = TypedNotificationCenter()
    let scheduler = ManualStepScheduler()
    let editor: NodeEditor
    let canvas: NodeCanvas
    let a: Node
    let b: Node
    let sum: Node
    let out: Node

    init() {
      editor = NodeEditor(center: center)
      canvas = NodeCanvas(
        editor: editor, pendingDelete: PendingDelete(duration: .milliseconds(300), steps: 3, scheduler: scheduler)
      ) { node, editor in
        let widget = NodeWidget(node: node, editor: editor)
        trackForLeaks(widget)
        return widget
      }
      a = editor.addNode(named: "a", type: .number)
      b = editor.addNode(named: "b", type: .number)
      sum = editor.addNode(named: "sum", type: .add)
      out = editor.addNode(named: "out", type: .output)
      editor.connect(a.id, to: sum.id)
      editor.connect(b.id, to: sum.id)
      editor.connect(sum.id, to: out.id)
      trackForLeaks(editor)
      trackForLeaks(canvas)
      trackForLeaks(canvas.pendingDelete)
    }

    func widget(_ node: Node) -> NodeWidget? {
      canvas.widgets[node.id] as? NodeWidget
    }

    func delete(_ node: Node) {
      editor.select(node.id)
      editor.perform(.delete)
    }
  }

  @Test func deleteRemovesTheNodeAndEveryReferenceToIt() {
    let fixture = Fixture()
    fixture.delete(fixture.sum)

    #expect(fixture.editor.nodes.map(\.name) == ["a", "b", "out"])
    #expect(fixture.editor.nodes.allSatisfy { $0.inputs.isEmpty })
    #expect(fixture.editor.selectedNodeID == nil)
    fixture.scheduler.runUntilIdle()
  }

  @Test func deletePostsNodeDeletedThenRelationshipsChangedWithTheStateAlreadyConsistent() {
    let fixture = Fixture()
    let editor = fixture.editor
    var events: [String] = []
    let deleted = fixture.center.observe(NodeDeleted.self) { note in
      MainActor.assumeIsolated {
        // Observers see the final state: no node, no input and no selection pointing at it.
        let dangling = editor.nodes.contains { $0.id == note.node.id || $0.inputs.contains(note.node.id) }
        events.append("deleted \(note.node.name)\(dangling || editor.selectedNodeID != nil ? " (dangling)" : "")")
      }
    }
    let relationships = fixture.center.observe(RelationshipsChanged.self) { note in
      MainActor.assumeIsolated { events.append("relationships \(note.changedNodeIDs)") }
    }
    let selection = fixture.center.observe(NodeSelectionChanged.self) { note in
      MainActor.assumeIsolated { events.append("selection \(String(describing: note.selectedNodeID))") }
    }
    fixture.editor.select(fixture.sum.id)
    events.removeAll()

    fixture.editor.perform(.delete)

    #expect(events == ["deleted sum", "relationships [\(fixture.out.id)]", "selection nil"])
    for token in [deleted, relationships, selection] { token.cancel() }
    fixture.scheduler.runUntilIdle()
  }

  @Test func changeTypeFromTheMenuUpdatesTheWidget() throws {
    let fixture = Fixture()
    fixture.editor.select(fixture.sum.id)
    #expect(
      fixture.editor.menuActions == [.changeType(.number), .changeType(.multiply), .changeType(.output), .delete])

    fixture.editor.perform(.changeType(.multiply))

    let widget = try #require(fixture.widget(fixture.sum))
    #expect(fixture.editor.selectedNode?.type == .multiply)
    #expect(widget.title == "sum (multiply)")
    #expect(widget.isSelected)
  }

  @Test func theDeletedWidgetFadesInStepsIsDisposedAndDeinitialisesWithItsObservers() async throws {
    let fixture = Fixture()
    weak let widget = fixture.widget(fixture.sum)
    var opacities: [Double] = []
    try #require(widget).onOpacityChange = { opacities.append($0) }
    #expect(fixture.center.registrations.filter { $0.ownerType == NodeWidget.self }.count == 8)

    fixture.delete(fixture.sum)

    #expect(fixture.canvas.widgets[fixture.sum.id] == nil)
    #expect(fixture.canvas.pendingDelete.pendingCount == 1)
    #expect(widget?.isOnCanvas == true)  // still fading
    fixture.scheduler.advance(by: .milliseconds(100))
    fixture.scheduler.advance(by: .milliseconds(100))
    #expect(widget != nil)
    fixture.scheduler.advance(by: .milliseconds(100))

    #expect(opacities.map { ($0 * 100).rounded() / 100 } == [0.67, 0.33, 0])
    #expect(fixture.canvas.pendingDelete.pendingCount == 0)
    #expect(widget == nil, "the fade held the last strong reference; after dispose the widget deinitialises")
    #expect(fixture.center.registrations.filter { $0.ownerType == NodeWidget.self }.count == 6)
  }

  /// Every way of deleting ends with nothing left once the canvas goes: each deleted widget is
  /// disposed and deinitialised, and the center has no registration left.
  @Test(arguments: DeletionPath.allCases)
  func everyDeletionPathLeavesNothingBehind(path: DeletionPath) async {
    let center: TypedNotificationCenter
    do {
      let fixture = Fixture()
      center = fixture.center
      switch path {
      case .one:
        fixture.delete(fixture.sum)
      case .twoInFlight:
        fixture.delete(fixture.a)
        fixture.scheduler.advance(by: .milliseconds(100))
        fixture.delete(fixture.b)
        #expect(fixture.canvas.pendingDelete.pendingCount == 2)
      case .afterTypeChange:
        fixture.editor.select(fixture.out.id)
        fixture.editor.perform(.changeType(.add))
        fixture.editor.perform(.delete)
      case .all:
        for node in fixture.editor.nodes.reversed() { fixture.delete(node) }
        #expect(fixture.editor.nodes.isEmpty)
      }
      fixture.scheduler.runUntilIdle()
      #expect(fixture.canvas.pendingDelete.pendingCount == 0)
      // While the canvas lives, only the widgets of remaining nodes observe: two registrations each.
      let widgetRegistrations = center.registrations.filter { $0.ownerType == NodeWidget.self }
      #expect(widgetRegistrations.count == 2 * fixture.canvas.widgets.count, "\(widgetRegistrations)")
      if path == .all { await expectNoObservers(in: center, ownedBy: NodeWidget.self) }
    }
    // The fixture is gone: the .detectsLeaks trait checks every tracked widget, editor and canvas.
    await expectNoObservers(in: center)
  }

  enum DeletionPath: CaseIterable, Sendable {
    case one
    case twoInFlight
    case afterTypeChange
    case all
  }
}
