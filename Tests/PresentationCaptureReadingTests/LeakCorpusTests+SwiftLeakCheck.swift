/// Cases from swift-leak-check (github:grab/swift-leak-check): its README's examples and the
/// snippets its tests check (`Tests/LeakCheckFrameworkTests/Snippets/`), with the escaping callee
/// each snippet assumes written out as a stand-in that stores the closure.
extension LeakCorpusTests {
  static let swiftLeakCheckCases: [Case] = [
    // README.md, first example: `handler = { self.doSmth() }`.
    Case(
      name: "a handler property set to a closure using self", source: .swiftLeakCheck,
      expected: .path("Client.callback (a closure that captures it)")
    ) { leaks in
      let client = Client()
      if leaks {
        client.callback = { client.secondAction() }
      } else {
        client.callback = { [weak client] in client?.secondAction() }
      }
      return Built(target: client, roots: [client]) { client.callback = nil }
    },
    // README.md, second example: an outer closure capturing self strongly only so that an inner
    // closure can capture it weakly.
    Case(
      name: "an outer closure capturing self for an inner weak capture", source: .swiftLeakCheck,
      expected: .path("Client.callback (a closure that captures it)")
    ) { leaks in
      let client = Client()
      if leaks {
        client.callback = { client.service.getData { [weak client] in client?.secondAction() } }
      } else {
        client.callback = { [weak client] in client?.service.getData { [weak client] in client?.secondAction() } }
      }
      return Built(target: client, roots: [client]) { client.callback = nil }
    },
    // Snippets/Leak1.swift: `[weak self]` outside, `strongSelf` captured by an inner escaping closure.
    Case(
      name: "strongSelf captured by an inner escaping closure", source: .swiftLeakCheck,
      expected: .path("Client.service.completion (a closure that captures it)")
    ) { leaks in
      let client = Client()
      let block = { [weak client] in
        guard let strongSelf = client else { return }
        if leaks {
          strongSelf.service.getData { strongSelf.secondAction() }
        } else {
          strongSelf.service.getData { [weak client] in client?.secondAction() }
        }
      }
      block()
      return Built(target: client, roots: [client]) { client.service.completion = nil }
    },
    // Snippets/Leak2.swift: a subscription handler given the object, whose inner closure captures
    // `self` weakly: the handler itself captures `self` strongly.
    Case(
      name: "a subscription whose inner weak capture makes the outer one strong", source: .swiftLeakCheck,
      expected: .path("RxScreen.button.tapHandlers[0] (a closure that captures it)")
    ) { leaks in
      let screen = RxScreen()
      if leaks {
        screen.button.tapHandlers.append { [button = screen.button] in
          button.action = { [weak screen] in screen?.doSomething() }
          _ = screen
        }
      } else {
        screen.button.tapHandlers.append { [weak screen, button = screen.button] in
          button.action = { [weak screen] in screen?.doSomething() }
        }
      }
      return Built(target: screen, roots: [screen]) { screen.button.tapHandlers = [] }
    },
    // Snippets/Leak4.swift: a closure inside a dependencies tuple handed to a builder that keeps it.
    Case(
      name: "a factory closure in a dependencies tuple", source: .swiftLeakCheck,
      expected: .path("Observed.builder.dependencies.factory (a closure that captures it)")
    ) { leaks in
      let screen = Observed()
      let factory: () -> Void = leaks ? { _ = screen } : { [weak screen] in _ = screen }
      screen.builder = Builder(dependencies: (name: "profile", factory: factory))
      return Built(target: screen, roots: [screen]) { screen.builder = nil }
    },
    // Snippets/Leak9.swift, `tupleClosure`: a tuple of two closures, the second one kept.
    Case(
      name: "the second closure of a kept tuple", source: .swiftLeakCheck,
      expected: .path("Client.pair.second (a closure that captures it)")
    ) { leaks in
      let client = Client()
      let first: () -> Void = { [weak client] in client?.secondAction() }
      let second: () -> Void = leaks ? { client.secondAction() } : { [weak client] in client?.secondAction() }
      client.pair = (first: first, second: second)
      return Built(target: client, roots: [client]) { client.pair = nil }
    },
    // Snippets/EscapingAttribute.swift: an optional closure parameter escapes without `@escaping`.
    Case(
      name: "an optional closure parameter that is stored", source: .swiftLeakCheck,
      expected: .path("Client.callback (a closure that captures it)")
    ) { leaks in
      let client = Client()
      func store(_ block: (() -> Void)?) { client.callback = block }
      if leaks { store { client.secondAction() } } else { store { [weak client] in client?.secondAction() } }
      return Built(target: client, roots: [client]) { client.callback = nil }
    },
    // Snippets/NestedClosure, `escapingClosure`: an escaping closure that captures self only for the
    // non-escaping closure inside it.
    Case(
      name: "an escaping closure capturing self for a map inside it", source: .swiftLeakCheck,
      expected: .path("Client.pending[0] (a closure that captures it)")
    ) { leaks in
      let client = Client()
      if leaks {
        client.pending.append { _ = [1, 2].map { _ in client.secondAction() } }
      } else {
        client.pending.append { [weak client] in _ = [1, 2].map { _ in client?.secondAction() } }
      }
      return Built(target: client, roots: [client]) { client.pending = [] }
    },
  ]
}
