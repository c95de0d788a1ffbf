import Dispatch
import Foundation

/// Cases from The Swift Programming Language's "Automatic Reference Counting" chapter and from the
/// retain-cycle patterns of iOS articles and Q&A (the page is named at each case), with UIKit's
/// classes replaced by stand-ins.
extension LeakCorpusTests {
  static let articleCases: [Case] = [
    // The Swift Programming Language, "Strong Reference Cycles Between Class Instances"; twin:
    // "Weak References" (`weak var tenant`).
    Case(
      name: "a person and an apartment holding each other", source: .swiftBook,
      expected: .path("Person.apartment.tenant")
    ) { leaks in
      let (john, unit4A) = (Person(), Apartment())
      john.apartment = unit4A
      if leaks { unit4A.tenant = john } else { unit4A.weakTenant = john }
      return Built(target: john, roots: [john]) { unit4A.tenant = nil }
    },
    // "Unowned References": a credit card whose customer is strong instead of `unowned`.
    Case(
      name: "a credit card holding its customer strongly", source: .swiftBook,
      expected: .path("Customer.card.customer")
    ) { leaks in
      let customer = Customer()
      customer.card = CreditCard(customer: customer, strongly: leaks)
      return Built(target: customer, roots: [customer]) { customer.card = nil }
    },
    // "Strong Reference Cycles for Closures": `HTMLElement.asHTML`, a lazy closure using self; twin:
    // "Resolving Strong Reference Cycles for Closures" (`[unowned self]`). Walked as a handler.
    Case(
      name: "asHTML captured by a handler", source: .swiftBook, expected: .handler("captures it")
    ) { leaks in
      let element = HTMLElement(leaks: leaks)
      let handler = element.asHTML
      return Built(target: element, roots: [], handler: handler) { element.asHTML = { "" } }
    },
    // "Capture Lists": a closure capturing a struct copy that holds the object.
    Case(
      name: "a closure capturing a struct that holds self", source: .swiftBook,
      expected: .path("Holder.block (a closure that captures it through StrongPair.object)")
    ) { leaks in
      let a = Holder()
      let pair = leaks ? StrongPair(object: a) : StrongPair(object: nil)
      a.block = { _ = pair }
      return Built(target: a, roots: [a], release: Holder.clearing(a))
    },
    // deepsource SW-W1025, https://app.deepsource.com/directory/analyzers/swift/issues/SW-W1025:
    // "Delegates in Swift should be declared as weak".
    Case(
      name: "a delegate declared strong", source: .articles, expected: .path("Holder.object.delegate")
    ) { leaks in
      let (owner, view) = (Holder(), Holder())
      owner.object = view
      if leaks { view.delegate = owner } else { view.weakDelegate = owner }
      return Built(target: owner, roots: [owner], release: Holder.clearing(owner, view))
    },
    // https://medium.com/macoclock/delegate-retain-cycle-in-swift-4d9c813d0544: two view controllers
    // each the other's delegate, tracked from the receiver.
    Case(
      name: "two controllers each the other's delegate", source: .articles,
      expected: .path("Holder.delegate.delegate")
    ) { leaks in
      let (sender, receiver) = (Holder(), Holder())
      receiver.delegate = sender
      if leaks { sender.delegate = receiver } else { sender.weakDelegate = receiver }
      return Built(target: receiver, roots: [receiver], release: Holder.clearing(sender, receiver))
    },
    // https://muyexi.im/implicit-retain-cycle-in-lazy-var: a lazy var whose object's handler
    // captures that object (no `self` in sight).
    Case(
      name: "a lazy var whose object's handler captures the object", source: .articles,
      expected: .path("API.failureHandler (a closure that captures it)")
    ) { leaks in
      // Tracked from the API object itself: the screen owns it either way (`$__lazy_storage_$_api`).
      let screen = APIScreen(leaks: leaks)
      let api = screen.api
      return Built(target: api, roots: [api]) { api.failureHandler = nil }
    },
    // https://newbedev.com/lazy-initialisation-and-retain-cycle: a closure stored in a property of
    // the object it uses (`personalizedGreeting`), against a lazily computed value (the twin).
    Case(
      name: "a greeting closure stored instead of computed", source: .articles,
      expected: .path("Holder.any (a closure that captures it)")
    ) { leaks in
      let person = Holder()
      let greeting: () -> String = { "Hello, \(person.array.count)" }
      person.any = leaks ? greeting : greeting()
      return Built(target: person, roots: [person], release: Holder.clearing(person))
    },
    // https://swifting.io/2016/03/13/How-to-invalidate-NSTimer-properly.html: a repeating timer
    // kept by its owner, whose block uses the owner.
    Case(
      name: "a repeating timer kept by the object its block uses", source: .articles,
      expected: .path("Observed.timer._fire (a closure that captures it)")
    ) { leaks in
      let interactor = Observed()
      let timer =
        leaks
        ? Timer(timeInterval: 15, repeats: true) { _ in _ = interactor.userInfo }
        : Timer(timeInterval: 15, repeats: true) { [weak interactor] _ in _ = interactor?.userInfo }
      interactor.timer = timer
      return Built(target: interactor, roots: [interactor]) {
        timer.invalidate()
        interactor.timer = nil
      }
    },
    // https://w3toppers.com/how-can-i-create-a-reference-cycle-using-dispatchqueues/: a
    // `DispatchSourceTimer` whose event handler is missing `[weak self]`.
    Case(
      name: "a dispatch timer source's event handler", source: .articles,
      expected: .missed("a DispatchSource keeps its handler as a block inside libdispatch")
    ) { leaks in
      let ticker = Observed()
      let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ticker"))
      if leaks {
        source.setEventHandler { _ = ticker.userInfo }
      } else {
        source.setEventHandler { [weak ticker] in _ = ticker?.userInfo }
      }
      ticker.source = source
      return Built(target: ticker, roots: [ticker]) {
        source.setEventHandler(handler: nil)
        source.cancel()
        source.activate()
        ticker.source = nil
      }
    },
    // https://courses.cocoacasts.com/mastering-grand-central-dispatch-grand-central-dispatch-and-memory-management:
    // a cell keeping the `DispatchWorkItem` whose block uses the cell.
    Case(
      name: "a DispatchWorkItem kept by the object its block uses", source: .articles,
      expected: .missed("a DispatchWorkItem holds its block as @convention(block), whose captures are not described")
    ) { leaks in
      let cell = Observed()
      cell.workItem = leaks ? DispatchWorkItem { _ = cell.userInfo } : DispatchWorkItem { [weak cell] in _ = cell }
      return Built(target: cell, roots: [cell]) {
        cell.workItem?.cancel()
        cell.workItem = nil
      }
    },
    // https://www.informit.com/articles/article.aspx?p=2207347 (Erica Sadun) and
    // https://holko.pl/2015/08/05/notification-center/: a block-based NotificationCenter observer
    // whose block uses the object that keeps the observer token.
    Case(
      name: "a NotificationCenter block observer kept by the object it uses", source: .articles,
      expected: .missed(
        "swift-corelibs-foundation's NotificationCenter keeps the block in its own registry (not readable even from "
          + "the center), and the returned token holds only an identifier")
    ) { leaks in
      let center = NotificationCenter()
      let model = Observed()
      let name = Notification.Name("LeakCorpusTests.Refresh")
      model.token =
        leaks
        ? center.addObserver(forName: name, object: nil, queue: nil) { _ in _ = model.userInfo }
        : center.addObserver(forName: name, object: nil, queue: nil) { [weak model] _ in _ = model }
      return Built(target: model, roots: [model]) {
        if let token = model.token { center.removeObserver(token) }
        model.token = nil
      }
    },
    // https://livsycode.com/swift/should-we-use-the-weak-self-with-dispatchqueue-main-async/: a
    // completion handler a service stores, using the client that owns the service.
    Case(
      name: "a completion handler stored by an owned service", source: .articles,
      expected: .path("Client.service.completion (a closure that captures it)")
    ) { leaks in
      let client = Client()
      if leaks {
        client.service.getData { client.secondAction() }
      } else {
        client.service.getData { [weak client] in client?.secondAction() }
      }
      return Built(target: client, roots: [client]) { client.service.completion = nil }
    },
    // The same page, nested: the outer closure (run at once here) and the stored inner one.
    Case(
      name: "a nested closure stored by an owned service", source: .articles,
      expected: .path("Client.service.completion (a closure that captures it)")
    ) { leaks in
      let client = Client()
      let outer = {
        if leaks {
          client.service.getData { client.secondAction() }
        } else {
          client.service.getData { [weak client] in client?.secondAction() }
        }
      }
      outer()
      return Built(target: client, roots: [client]) { client.service.completion = nil }
    },
    // https://stackoverflow.com/questions/30056526/swift-delegation-when-to-use-weak-pointer-on-delegate:
    // a child view's tap closure using its parent.
    Case(
      name: "a child view's onTap closure capturing the parent", source: .articles,
      expected: .path("ParentView.child.action (a closure that captures it)")
    ) { leaks in
      let parent = ParentView()
      if leaks {
        parent.child.action = { parent.tapped() }
      } else {
        parent.child.action = { [weak parent] in parent?.tapped() }
      }
      return Built(target: parent, roots: [parent]) { parent.child.action = nil }
    },
    // yume190/LeakDetect's `assign` mode ("Don't use this syntax!": `x = self.func`): a method
    // reference stored as a closure captures its object.
    Case(
      name: "a method reference stored as a button action", source: .articles,
      expected: .path("ParentView.child.action (a closure that captures it)")
    ) { leaks in
      let parent = ParentView()
      parent.child.action = leaks ? parent.tapped : { [weak parent] in parent?.tapped() }
      return Built(target: parent, roots: [parent]) { parent.child.action = nil }
    },
    // https://tanaschita.com/20221003-memory-management-for-async-await/ (a closure assigned to a
    // property of the object it uses), kept in a dictionary of handlers keyed by name.
    Case(
      name: "a handler in a dictionary of handlers", source: .articles,
      expected: .path("Client.handlers[\"save\"] (a closure that captures it)")
    ) { leaks in
      let client = Client()
      client.handlers["save"] = leaks ? { client.secondAction() } : { [weak client] in client?.secondAction() }
      return Built(target: client, roots: [client]) { client.handlers = [:] }
    },
    // https://pixelper.com/blog/ios-combine-retain-cycles and
    // https://swiftbysundell.com/articles/combine-self-cancellable-memory-management/: Combine's `sink`
    // using `self`, stored in the object's own `cancellables`, with a publisher written by hand.
    Case(
      name: "a hand-written sink capturing the model that owns the subject", source: .articles,
      expected: .path("SearchModel.query.subscribers[0] (a closure that captures it)")
    ) { leaks in
      let model = SearchModel()
      let cancellable =
        leaks
        ? model.query.sink { model.results = $0 } : model.query.sink { [weak model] in model?.results = $0 }
      model.cancellables.append(cancellable)
      return Built(target: model, roots: [model]) {
        model.cancellables = []
        model.query.subscribers = []
      }
    },
    // swift-leak-check's README.md, RxSwift: `button.rx.tap.subscribe(onNext: { self.doSmth() })
    // .disposed(by: disposeBag)`, with a button and a dispose bag written by hand.
    Case(
      name: "a tap subscription kept in the screen's dispose bag", source: .swiftLeakCheck,
      expected: .path("RxScreen.button.tapHandlers[0] (a closure that captures it)")
    ) { leaks in
      let screen = RxScreen()
      screen.button.tapHandlers.append(leaks ? { screen.doSomething() } : { [weak screen] in screen?.doSomething() })
      screen.disposeBag.disposables.append(Cancellable { [weak button = screen.button] in button?.tapHandlers = [] })
      return Built(target: screen, roots: [screen]) { screen.button.tapHandlers = [] }
    },
    // FBRetainCycleDetector's FBSwiftReferenceTest.swift, `SwiftAndKVOTestClass`: a key-value
    // observation kept by the observed object; here its change handler uses the object.
    Case(
      name: "a KVO-style observation's change handler", source: .fbRetainCycleDetector,
      expected: .path("Observed.observation.changeHandler (a closure that captures it)")
    ) { leaks in
      let observed = Observed()
      observed.observation =
        leaks ? Observation { _ in _ = observed.userInfo } : Observation { [weak observed] _ in _ = observed }
      return Built(target: observed, roots: [observed]) { observed.observation = nil }
    },
    // FBRetainCycleDetectorTests.mm, testThatDetectorWillFindCycleIfDictionaryIsPartOfIt, with the
    // dictionary a Notification's `userInfo` (`[AnyHashable: Any]`) that the object keeps.
    Case(
      name: "a userInfo dictionary holding its owner", source: .fbRetainCycleDetector,
      expected: .path("Observed.userInfo[\"sender\"]")
    ) { leaks in
      let observed = Observed()
      observed.userInfo = leaks ? ["sender": observed] : ["sender": "none"]
      return Built(target: observed, roots: [observed]) { observed.userInfo = [:] }
    },
    // https://www.swiftbysundell.com/articles/capturing-objects-in-swift-closures/ ("Capturing &
    // retain cycles": an escaping closure stored by its owner), stored as a loading state's payload.
    Case(
      name: "an enum payload closure capturing the owner", source: .articles,
      expected: .path("Observed.state.loading.onDone (a closure that captures it)")
    ) { leaks in
      let observed = Observed()
      observed.state = .loading(onDone: leaks ? { _ = observed.userInfo } : { [weak observed] in _ = observed })
      return Built(target: observed, roots: [observed]) { observed.state = .idle }
    },
    // https://tanaschita.com/20221003-memory-management-for-async-await/ (a completion closure kept
    // in a property), kept as a `Result`'s success payload.
    Case(
      name: "a Result holding a closure that captures the owner", source: .articles,
      expected: .path("Observed.result.success (a closure that captures it)")
    ) { leaks in
      let observed = Observed()
      observed.result = .success(leaks ? { _ = observed.userInfo } : { [weak observed] in _ = observed })
      return Built(target: observed, roots: [observed]) { observed.result = nil }
    },
    // https://forums.swift.org/t/task-async-retain-cycles/49585 and
    // https://dimillian.medium.com/use-task-with-asyncstream-and-avoid-retain-cycle-4c92dddf30ef: a
    // `Task` kept in a property whose operation, suspended on an AsyncStream, uses the object.
    Case(
      name: "a Task kept by the object its operation uses", source: .articles,
      expected: .missed("a Task's operation lives in its async context, which has no field records")
    ) { leaks in
      let owner = TaskOwner()
      let (stream, continuation) = AsyncStream<Int>.makeStream()
      if leaks {
        owner.task = Task {
          for await _ in stream {}
          _ = owner
        }
      } else {
        owner.task = Task { [weak owner] in
          for await _ in stream {}
          _ = owner
        }
      }
      return Built(target: owner, roots: [owner]) {
        continuation.finish()
        owner.task = nil
      }
    },
  ]
}
