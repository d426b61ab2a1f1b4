import ArgumentParser
import Foundation
import Silk
import SilkBench
import SilkFramebuffer
import SilkGeometry
import SilkKMS
import SilkNodes
import SilkSystem
import SilkRender
import SilkScenes

/// `silk bench [--quick] [--scene NAME…] [--json OUT.json] [--plot OUT.png] [--markdown OUT.md]`
///
/// Runs every benchmark scene (or the ones named) on the headless presenter — frame scenes in
/// async and sync mode, measurement scenes once — prints a table, and writes the JSON report
/// (docs/benchmark.schema.json), a plot and a Markdown table on request. Progress goes to
/// stderr. `--backend wayland` measures real presentation of a scroll scene in a compositor.
/// See docs/benchmark.md for every figure.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmark: frame times async vs sync per scene, decoding, layout, startup.")

    @Option(name: .customLong("scene"), parsing: .singleValue,
            help: "Scene to run (repeat or comma-separate; default all but the opt-in \(BenchCatalog.optIn.sorted().joined(separator: ", "))): \(BenchCatalog.names.joined(separator: ", ")).")
    var scenes: [String] = []
    @Option(help: "headless (default: every scene), wayland (a real compositor: one scroll scene's presentation), fbdev or kms.")
    var backend: String = "headless"
    @Option(help: "Size in points, WxH.") var size: SizeArgument = SizeArgument(argument: "1280x720")!
    @Option(help: "Device pixels per point.") var scale: Double = 1
    @Flag(help: "A short run (0.25 s warm-up + 0.5 s per mode): for CI, to catch crashes and schema breaks.") var quick = false
    @Option(help: "Measured seconds per mode of a frame scene (default 3, or 0.5 with --quick).") var seconds: Double?
    @Option(help: "Warm-up seconds per mode, dropped (default 1, or 0.25 with --quick).") var warmup: Double?
    @Option(help: "Write the report as JSON (schema: docs/benchmark.schema.json).") var json: String?
    @Option(help: "Draw frame-time timelines and histograms, async against sync, into this PNG.") var plot: String?
    @Option(help: "Write the results as a Markdown table ('-' for standard output).") var markdown: String?
    @Flag(help: "List the scenes and exit.") var list = false
    @Flag(help: "headless: present without copying frames into the presenter (as Qt's offscreen platform; for peer comparisons). Default: the damage is copied, as into a display buffer.")
    var noPresentCopy = false
    @Option(help: "fbdev: the framebuffer device (a real /dev/fbN; default $SILK_FBDEV, else /dev/fb0); kms: the DRM card (default: the first with a connected display). The frame scenes are sized to it.")
    var device: String?
    @Option(help: "kms: the display mode, WxH or WxH@Hz (default: the connector's preferred mode).") var mode: String?

    func run() throws {
        if list {
            for e in BenchCatalog.all {
                switch e {
                case .frames(let t):
                    let optIn = BenchCatalog.optIn.contains(t.name) ? " (opt-in: --scene \(t.name))" : ""
                    print("\(t.name.padding(toLength: 19, withPad: " ", startingAt: 0))\(t.summary) [\(t.modes.map(\.rawValue).joined(separator: ", "))]\(optIn)")
                case .measurement(let t): print("\(t.name.padding(toLength: 19, withPad: " ", startingAt: 0))\(t.summary)")
                case .unavailable(let n, let s, let r): print("\(n.padding(toLength: 19, withPad: " ", startingAt: 0))\(s) — \(r)")
                }
            }
            return
        }
        guard scale.isFinite, scale >= 0.1, scale <= 4 else { fail("--scale \(scale): must be between 0.1 and 4") }
        // The frame scenes render windows of this size: the same budget as a demo's window.
        let pixels = (size.size.width * scale).rounded(.up) * (size.size.height * scale).rounded(.up)
        guard pixels <= Double(Backend.maximumWindowPixels) else {
            fail("--size \(Int(size.size.width))x\(Int(size.size.height)) at --scale \(scale): over the window limit of \(Backend.maximumWindowPixels / 1_000_000) MPx")
        }
        let names = scenes.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        for n in names where !BenchCatalog.names.contains(n) {
            fail("--scene \(n): expected one of \(BenchCatalog.names.joined(separator: ", "))")
        }
        var settings = quick ? BenchSettings.quick(size: size.size, scale: scale) : BenchSettings.full(size: size.size, scale: scale)
        if noPresentCopy && backend != "headless" {
            fail("--no-present-copy: only for --backend headless (a \(backend) presenter always copies to its display)")
        }
        settings.headlessKeepsFrames = !noPresentCopy
        if let seconds {
            guard seconds.isFinite, seconds > 0, seconds <= 600 else { fail("--seconds must be in (0, 600]") }
            settings.measuredSeconds = seconds
        }
        if let warmup {
            guard warmup.isFinite, warmup >= 0, warmup <= 60 else { fail("--warmup must be in [0, 60]") }
            settings.warmupSeconds = warmup
        }
        for (option, path) in [("--json", json), ("--plot", plot), ("--markdown", markdown)] {
            guard let path, path != "-" else { continue }
            do { try checkOutputPath(path, option: option) } catch { fail(error.message) }
        }

        var fileDevice: String?
        defer { if let fileDevice { unlink(fileDevice) } }
        switch backend {
        case "headless": break
        case "wayland":
            guard names.count <= 1, let scene = names.first ?? Optional(LayersScrollBench.name),
                  [LayersScrollBench.name, RainforestScrollBench.name].contains(scene) else {
                fail("--backend wayland measures one of layers-scroll, rainforest-scroll (--scene)")
            }
            let status = MainActor.assumeIsolated {
                WaylandBench(scene: scene, size: size.size, seconds: seconds ?? (quick ? 1 : 5), json: json).run()
            }
            Foundation.exit(status)
        case "fbdev":
            // Frames are presented on the device: present time is the copy into video memory,
            // paced by the device (vsync or its timer). The scenes take the device's size.
            let path = device ?? ProcessInfo.processInfo.environment["SILK_FBDEV"] ?? "/dev/fb0"
            let fileBacked = isFileDevicePath(path)
            let probe: FramebufferPresenter
            do { probe = try FramebufferPresenter(device: try openFramebuffer(path, fileBacked: fileBacked, createdEarlier: false), options: FramebufferOptions()) }
            catch { fail("--backend fbdev: \(error)") }
            // Created by the probe above (O_EXCL): Silk's to remove when the run ends.
            if fileBacked { fileDevice = path }
            settings.size = Size(width: Double(probe.pixelWidth) / scale, height: Double(probe.pixelHeight) / scale)
            probe.shutDown()
            settings.backend = "fbdev"
            settings.makePresenter = { _, _, _ in
                try FramebufferPresenter(device: try openFramebuffer(path, fileBacked: fileBacked, createdEarlier: true), options: FramebufferOptions())
            }
        case "kms":
            // Frames are shown by page flips: present time is the copy into a dumb buffer plus
            // the wait for the previous flip; the JSON adds the flips themselves (pageFlips).
            var options = KMSOptions()
            options.devicePath = device
            if let mode {
                guard let request = KMSModeRequest(mode) else { fail("--mode '\(mode)': expected WxH or WxH@Hz (e.g. 1024x768@60)") }
                options.mode = request
            }
            let probe: KMSPresenter
            do { probe = try KMSPresenter(options: options) } catch { fail("--backend kms: \(error)") }
            print("kms: \(probe.startupReport)")
            settings.size = Size(width: Double(probe.pixelWidth) / scale, height: Double(probe.pixelHeight) / scale)
            probe.shutDown()
            settings.backend = "kms"
            // One DRM master at a time: the previous scene's presenter gives the card back first.
            let last = Locked<KMSPresenter?>(nil)
            let chosen = options
            settings.makePresenter = { _, _, scale in
                last.withLock { $0?.shutDown(); $0 = nil }
                var o = chosen
                o.scale = scale
                let p = try KMSPresenter(options: o)
                last.withLock { $0 = p }
                return p
            }
            settings.pageFlipProbe = { presenter in
                guard let p = presenter as? KMSPresenter else { return nil }
                let s = p.statistics
                return PageFlipSample(framesPresented: s.framesPresented, flipsCompleted: s.flipsCompleted, flipTimeouts: s.flipTimeouts,
                                      intervals: s.flipIntervals, latencies: s.flipLatencies, vblankPaced: p.hasVBlank)
            }
        default:
            fail("--backend \(backend): expected headless, wayland, fbdev or kms")
        }

        settings.startupCommand = [selfExecutable(), "bench-startup-probe"]
        let entries = names.isEmpty ? BenchCatalog.defaultRun : BenchCatalog.all.filter { names.contains($0.name) }
        var suite = BenchSuite(settings: settings, entries: entries, command: commandLine(), build: buildConfiguration)
        let progress = ProgressLine()
        suite.progress = { progress.show($0) }
        let report = suite.run()
        progress.finish()

        print(report.table())
        do {
            if let json {
                try writeOutput(try report.jsonData(), to: json)
                print("wrote \(json)")
            }
            if let markdown {
                if markdown == "-" { print(report.markdown()) } else {
                    try writeOutput(Data((report.markdown() + "\n").utf8), to: markdown)
                    print("wrote \(markdown)")
                }
            }
            if let plot {
                try BenchPlot(report: report).render().writePNG(to: plot)
                print("wrote \(plot)")
            }
        } catch {
            fail("bench: writing results: \(error)")
        }
        if report.scenes.contains(where: { $0.status == .failed }) {
            if let fileDevice { unlink(fileDevice) }
            Foundation.exit(1)
        }
    }

    func commandLine() -> String {
        (["silk"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    }
}

#if DEBUG
let buildConfiguration = "debug"
#else
let buildConfiguration = "release"
#endif

/// A framebuffer device: a real one, or — for a new file in /dev/shm or /tmp, as tests use — a
/// file-backed 1280×720 XRGB8888 device that Silk creates there (the first open, O_EXCL: an
/// existing file is refused, never truncated) and reopens for each scene.
func openFramebuffer(_ path: String, fileBacked: Bool, createdEarlier: Bool) throws -> any FramebufferDevice {
    if fileBacked {
        return try FileFramebufferDevice(path: path, info: .typical(.xrgb8888, width: 1280, height: 720),
                                         creation: createdEarlier ? .fileCreatedEarlier : .newFile)
    }
    return try LinuxFramebufferDevice(path: path)
}

/// Whether `path` names a file-backed test device: not an existing device node, and its folder,
/// with symlinks and `..` resolved, is /tmp or /dev/shm (or below). A prefix test on the text
/// alone let `/tmp/../etc/x` through.
func isFileDevicePath(_ path: String) -> Bool {
    var st = stat()
    if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR { return false }
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard let resolved = realpath(parent, nil) else { return false }
    defer { free(resolved) }
    let folder = String(cString: resolved)
    return ["/tmp", "/dev/shm"].contains { folder == $0 || folder.hasPrefix($0 + "/") }
}

/// This program's path, for spawning the startup probe.
func selfExecutable() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}

