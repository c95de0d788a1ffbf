// swift-tools-version: 6.1
// An outside package that depends on PresentationModel by path and uses only its public names.
// .ci/core-consumer-check.sh lays it out beside a link named PresentationModel to this checkout.
import PackageDescription

let package = Package(
  name: "CoreConsumer",
  dependencies: [.package(path: "../PresentationModel")],
  targets: [
    .executableTarget(
      name: "core-consumer",
      dependencies: [
        .product(name: "PresentationModel", package: "PresentationModel"),
        .product(name: "PresentationModelTesting", package: "PresentationModel"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
