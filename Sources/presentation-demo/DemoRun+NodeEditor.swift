import Foundation
import NodeEditorExample
import PresentationModel
import PresentationModelDiagnostics

extension DemoRun {
  /// Deleting a node fades its widget with real Dispatch timing, disposes it, and the
  /// widget deinitialises with its observers.
  func playNodeEditor() async {
    introduce(
      .nodeeditor,
      "delete fades the widget (\(options.fadeMilliseconds) ms in \(options.steps) steps), then it deinitialises")
    let editor = ledger.track(NodeEditor(center: center))
    let pendingDelete = ledger.track(
      PendingDelete(duration: .milliseconds(options.fadeMilliseconds), steps: options.steps))
    let canvas = ledger.track(
      NodeCanvas(editor: editor, pendingDelete: pendingDelete) { [ledger, weak self] node, editor in
        let widget = ledger.track(NodeWidget(node: node, editor: editor))
        widget.onOpacityChange = { opacity in self?.showFade(of: node.name, at: opacity) }
        widget.onDispose = { self?.finishFade(of: node.name) }
        return widget
      })
    let a = editor.addNode(named: "a", type: .number)
    let b = editor.addNode(named: "b", type: .number)
    let sum = editor.addNode(named: "sum", type: .add)
    let out = editor.addNode(named: "out", type: .output)
    editor.connect(a.id, to: sum.id)
    editor.connect(b.id, to: sum.id)
    editor.connect(sum.id, to: out.id)
    say("nodes: \(describe(editor)); widgets on canvas: \(canvas.widgets.count)")
    let observer = center.observe(NodeDeleted.self, from: editor) { [weak self] deleted in
      MainActor.assumeIsolated { self?.say("NodeDeleted(\(deleted.node.name))") }
    }
    let rewiring = center.observe(RelationshipsChanged.self, from: editor) { [weak self] change in
      MainActor.assumeIsolated { self?.say("RelationshipsChanged(nodes \(change.changedNodeIDs))") }
    }
    defer {
      observer.cancel()
      rewiring.cancel()
    }

    editor.select(sum.id)
    editor.perform(.changeType(.multiply))
    say("menu on 'sum' offers \(editor.menuActions.map(\.description)); changed it to multiply")

    if options.leak, let widget = canvas.widgets[sum.id] as? NodeWidget {
      // The classic leak: a handler that captures the widget strongly (no `[weak widget]`) keeps
      // it alive for as long as its observation lives, here until the demo ends.
      deliberatelyLeaked.append(
        center.observeOnMainActor(NodeTypeChanged.self) { [weak self] _ in
          if widget.isOnCanvas { self?.say("status: \(widget.title)") }
        })
      say("--leak: a status line observes NodeTypeChanged with a handler capturing the widget of 'sum'")
    }
    editor.perform(.delete)
    say("deleted 'sum': nodes \(describe(editor)); selection: \(editor.selectedNode?.name ?? "none")")
    await waitForFades(pendingDelete)

    editor.select(a.id)
    editor.perform(.delete)
    editor.select(b.id)
    editor.perform(.delete)
    say("deleted 'a' and 'b' at once: \(pendingDelete.pendingCount) fades in flight")
    await waitForFades(pendingDelete)
    say("nodes left: \(describe(editor)); widgets on canvas: \(canvas.widgets.count)")
    // Each widget observes two notifications; a widget that was deleted but lives on still does.
    let widgetRegistrations = center.registrationSnapshots.filter { $0.owner is NodeWidget }
    let expected = 2 * canvas.widgets.count
    say("registrations owned by NodeWidget: \(widgetRegistrations.count) (expected \(expected))")
    if widgetRegistrations.count != expected {
      for registration in widgetRegistrations { say("  \(describe(registration))") }
      say("  a deleted widget still observes: the lifecycle report says what holds it")
    }
  }

  private func describe(_ editor: NodeEditor) -> String {
    editor.nodes.map { node in
      let inputs = node.inputs.compactMap { editor.node(withID: $0)?.name }
      return inputs.isEmpty ? node.name : "\(node.name)(\(inputs.joined(separator: ", ")))"
    }.joined(separator: " ")
  }

  /// One step of a fade: on a terminal, the progress line of every fade in flight, redrawn in
  /// place; elsewhere (a pipe, a log) nothing, so that each fade is the one line `finishFade` writes.
  private func showFade(of name: String, at opacity: Double) {
    fadingOpacities[name] = opacity
    fadeSteps[name, default: 0] += 1
    if console.isTerminal {
      console.redraw(
        "  fading "
          + fadingOpacities.sorted { $0.key < $1.key }.map { "\($0.key) \(Console.bar($0.value))" }.joined(
            separator: "  "))
    }
  }

  /// The fade's one line: `widget of 'sum' faded out in 12 steps (opacity 0.00) and was disposed`.
  private func finishFade(of name: String) {
    let opacity = fadingOpacities.removeValue(forKey: name) ?? 1
    let steps = fadeSteps.removeValue(forKey: name) ?? 0
    say(
      "widget of '\(name)' faded out in \(steps) step\(steps == 1 ? "" : "s") (opacity "
        + "\(String(format: "%.2f", opacity))) and was disposed")
  }

  /// Lets the main queue run the fades' timed steps until none is left.
  private func waitForFades(_ pendingDelete: PendingDelete) async {
    while pendingDelete.pendingCount > 0 {
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}
