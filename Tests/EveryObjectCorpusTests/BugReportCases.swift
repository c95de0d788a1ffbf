import Foundation
import PresentationModelTesting
import Testing

/// Leaks fixed in published Swift libraries (each case names the pull request or issue), and cycles
/// from FBRetainCycleDetector's test suite that only a check of every object sees: the object a
/// test would have tracked is freed, and what it made is not.
enum BugReports {
  // AudioKit/AudioKit#2697 ("Fix retain cycle in BaseTap": "Passing instance method of Base Tap to a
  // closure parameter implicitly retains it. Break the cycle by capturing self weakly."): a tap
  // installs its own method as the node's tap block, and the node is the tap's.
  final class AudioNode {
    private(set) var tapBlock: (([Float]) -> Void)?
    func installTap(block: @escaping ([Float]) -> Void) { tapBlock = block }
    func removeTap() { tapBlock = nil }
  }

  final class BaseTap {
    let node = AudioNode()
    private(set) var buffers = 0
    func start(weakly: Bool) {
      if weakly {
        node.installTap { [weak self] buffer in self?.handleTapBlock(buffer) }
      } else {
        node.installTap(block: handleTapBlock)
      }
    }
    private func handleTapBlock(_ buffer: [Float]) { buffers += 1 }
  }

  // RedMadRobot/input-mask-ios#10 ("Mark MaskedTextFieldDelegate.listener as weak": "this strongly
  // holds the view controller/listener in memory"): a view controller owns the masked delegate and
  // is its listener.
  protocol MaskedTextFieldDelegateListener: AnyObject {
    func textField(didFillMandatoryCharacters complete: Bool)
  }

  final class MaskedTextFieldDelegate {
    var listener: (any MaskedTextFieldDelegateListener)?
  }

  final class WeakMaskedTextFieldDelegate {
    weak var listener: (any MaskedTextFieldDelegateListener)?
  }

  final class PhoneNumberViewController: MaskedTextFieldDelegateListener {
    let maskedDelegate = MaskedTextFieldDelegate()
    private(set) var isComplete = false
    func viewDidLoad() { maskedDelegate.listener = self }
    func textField(didFillMandatoryCharacters complete: Bool) { isComplete = complete }
  }

  final class FixedPhoneNumberViewController: MaskedTextFieldDelegateListener {
    let maskedDelegate = WeakMaskedTextFieldDelegate()
    private(set) var isComplete = false
    func viewDidLoad() { maskedDelegate.listener = self }
    func textField(didFillMandatoryCharacters complete: Bool) { isComplete = complete }
  }

  // hyperoslo/Whisper#93 ("Remove strong reference of navigationController": "WhisperFactory
  // shouldn't keep strong reference to navigation controller, because it'll cause child view
  // controllers of that navigation controller will never be deallocated"): the library's factory is
  // a global that keeps the last navigation controller it showed a message in.
  final class NavigationController {
    var viewControllers: [ScreenController] = []
  }

  final class ScreenController {
    let title: String
    init(title: String) { self.title = title }
  }

  final class WhisperFactory: @unchecked Sendable {
    // @unchecked Sendable: `navigationController` is only touched under `lock`.
    private let lock = NSLock()
    private var navigationController: NavigationController?
    private weak var weakNavigationController: NavigationController?
    func show(in navigationController: NavigationController, keepingItStrongly: Bool) {
      lock.withLock {
        if keepingItStrongly {
          self.navigationController = navigationController
        } else {
          self.weakNavigationController = navigationController
        }
      }
    }
    func hide() {
      let released = lock.withLock {
        defer { navigationController = nil }
        return navigationController
      }
      withExtendedLifetime(released) {}  // released after unlocking
    }
  }

  static let whisperFactory = WhisperFactory()

  // tristanhimmelman/HidingNavigationBar#26 ("Strong Reference Cycle": calling
  // `HidingNavigationBarManager(viewController: self, scrollView: scrollView)` "does not allow that
  // view controller to deallocate"): the manager the controller keeps holds the controller.
  final class ScrollView {}

  final class HidingNavigationBarManager {
    let viewController: AnyObject
    let scrollView: ScrollView
    init(viewController: AnyObject, scrollView: ScrollView) {
      self.viewController = viewController
      self.scrollView = scrollView
    }
  }

  final class FixedHidingNavigationBarManager {
    unowned let viewController: AnyObject
    let scrollView: ScrollView
    init(viewController: AnyObject, scrollView: ScrollView) {
      self.viewController = viewController
      self.scrollView = scrollView
    }
  }

  final class FeedViewController {
    let scrollView = ScrollView()
    var hidingNavBarManager: HidingNavigationBarManager?
    var fixedHidingNavBarManager: FixedHidingNavigationBarManager?
    func viewDidLoad(fixed: Bool) {
      if fixed {
        fixedHidingNavBarManager = FixedHidingNavigationBarManager(viewController: self, scrollView: scrollView)
      } else {
        hidingNavBarManager = HidingNavigationBarManager(viewController: self, scrollView: scrollView)
      }
    }
  }

  // FBRetainCycleDetector, FBRetainCycleDetectorTests.mm, testThatDetectorWillFindCycleBetweenThreeElements.
  final class Element {
    var next: Element?
    weak var weakNext: Element?
  }

  // FBRetainCycleDetectorTests.mm, testThatDetectorWillFindCycleIfCandidateIsNotPartOfTheCycle: the
  // candidate (what a test would track) points into a cycle it is not part of. The candidate is
  // freed; the two objects of the cycle are not, and only a check of every object made sees them.
  final class Candidate {
    var first: Element?
  }
}

