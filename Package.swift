// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "PresentationModel",
  // Synchronization's Atomic and Swift Testing's exit tests and traits set the OS floor; `weak let` sets
  // the tools version (Swift 6.2).
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "PresentationModel", targets: ["PresentationModel"]),
    // Instance budgets and leak tracking for an app's debug build: imports no test framework.
    .library(name: "PresentationModelDiagnostics", targets: ["PresentationModelDiagnostics"]),
    .library(name: "PresentationModelTesting", targets: ["PresentationModelTesting"]),
    // The demo, the README's first command. The benchmark is a package of its own, Benchmarks/.
    .executable(name: "presentation-demo", targets: ["presentation-demo"]),
  ],
  targets: [
    // Reads closure captures and stored properties from the Swift runtime's metadata: a tool used by
    // the core's debug-build registration check and by the leak report, not part of any product's API.
    .target(name: "PresentationCaptureReading"),
    // The allocation hook behind `.detectsLeaks(.everyObject)` (C: it runs inside the runtime's
    // allocation entry point and retain adapter): not part of any product's API.
    .target(
      name: "PresentationAllocationTracking",
      // The recognised runtime code: a generated table that Runtime.c includes, not compiled alone.
      exclude: ["RecognisedCode.inc"],
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    .target(name: "PresentationModel", dependencies: ["PresentationCaptureReading"]),
    .target(
      name: "PresentationModelDiagnostics",
      dependencies: ["PresentationModel", "PresentationCaptureReading", "PresentationAllocationTracking"]),
    .target(name: "PresentationModelTesting", dependencies: ["PresentationModel", "PresentationModelDiagnostics"]),
    // What the test targets share (locked logs and boxes, the seeded generator, thread runners): not a
    // product, so no outside package can depend on it.
    .target(name: "PresentationTestSupport", dependencies: ["PresentationModel"], path: "Tests/Support"),
    .testTarget(
      name: "PresentationModelTests",
      dependencies: [
        "PresentationModel", "PresentationModelTesting", "PresentationTestSupport", "PresentationCaptureReading",
      ]),
    // The walk's corpus also drives the public leak harness: the diagnostics and the centers.
    .testTarget(
      name: "PresentationCaptureReadingTests",
      dependencies: ["PresentationCaptureReading", "PresentationModel", "PresentationModelDiagnostics"]),
    .testTarget(
      name: "PresentationModelDiagnosticsTests",
      dependencies: ["PresentationModelDiagnostics", "PresentationAllocationTracking", "PresentationTestSupport"]),
    .testTarget(name: "PresentationModelTestingTests", dependencies: ["PresentationModelTesting"]),
    // Leaks from other projects' tests and articles, written with nothing annotated, each with a
    // correct twin, under the leak trait's every-object level.
    .testTarget(
      name: "EveryObjectCorpusTests", dependencies: ["PresentationModel", "PresentationModelTesting"]),
    // The four example scenarios, built on the public API only.
    .target(name: "TouchTrackerExample", dependencies: ["PresentationModel"], path: "Sources/Examples/TouchTracker"),
    .target(name: "SettingsMenuExample", dependencies: ["PresentationModel"], path: "Sources/Examples/SettingsMenu"),
    .target(name: "NodeEditorExample", dependencies: ["PresentationModel"], path: "Sources/Examples/NodeEditor"),
    .target(name: "SyncStatusExample", dependencies: ["PresentationModel"], path: "Sources/Examples/SyncStatus"),
    .executableTarget(
      name: "presentation-demo",
      dependencies: [
        "PresentationModel", "PresentationModelDiagnostics", "TouchTrackerExample", "SettingsMenuExample",
        "NodeEditorExample", "SyncStatusExample",
      ]),
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "TouchTrackerExample", "SettingsMenuExample", "NodeEditorExample", "SyncStatusExample",
        "PresentationModelTesting", "PresentationTestSupport",
      ]),
    .testTarget(name: "PresentationDemoTests", dependencies: ["presentation-demo"]),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: ["PresentationModel", "PresentationModelTesting", "PresentationTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)

// Every target is built the same strict way.
for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
