// A test-only stand-in for Apple's AppKit, declaring exactly the signatures the AppKit code of this
// package uses (Sources/PresentationModel/Platform/FadableView.swift), as Apple's documentation
// (developer.apple.com/documentation/appkit) gives them. .ci/check-uikit-faces.sh compiles it as
// module `AppKit` so that file type-checks on Linux. Nothing here runs: every body traps. Add a
// declaration only when AppKit code starts using it, with Apple's exact spelling and isolation.
// Availability is left out.
@_exported import Foundation

@MainActor
open class NSResponder: NSObject {}

@MainActor
open class NSView: NSResponder {
  open var alphaValue: CGFloat {
    get { fatalError("AppKit stub") }
    set { fatalError("AppKit stub") }
  }
  open func removeFromSuperview() { fatalError("AppKit stub") }
}
