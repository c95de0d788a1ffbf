// swift-tools-version: 6.1
// An outside package that uses PresentationModelTesting the way a customer would: by path.
// Its tests leak on purpose; .ci/harness-consumer-check.sh expects them to FAIL with the right lines.
import PackageDescription

let package = Package(
  name: "HarnessConsumer",
  // `name:` keeps the product reference below valid whatever the checkout's directory is called.
  dependencies: [.package(name: "PresentationModel", path: "../..")],
  targets: [
    .testTarget(
      name: "HarnessConsumerTests",
      dependencies: [.product(name: "PresentationModelTesting", package: "PresentationModel")]
    )
  ],
  swiftLanguageModes: [.v6]
)