/// The progress line on stderr: rewritten in place on a terminal, one line per scene step
/// otherwise (logs, CI).
final class ProgressLine {
    let isTTY = isatty(2) == 1
    private var lastDraw = 0.0
    private var current = ""

    func show(_ p: BenchProgress) {
        let what = "[\(p.index)/\(p.count)] \(p.scene)\(p.mode.map { " \($0)" } ?? "")"
        let line = what + String(format: "  %.1f s / ~%.0f s", p.elapsed, p.total)
        if isTTY {
            let now = ProcessMeasurements.now()
            guard p.isStart || now - lastDraw > 0.1 else { return }
            lastDraw = now
            FileHandle.standardError.write(Data("\r\u{1b}[K\(line)".utf8))
        } else if p.isStart {
            FileHandle.standardError.write(Data("bench: \(line)\n".utf8))
        }
    }

    func finish() {
        if isTTY { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
    }
}

/// `silk bench-startup-probe`: the child `silk bench` spawns to measure startup — the
/// rainforest demo on the headless backend; prints "first complete frame <ms since main> ms"
/// once every card on the first screen shows its contents and that frame was presented, then
/// exits.
struct BenchStartupProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-startup-probe", abstract: "Startup probe for `silk bench` (internal).", shouldDisplay: false)

