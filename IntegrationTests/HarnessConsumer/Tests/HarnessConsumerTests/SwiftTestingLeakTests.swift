import PresentationModelTesting
import Testing

/// A document that keeps itself alive: its autosave closure captures it strongly.
final class LeakyDocument {
  var autosave: (() -> Void)?
}

@Suite struct SwiftTestingLeakTests {
  @Test(.detectsLeaks(timeout: .milliseconds(200)))
  func documentIsReleased() {
    let document = LeakyDocument()
    document.autosave = { _ = document }
    trackForLeaks(document)  // harness-consumer: swift-testing leak line
  }

  @Test(.detectsLeaks) func releasedDocumentPasses() {
    let document = LeakyDocument()
    document.autosave = { [weak document] in _ = document }
    trackForLeaks(document)
  }
}
