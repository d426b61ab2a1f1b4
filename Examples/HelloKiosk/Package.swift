// swift-tools-version: 6.0
// The smallest Silk app: a window, a text node and a button that changes it.
// Build and run:  swift run HelloKiosk [--backend headless --screenshot hello.png]
import PackageDescription

let package = Package(
    name: "HelloKiosk",
    dependencies: [.package(name: "Silk", path: "../..")],
    targets: [
        .executableTarget(name: "HelloKiosk", dependencies: [.product(name: "Silk", package: "Silk")]),
    ],
    swiftLanguageModes: [.v6]
)