    @Option(help: "Window size in points, WxH.") var size: SizeArgument = SizeArgument(argument: "1280x720")!

    func run() throws {
        let started = ProcessMeasurements.now()
        let status = MainActor.assumeIsolated { () -> Int32 in
            guard RainforestCatalog.entries[0].photoPath != nil else { fail("bench-startup-probe: assets/photos not found") }
            let app = Application(backend: .headless)
            let window: Window
            do { window = try app.makeWindow(size: size.size) } catch { fail("bench-startup-probe: \(error)") }
            let list = RainforestScene.makeList(viewport: window.size, scale: window.scale)
            window.setRootNode(list)
            list.scroll(to: 0)
            app.loop.addTimer(after: .milliseconds(1), repeating: .milliseconds(2)) {
                let visible = list.visibleCardIndices()
                let complete = !visible.isEmpty && visible.allSatisfy { list.card(at: $0)?.layer?.contents != nil }
                guard complete, window.nodePass?.committer.hasPendingCommits == false, window.presentedFrames > 0,
                      window.renderThread.waitUntilPresented(timeout: 0) else { return }
                print(String(format: "first complete frame %.3f ms", (ProcessMeasurements.now() - started) * 1000))
                fflush(nil)
                app.quit()
            }
            _ = app.run()
            return app.failure == nil ? 0 : 1
        }
        Foundation.exit(status)
    }
}