@Suite(.everyObjectRuns) struct BugReportCases {
  typealias Leak = Corpus.Leak

  @Test("Fails on purpose: a method passed as a tap block to a node the tap owns")
  func methodPassedAsATapBlock() async throws {
    try await Corpus.expectLeak([
      .object(BugReports.BaseTap.self, heldBy: "AudioNode.tapBlock|BaseTap.node.tapBlock"),
      .also(BugReports.AudioNode.self, heldBy: "BaseTap.node"),
    ]) {
      let tap = BugReports.BaseTap()
      tap.start(weakly: false)
      tap.node.tapBlock?([0.5])
      return Leak(tap) { [weak tap] in tap?.node.removeTap() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func tapBlockCapturingTheTapWeakly() async {
    let tap = BugReports.BaseTap()
    tap.start(weakly: true)
    tap.node.tapBlock?([0.5])
  }

  @Test("Fails on purpose: a strong listener on the masked text field delegate")
  func strongListenerOnTheMaskedDelegate() async throws {
    try await Corpus.expectLeak([
      .object(
        BugReports.PhoneNumberViewController.self,
        heldBy: "MaskedTextFieldDelegate.listener|PhoneNumberViewController.maskedDelegate.listener"),
      .also(BugReports.MaskedTextFieldDelegate.self, heldBy: "PhoneNumberViewController.maskedDelegate"),
    ]) {
      let controller = BugReports.PhoneNumberViewController()
      controller.viewDidLoad()
      return Leak(controller) { [weak controller] in controller?.maskedDelegate.listener = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func weakListenerOnTheMaskedDelegate() async {
    let controller = BugReports.FixedPhoneNumberViewController()
    controller.viewDidLoad()
  }

  @Test("Fails on purpose: a global factory keeps the navigation controller")
  func globalFactoryKeepsTheNavigationController() async throws {
    // The app made its singleton before this test, as an app does at launch (when the test makes it,
    // it and what its initialiser made are the singleton's own, not leaks: EveryObjectTraitTests
    // covers that), so the case does not depend on which test touches it first.
    _ = BugReports.whisperFactory
    try await Corpus.expectLeak([
      .object(BugReports.NavigationController.self, heldBy: "BugReports.whisperFactory"),
      .also(BugReports.ScreenController.self, heldBy: "NavigationController.viewControllers[0]"),
    ]) {
      let navigation = BugReports.NavigationController()
      navigation.viewControllers = [BugReports.ScreenController(title: "Inbox")]
      BugReports.whisperFactory.show(in: navigation, keepingItStrongly: true)
      return Leak(navigation) { BugReports.whisperFactory.hide() }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func globalFactoryKeepsTheNavigationControllerWeakly() async {
    let navigation = BugReports.NavigationController()
    navigation.viewControllers = [BugReports.ScreenController(title: "Inbox")]
    BugReports.whisperFactory.show(in: navigation, keepingItStrongly: false)
  }

  @Test("Fails on purpose: a manager the controller keeps holds the controller")
  func managerHoldsItsController() async throws {
    try await Corpus.expectLeak([
      .object(
        BugReports.FeedViewController.self,
        heldBy: "HidingNavigationBarManager.viewController|hidingNavBarManager.viewController"),
      .also(BugReports.HidingNavigationBarManager.self, heldBy: "FeedViewController.hidingNavBarManager"),
      .also(BugReports.ScrollView.self, heldBy: "FeedViewController.scrollView"),
    ]) {
      let controller = BugReports.FeedViewController()
      controller.viewDidLoad(fixed: false)
      return Leak(controller) { [weak controller] in controller?.hidingNavBarManager = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func managerHoldsItsControllerUnowned() async {
    let controller = BugReports.FeedViewController()
    controller.viewDidLoad(fixed: true)
  }

  @Test("Fails on purpose: three elements in a ring")
  func threeElementsInARing() async throws {
    try await Corpus.expectLeak([
      .object(BugReports.Element.self, heldBy: "Element.next"),
      .also(BugReports.Element.self, heldBy: "Element.next"),
      .also(BugReports.Element.self, heldBy: "Element.next"),
    ]) {
      let (a, b, c) = (BugReports.Element(), BugReports.Element(), BugReports.Element())
      a.next = b
      b.next = c
      c.next = a
      return Leak(a, b, c) { [weak a] in a?.next = nil }
    }
  }

  @Test(.detectsLeaks(.everyObject)) func threeElementsInAWeakRing() async {
    let (a, b, c) = (BugReports.Element(), BugReports.Element(), BugReports.Element())
    a.next = b
    b.next = c
    c.weakNext = a
  }

  @Test("Fails on purpose: a freed candidate leaves the cycle it pointed into")
  func cycleBehindAFreedCandidate() async throws {
    let candidate = WeakBox()
    try await Corpus.expectLeak([
      .object(BugReports.Element.self, heldBy: "Element.next"),
      .also(BugReports.Element.self, heldBy: "Element.next"),
    ]) {
      let made = BugReports.Candidate()
      let (first, second) = (BugReports.Element(), BugReports.Element())
      first.next = second
      second.next = first
      made.first = first
      candidate.object = made
      return Leak(first, second) { [weak first] in first?.next = nil }
    }
    #expect(candidate.object == nil, "The candidate itself was freed: tracking it would have found nothing")
  }

  @Test(.detectsLeaks(.everyObject)) func candidatePointingIntoAWeakPair() async {
    let candidate = BugReports.Candidate()
    let (first, second) = (BugReports.Element(), BugReports.Element())
    first.next = second
    second.weakNext = first
    candidate.first = first
  }
}
