// swift-tools-version: 6.2
// The benchmark of Docs/Performance.md, a package of its own (as swift-collections keeps its
// Benchmarks/), so that no user's package graph or scheme list sees it. It depends on
// PresentationModel by path and uses its products only, plus what PresentationModelDiagnostics
// offers as `@_spi(Benchmarks)` (every-object scopes and the heap scan's figures; not API).
//
//   swift run -c release --package-path Benchmarks presentation-bench --help
import PackageDescription

let package = Package(
  name: "PresentationModelBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .executable(name: "presentation-bench", targets: ["presentation-bench"])
  ],
  // Named, so that the products below find it whatever the checkout's folder is called.
  dependencies: [.package(name: "PresentationModel", path: "..")],
  targets: [
    // One loop of retain + release through the runtime's public entry points (every-object
    // tracking's retain/release figure).
    .target(name: "BenchRuntimeCalls"),
    .executableTarget(
      name: "presentation-bench",
      dependencies: [
        .product(name: "PresentationModel", package: "PresentationModel"),
        .product(name: "PresentationModelDiagnostics", package: "PresentationModel"),
        .product(name: "PresentationModelTesting", package: "PresentationModel"),
        "BenchRuntimeCalls",
      ],
      // Built the same strict way as the library's targets.
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
