// swift-tools-version: 6.0
// Silk: an asynchronous-display UI framework for Wayland and the Linux framebuffer.
// Layers (bottom to top) — a target may only depend on targets listed before it:
//   C* bindings → SilkGeometry → SilkRaster, SilkLayout → … → silk (CLI)
import PackageDescription

/// One system-library target per C library, found through pkg-config.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/CBindings/\(name)", pkgConfig: pkgConfig,
                   providers: [.apt(apt)])
}

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Silk",
    products: [
        .library(name: "SilkGeometry", targets: ["SilkGeometry"]),
        .library(name: "SilkRaster", targets: ["SilkRaster"]),
        .library(name: "SilkLayout", targets: ["SilkLayout"]),
        .library(name: "SilkRunLoop", targets: ["SilkRunLoop"]),
        .library(name: "SilkRender", targets: ["SilkRender"]),
        .library(name: "SilkNodes", targets: ["SilkNodes"]),
        .library(name: "SilkFramebuffer", targets: ["SilkFramebuffer"]),
        .library(name: "SilkWayland", targets: ["SilkWayland"]),
        .library(name: "SilkNetworkImage", targets: ["SilkNetworkImage"]),
        .library(name: "SilkDemoServer", targets: ["SilkDemoServer"]),
        .library(name: "Silk", targets: ["Silk"]),
        .library(name: "SilkBench", targets: ["SilkBench"]),
        .executable(name: "silk", targets: ["silk"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // MARK: C bindings (the only targets that touch C)
        systemLibrary("CPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype6-dev"]),
        systemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", apt: ["libharfbuzz-dev"]),
        systemLibrary("CFontconfig", pkgConfig: "fontconfig", apt: ["libfontconfig-dev"]),
        systemLibrary("CFribidi", pkgConfig: "fribidi", apt: ["libfribidi-dev"]),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        systemLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: ["libturbojpeg0-dev"]),
        systemLibrary("CWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        systemLibrary("CXKBCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        systemLibrary("CWaylandCursor", pkgConfig: "wayland-cursor", apt: ["libwayland-dev"]),
        // wayland-scanner output for protocols/*.xml, committed (scripts/generate-protocols.sh).
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"], path: "Sources/CBindings/CWaylandProtocols"),
        .target(name: "CSilkLinux", path: "Sources/CBindings/CSilkLinux"),

        // MARK: Swift layers
        .target(name: "SilkGeometry", swiftSettings: strict),
        .target(name: "SilkLayout", dependencies: ["SilkGeometry"], swiftSettings: strict),
        .target(name: "SilkRaster",
                dependencies: ["SilkGeometry", "CPixman", "CFreeType", "CHarfBuzz", "CFontconfig",
                               "CFribidi", "CPNG", "CTurboJPEG"],
                swiftSettings: strict),
        .target(name: "SilkRunLoop", dependencies: ["CSilkLinux"], swiftSettings: strict),
        // xkbcommon-compose (dead keys), shared by the Wayland seat and the evdev keyboard.
        .target(name: "SilkXKB", dependencies: ["CXKBCommon"], swiftSettings: strict),
        .target(name: "SilkRender", dependencies: ["SilkGeometry", "SilkRaster", "CSilkLinux"], swiftSettings: strict),
        .target(name: "SilkNodes", dependencies: ["SilkGeometry", "SilkRaster", "SilkLayout", "SilkRunLoop", "SilkRender"],
                swiftSettings: strict),
        // The framebuffer presenter and evdev input (uses SilkNodes only for `InputEvent` values).
        .target(name: "SilkFramebuffer",
                dependencies: ["SilkGeometry", "SilkRaster", "SilkRunLoop", "SilkRender", "SilkNodes",
                               "CSilkLinux", "CXKBCommon", "SilkXKB"],
                swiftSettings: strict),
        .target(name: "SilkWayland",
                dependencies: ["SilkGeometry", "SilkRaster", "SilkRunLoop", "SilkRender", "SilkNodes",
                               "CWaylandClient", "CWaylandProtocols", "CWaylandCursor", "CXKBCommon", "CSilkLinux", "SilkXKB"],
                swiftSettings: strict),
        .target(name: "Silk", dependencies: ["SilkGeometry", "SilkRaster", "SilkRunLoop", "SilkRender", "SilkNodes",
                                             "SilkFramebuffer", "SilkWayland"],
                swiftSettings: strict),
        // Images from http(s) URLs: URLSession (FoundationNetworking, so libcurl) lives here, above
        // the nodes, so the core modules stay free of it.
        .target(name: "SilkNetworkImage", dependencies: ["SilkGeometry", "SilkRaster", "SilkNodes"], swiftSettings: strict),
        // A small HTTP server on POSIX sockets serving generated feed JSON and photos, with fault
        // options (delay, stall, close mid-body, status, garbage): the feed demo and network tests.
        .target(name: "SilkDemoServer", dependencies: ["SilkGeometry", "SilkRaster"], swiftSettings: strict),
        .target(name: "SilkScenes", dependencies: ["SilkRaster", "SilkRender", "SilkLayout", "SilkNodes",
                                                   "SilkNetworkImage", "SilkDemoServer"], swiftSettings: strict),
        // The benchmark: scenes, the frame runner, report, table and plot (`silk bench`).
        .target(name: "SilkBench", dependencies: ["SilkGeometry", "SilkRaster", "SilkLayout", "SilkRender", "SilkNodes", "SilkScenes", "SilkDemoServer"],
                swiftSettings: strict),
        .executableTarget(name: "silk",
                          dependencies: ["Silk", "SilkRaster", "SilkLayout", "SilkScenes", "SilkBench", "SilkDemoServer", "SilkNetworkImage",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: strict),

        // MARK: Tests
        .target(name: "SilkTestSupport", dependencies: ["SilkRaster"], path: "Tests/SilkTestSupport",
                swiftSettings: strict),
        .testTarget(name: "SilkGeometryTests", dependencies: ["SilkGeometry"], swiftSettings: strict),
        .testTarget(name: "SilkLayoutTests", dependencies: ["SilkLayout"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "SilkRunLoopTests", dependencies: ["SilkRunLoop"], swiftSettings: strict),
        .testTarget(name: "SilkTests", dependencies: ["Silk", "SilkNodes", "SilkRunLoop", "SilkRender", "SilkLayout"],
                    swiftSettings: strict),
        .testTarget(name: "SilkNodesTests", dependencies: ["SilkNodes", "SilkTestSupport", "SilkScenes", "SilkDemoServer", "SilkNetworkImage"], swiftSettings: strict),
        .testTarget(name: "SilkFramebufferTests", dependencies: ["SilkFramebuffer", "SilkXKB", "SilkTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "SilkRenderTests", dependencies: ["SilkRender", "SilkTestSupport"], swiftSettings: strict),
        .testTarget(name: "SilkWaylandTests", dependencies: ["SilkWayland", "SilkRender", "SilkRaster"], swiftSettings: strict),
        .testTarget(name: "SilkNetworkImageTests",
                    dependencies: ["SilkNetworkImage", "SilkDemoServer", "SilkNodes", "SilkRaster", "SilkScenes", "SilkTestSupport"],
                    resources: [.copy("Golden")], swiftSettings: strict),
        .testTarget(name: "SilkRasterTests", dependencies: ["SilkRaster", "SilkScenes", "SilkTestSupport"],
                    resources: [.copy("Golden"), .copy("Inputs")], swiftSettings: strict),

        .testTarget(name: "SilkBenchTests", dependencies: ["SilkBench", "SilkRender", "SilkRaster", "SilkGeometry"],
                    swiftSettings: strict),

        // MARK: Plugins
        // `swift package generate-wayland-protocols`: reruns wayland-scanner (scripts/generate-protocols.sh).
        .plugin(name: "GenerateWaylandProtocols",
                capability: .command(intent: .custom(verb: "generate-wayland-protocols",
                                                     description: "Regenerate Sources/CBindings/CWaylandProtocols from protocols/*.xml"),
                                     permissions: [.writeToPackageDirectory(reason: "writes the generated protocol C files")])),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: Fuzzers (only with SILK_FUZZ=1; `make fuzz`, docs/reliability.md)
// Each fuzzer is an executable whose `main` hands its test function to libFuzzer's
// `LLVMFuzzerRunDriver` (linked by `-sanitize=fuzzer`). Without the sanitizer flags these targets
// would not link, so ordinary builds never see them.
if Context.environment["SILK_FUZZ"] == "1" {
    let fuzzers: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzPNG", ["FuzzSupport", "SilkRaster"]),
        ("FuzzJPEG", ["FuzzSupport", "SilkRaster"]),
        ("FuzzText", ["FuzzSupport", "SilkGeometry", "SilkRaster", "SilkScenes"]),
        ("FuzzLayout", ["FuzzSupport", "SilkLayout"]),
        ("FuzzEvdev", ["FuzzSupport", "SilkGeometry", "SilkFramebuffer"]),
        ("FuzzFeed", ["FuzzSupport", "SilkScenes"]),
        ("FuzzRequest", ["FuzzSupport", "SilkDemoServer"]),
    ]
    package.targets.append(.target(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Sources/FuzzSupport",
                                   swiftSettings: strict))
    for fuzzer in fuzzers {
        package.targets.append(.executableTarget(name: fuzzer.name, dependencies: fuzzer.dependencies,
                                                 path: "Fuzz/Sources/\(fuzzer.name)",
                                                 swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])]))
        package.products.append(.executable(name: fuzzer.name, targets: [fuzzer.name]))
    }
}
