// swift-tools-version: 6.2
// An app-like package that uses PresentationModelDiagnostics, as a debug build would: no target
// imports XCTest or Testing. .ci/diagnostics-consumer-check.sh lays it out beside a link named
// PresentationModel to this checkout and checks that the built program links no test framework.
import PackageDescription

let package = Package(
  name: "DiagnosticsConsumer",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(path: "../PresentationModel")],
  targets: [
    .executableTarget(
      name: "diagnostics-consumer",
      dependencies: [.product(name: "PresentationModelDiagnostics", package: "PresentationModel")]
    )
  ],
  swiftLanguageModes: [.v6]
)
