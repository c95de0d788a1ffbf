import PresentationModelTesting
import XCTest

/// A view model whose delegate holds it strongly back.
final class LeakyViewModel {
  var delegate: LeakyCoordinator?
}

final class LeakyCoordinator {
  let viewModel = LeakyViewModel()
}

final class XCTestLeakTests: XCTestCase {
  func testViewModelIsReleased() {
    let coordinator = LeakyCoordinator()
    coordinator.viewModel.delegate = coordinator
    trackForLeaks(coordinator.viewModel, timeout: .milliseconds(200))  // harness-consumer: xctest leak line
  }

  func testReleasedViewModelPasses() {
    let coordinator = LeakyCoordinator()
    trackForLeaks(coordinator.viewModel)
  }
}
