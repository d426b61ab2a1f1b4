// swift-tools-version: 6.0
// Silk: an asynchronous-display UI framework for Wayland and the Linux framebuffer.
// Layers (bottom to top) — a target may only depend on targets listed before it:
//   C* bindings, SilkSystem → SilkGeometry → SilkRaster, SilkLayout → … → Silk; Tools/ on top
import PackageDescription

/// One system-library target per C library, found through pkg-config.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/CBindings/\(name)", pkgConfig: pkgConfig,
                   providers: [.apt(apt)])
}

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")

let package = Package(
    name: "Silk",
    products: [
        .library(name: "SilkSystem", targets: ["SilkSystem"]),
        .library(name: "SilkGeometry", targets: ["SilkGeometry"]),
        .library(name: "SilkRaster", targets: ["SilkRaster"]),
        .library(name: "SilkLayout", targets: ["SilkLayout"]),
        .library(name: "SilkRunLoop", targets: ["SilkRunLoop"]),
        .library(name: "SilkInput", targets: ["SilkInput"]),
        .library(name: "SilkRender", targets: ["SilkRender"]),
        .library(name: "SilkNodes", targets: ["SilkNodes"]),
        .library(name: "SilkFramebuffer", targets: ["SilkFramebuffer"]),
        .library(name: "SilkWayland", targets: ["SilkWayland"]),
        .library(name: "SilkKMS", targets: ["SilkKMS"]),
        .library(name: "SilkNetworkImage", targets: ["SilkNetworkImage"]),
        .library(name: "SilkVideo", targets: ["SilkVideo"]),
        .library(name: "Silk", targets: ["Silk"]),
        // Tools/ (the CLI, benchmark, demo scenes, demo server, corpus evaluator) are not
        // library products: an app never links them.
        .executable(name: "silk", targets: ["silk"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Library diagnostics go through swift-log's `Logger`, so an app routes them where it wants.
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // `make docs`: `swift package generate-documentation` (DocC); no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // MARK: C bindings (the only targets that touch C)
        systemLibrary("CPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),
        systemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", apt: ["libharfbuzz-dev"]),
        systemLibrary("CFontconfig", pkgConfig: "fontconfig", apt: ["libfontconfig-dev"]),
        systemLibrary("CFribidi", pkgConfig: "fribidi", apt: ["libfribidi-dev"]),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        systemLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: ["libturbojpeg0-dev"]),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
        // GIF and WebP (still and animated; issue 18). giflib ships no pkg-config file.
        .systemLibrary(name: "CGIF", path: "Sources/CBindings/CGIF", providers: [.apt(["libgif-dev"])]),
        systemLibrary("CWebP", pkgConfig: "libwebpdemux", apt: ["libwebp-dev"]),
        systemLibrary("CWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        systemLibrary("CXKBCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        systemLibrary("CWaylandCursor", pkgConfig: "wayland-cursor", apt: ["libwayland-dev"]),
        // libdrm: the KMS presenter's modesetting, dumb buffers and page flips (SilkKMS).
        systemLibrary("CDRM", pkgConfig: "libdrm", apt: ["libdrm-dev"]),
        // libseat: the KMS backend opens the card and input devices through seatd or logind.
        systemLibrary("CSeat", pkgConfig: "libseat", apt: ["libseat-dev"]),
        // libinput: the console backends' optional input stack (`--input libinput`), beside Silk's own evdev reader.
        systemLibrary("CLibinput", pkgConfig: "libinput", apt: ["libinput-dev"]),
        // libinput's va_list log handler, formatted in C so no va_list type reaches Swift.
        .target(name: "CSilkLibinput", dependencies: ["CLibinput"], path: "Sources/CBindings/CSilkLibinput"),
        // wayland-scanner output for protocols/*.xml, committed (scripts/generate-protocols.sh).
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"], path: "Sources/CBindings/CWaylandProtocols"),
        // SHA-256 for the image cache's file names (SilkNetworkImage).
        systemLibrary("CCrypto", pkgConfig: "libcrypto", apt: ["libssl-dev"]),
        .target(name: "CSilkLinux", path: "Sources/CBindings/CSilkLinux"),
        // espeak-ng for talk-back, loaded with dlopen (no build or link dependency).
        .target(name: "CSilkSpeech", path: "Sources/CBindings/CSilkSpeech"),
        // SilkRaster's PNG writer: the libpng write sequence (setjmp included) in one C function.
        .target(name: "CSilkPNG", dependencies: ["CPNG"], path: "Sources/CBindings/CSilkPNG"),
        // SilkRaster's solid-colour OVER, eight pixels at a time where the CPU has AVX2 (pixman's
        // own paths elsewhere): the blend of translucent layer fills (docs/benchmark.md).
        .target(name: "CSilkBlend", path: "Sources/CBindings/CSilkBlend"),
        // Vector paths (Canvas fill/stroke) draw with cairo straight into Silk's pixman bitmaps.
        systemLibrary("CCairo", pkgConfig: "cairo", apt: ["libcairo2-dev"]),
        // SVG images (SVGImage, ImageNode) render with librsvg through cairo.
        systemLibrary("CRsvg", pkgConfig: "librsvg-2.0", apt: ["librsvg2-dev"]),
        // libdbus (CDBus): the AT-SPI2 accessibility bridge (SilkAccessibility).
        systemLibrary("CDBus", pkgConfig: "dbus-1", apt: ["libdbus-1-dev"]),
        // Lottie animations (LottieAnimation, ImageNode) render with rlottie.
        systemLibrary("CRlottie", pkgConfig: "rlottie", apt: ["librlottie-dev"]),
        // Video (SilkVideo's VideoNode): GStreamer's playbin and appsink; the pipeline glue is C
        // (GLib's variadic setters, GStreamer's macros) in CSilkGStreamer.
        systemLibrary("CGStreamer", pkgConfig: "gstreamer-app-1.0",
                      apt: ["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"]),
        .target(name: "CSilkGStreamer", dependencies: ["CGStreamer"], path: "Sources/CBindings/CSilkGStreamer",
                linkerSettings: [.linkedLibrary("gstpbutils-1.0"), .linkedLibrary("gstvideo-1.0")]),

        // MARK: Swift layers
        // The base of the stack (Glibc only): the package's one lock type and its `systemCall`.
        .target(name: "SilkSystem", swiftSettings: strict),
        .target(name: "SilkGeometry", swiftSettings: strict),
        .target(name: "SilkLayout", dependencies: ["SilkSystem", "SilkGeometry"], swiftSettings: strict),
        .target(name: "SilkRaster",
                dependencies: ["SilkSystem", "SilkGeometry", "CPixman", "CFreeType", "CHarfBuzz", "CFontconfig",
                               "CFribidi", "CPNG", "CTurboJPEG", "CCairo", "CRsvg", "CGIF", "CWebP", "CSilkPNG", "CSilkBlend",
                               "CRlottie"],
                swiftSettings: strict),
        .target(name: "SilkRunLoop", dependencies: ["SilkSystem", "CSilkLinux"], swiftSettings: strict),
        // Input below the presenters (LVGL's indev): event values, the xkbcommon keyboard and
        // compose wrapper shared by the Wayland seat and evdev, clipboard and keyboard presence,
        // the kinetic-scroll model.
        .target(name: "SilkInput", dependencies: ["SilkSystem", "SilkGeometry", "CXKBCommon"], swiftSettings: strict),
        .target(name: "SilkRender", dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkInput", "SilkRunLoop", "CSilkLinux", logging],
                swiftSettings: strict),
        .target(name: "SilkNodes", dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkLayout", "SilkRunLoop", "SilkInput", "SilkRender", logging],
                swiftSettings: strict),
        // Presenters know nothing of nodes: they report to their window through
        // `PresenterEventHandler` (SilkRender) with SilkInput's values.
        .target(name: "SilkFramebuffer",
                dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkRunLoop", "SilkInput", "SilkRender", "CSilkLinux", "CXKBCommon",
                               "CLibinput", "CSilkLibinput", logging],
                swiftSettings: strict),
        .target(name: "SilkWayland",
                dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkRunLoop", "SilkInput", "SilkRender",
                               "CWaylandClient", "CWaylandProtocols", "CWaylandCursor", "CXKBCommon", "CSilkLinux", logging],
                swiftSettings: strict),
        // DRM/KMS: dumb buffers, modesetting, page flips read on an epoll loop. Beside the
        // framebuffer presenter, sharing its console, evdev input and session (SilkFramebuffer).
        .target(name: "SilkKMS",
                dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkRunLoop", "SilkRender", "SilkFramebuffer",
                               "CDRM", "CSeat", "CSilkLinux", logging],
                swiftSettings: strict),
        // The AT-SPI2 bridge: exports the nodes' accessibility trees on the accessibility bus
        // over libdbus, on a thread of its own (docs/accessibility.md).
        .target(name: "SilkAccessibility", dependencies: ["SilkSystem", "SilkGeometry", "SilkInput", "SilkNodes", "CDBus", "CSilkSpeech", logging],
                swiftSettings: strict),
        // The umbrella an app imports: re-exports the modules a screen is built from, adds
        // `Application`, `Window` and the backend choice.
        .target(name: "Silk", dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkLayout", "SilkRunLoop", "SilkInput", "SilkRender",
                                             "SilkNodes", "SilkFramebuffer", "SilkWayland", "SilkKMS", "SilkAccessibility", logging],
                swiftSettings: strict),
        // Images from http(s) URLs: libcurl (Silk's HTTPClient) lives here, above the nodes, so the
        // core modules stay free of it.
        .target(name: "SilkNetworkImage", dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkNodes", "CCrypto", "CCurl", logging], swiftSettings: strict),
        // Video through GStreamer, above the nodes like network images: an app that shows no
        // video links no GStreamer.
        .target(name: "SilkVideo", dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkRender", "SilkNodes", "CSilkGStreamer", logging],
                swiftSettings: strict),

        // MARK: Tools (Tools/): beside the library, never linked by an app
        // The flexbox corpus evaluator (`silk layout`) and the layout benchmark's feed tree.
        .target(name: "SilkLayoutTools", dependencies: ["SilkSystem", "SilkGeometry", "SilkLayout"], path: "Tools/SilkLayoutTools",
                swiftSettings: strict),
        // A small HTTP server on POSIX sockets serving generated feed JSON and photos, with fault
        // options (delay, stall, close mid-body, status, garbage): the feed demo and network tests.
        .target(name: "SilkDemoServer", dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster"], path: "Tools/SilkDemoServer",
                swiftSettings: strict),
        // The demo and snapshot scenes (rainforest cards, kiosk, feed, text, shapes).
        .target(name: "SilkScenes", dependencies: ["SilkRaster", "SilkRender", "SilkLayout", "SilkNodes",
                                                   "SilkNetworkImage", "SilkDemoServer"], path: "Tools/SilkScenes",
                swiftSettings: strict),
        // The benchmark: scenes, the frame runner, report, table and plot (`silk bench`), the
        // raster and layout micro-benchmarks.
        .target(name: "SilkBench", dependencies: ["SilkSystem", "SilkGeometry", "SilkRaster", "SilkLayout", "SilkLayoutTools", "SilkRender",
                                                  "SilkNodes", "SilkScenes", "SilkDemoServer", "SilkVideo", "CSilkLinux"],
                path: "Tools/SilkBench", swiftSettings: strict),
        .executableTarget(name: "silk",
                          dependencies: ["Silk", "SilkSystem", "SilkRaster", "SilkLayout", "SilkLayoutTools", "SilkScenes", "SilkBench",
                                         "SilkDemoServer", "SilkNetworkImage", "SilkKMS", "SilkVideo", logging,
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Tools/silk", swiftSettings: strict),

        // MARK: Tests
        .target(name: "SilkTestSupport", dependencies: ["SilkRaster", "SilkDemoServer"], path: "Tests/SilkTestSupport",
                swiftSettings: strict),
        .testTarget(name: "SilkSystemTests", dependencies: ["SilkSystem"], swiftSettings: strict),
        .testTarget(name: "SilkGeometryTests", dependencies: ["SilkGeometry"], swiftSettings: strict),
        .testTarget(name: "SilkLayoutTests", dependencies: ["SilkLayout", "SilkLayoutTools", "SilkSystem"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "SilkRunLoopTests", dependencies: ["SilkRunLoop", "SilkSystem"], swiftSettings: strict),
        .testTarget(name: "SilkTests", dependencies: ["Silk", "SilkNodes", "SilkRunLoop", "SilkRender", "SilkLayout", "SilkAccessibility"],
                    swiftSettings: strict),
        .testTarget(name: "SilkNodesTests", dependencies: ["SilkNodes", "SilkTestSupport", "SilkScenes", "SilkDemoServer", "SilkNetworkImage"],
                    exclude: ["Golden"], swiftSettings: strict),
        .testTarget(name: "SilkFramebufferTests", dependencies: ["SilkFramebuffer", "SilkInput", "SilkSystem", "SilkTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "SilkKMSTests", dependencies: ["SilkKMS", "SilkFramebuffer", "SilkSystem", "SilkInput"], swiftSettings: strict),
        .testTarget(name: "SilkRenderTests", dependencies: ["SilkRender", "SilkSystem", "SilkTestSupport"], exclude: ["Golden"],
                    swiftSettings: strict),
        .testTarget(name: "SilkWaylandTests", dependencies: ["SilkWayland", "SilkRender", "SilkRaster", "SilkRunLoop", "SilkSystem"], swiftSettings: strict),
        .testTarget(name: "SilkNetworkImageTests",
                    dependencies: ["SilkNetworkImage", "SilkDemoServer", "SilkNodes", "SilkRaster", "SilkScenes", "SilkSystem", "SilkTestSupport"],
                    resources: [.copy("Golden")], swiftSettings: strict),
        .testTarget(name: "SilkRasterTests", dependencies: ["SilkRaster", "SilkScenes", "SilkSystem", "SilkTestSupport"],
                    resources: [.copy("Golden"), .copy("Inputs")], swiftSettings: strict),

        .testTarget(name: "SilkVideoTests", dependencies: ["SilkVideo", "SilkNodes", "SilkRender", "SilkRaster", "SilkSystem"],
                    swiftSettings: strict),
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
        ("FuzzAnimatedImage", ["FuzzSupport", "SilkRaster"]),
        ("FuzzText", ["FuzzSupport", "SilkGeometry", "SilkRaster", "SilkScenes"]),
        ("FuzzLayout", ["FuzzSupport", "SilkLayout", "SilkLayoutTools"]),
        ("FuzzEvdev", ["FuzzSupport", "SilkGeometry", "SilkFramebuffer", "SilkInput"]),
        ("FuzzFeed", ["FuzzSupport", "SilkScenes"]),
        ("FuzzRequest", ["FuzzSupport", "SilkDemoServer"]),
        ("FuzzSVG", ["FuzzSupport", "SilkRaster"]),
        ("FuzzLottie", ["FuzzSupport", "SilkRaster"]),
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
