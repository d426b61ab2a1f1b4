// swift-tools-version: 6.0
// The Texture tutorial's rainforest app, built with Silk: a scrolling grid of animal cards,
// each a rasterized node with a blurred background, a photo, a gradient, a title and a text.
// Build and run:  swift run Rainforest [--backend headless --screenshot rainforest.png]
import PackageDescription

let package = Package(
    name: "Rainforest",
    dependencies: [.package(name: "Silk", path: "../..")],
    targets: [
        .executableTarget(name: "Rainforest", dependencies: [.product(name: "Silk", package: "Silk")]),
    ],
    swiftLanguageModes: [.v6]
)
