import ArgumentParser
import Foundation
import Silk
import SilkGeometry
import SilkRaster
import SilkRender
import SilkScenes

/// `silk bench --scene NAME --backend headless --size WxH --json OUT.json`
///
/// Runs a scene for a fixed number of frames on the headless presenter's virtual 60 Hz clock in
/// lockstep (the main thread prepares frame n, commits it, and waits for the render thread to
/// present it), drops the first second, and reports per-frame distributions. See
/// docs/benchmark.md for every field.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure a scene: main-thread time, composite time, missed frames.")

    @Option(help: "Scene: \(BenchScene.allCases.map(\.rawValue).joined(separator: ", ")).") var scene: BenchScene = .layersScroll
    @Option(help: "headless (virtual clock, lockstep) or wayland (a real compositor: frame-callback-to-present latency).") var backend: String = "headless"
    @Option(help: "Size in points, WxH.") var size: SizeArgument = SizeArgument(argument: "1280x720")!
    @Option(help: "Device pixels per point.") var scale: Double = 1
    @Option(help: "Seconds of scrolling to measure (after one warm-up second).") var seconds: Double = 5
    @Option(help: "Write the results as JSON to this file.") var json: String?

    func run() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 600 else { fail("--seconds must be in (0, 600]") }
        if backend == "wayland" {
            let status = MainActor.assumeIsolated { WaylandBench(scene: scene, size: size.size, seconds: seconds, json: json).run() }
            Foundation.exit(status)
        }
        guard backend == "headless" else {
            fail("--backend \(backend): expected headless or wayland")
        }
        let result: BenchResult
        do {
            result = try scene.run(size: size.size, scale: scale, seconds: seconds)
        } catch {
            fail("bench \(scene.rawValue): \(error)")
        }
        print(result.table())
        if let json {
            do {
                let enc = JSONEncoder()
                enc.outputFormatting = [.prettyPrinted, .sortedKeys]
                try enc.encode(result).write(to: URL(fileURLWithPath: json))
                print("wrote \(json)")
            } catch {
                fail("\(json): \(error.localizedDescription)")
            }
        }
    }
}

enum BenchScene: String, CaseIterable, ExpressibleByArgument {
    case layersScroll = "layers-scroll"
    case rainforestScroll = "rainforest-scroll"

    func run(size: Size, scale: Double, seconds: Double) throws -> BenchResult {
        switch self {
        case .layersScroll:
            let driver = try LockstepDriver(size: size, scale: scale)
            let scene = try LayersScrollScene(root: driver.root, viewport: size, scale: scale)
            let mode = driver.measure(frames: Int((seconds + 1) * 60), warmupFrames: 60) { t in scene.update(time: t) }
            return BenchResult(scene: rawValue, backend: "headless", size: [Int(size.width), Int(size.height)],
                               frameCopyMs: frameCopyMilliseconds(width: driver.pixelWidth, height: driver.pixelHeight),
                               modes: ["async": mode])
        case .rainforestScroll:
            let bench = RainforestBench(size: size, scale: scale)
            let async = try bench.run(synchronous: false, seconds: seconds)
            let sync = try bench.run(synchronous: true, seconds: seconds)
            let w = Int((size.width * scale).rounded(.up)), h = Int((size.height * scale).rounded(.up))
            return BenchResult(scene: rawValue, backend: "headless", size: [Int(size.width), Int(size.height)],
                               frameCopyMs: frameCopyMilliseconds(width: w, height: h), modes: ["async": async, "sync": sync])
        }
    }
}

/// Drives a root layer through a RenderThread and a virtual-clock headless presenter, one frame
/// at a time, measuring both threads.
final class LockstepDriver {
    let root = Layer()
    let presenter: HeadlessPresenter
    let render: RenderThread
    let pixelWidth: Int, pixelHeight: Int
    private let reports = ReportBox()

    init(size: Size, scale: Double) throws {
        pixelWidth = Int((size.width * scale).rounded(.up)); pixelHeight = Int((size.height * scale).rounded(.up))
        presenter = try HeadlessPresenter(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, clock: .virtual)
        render = try RenderThread(presenter: presenter, clearColor: .white)
        root.frame = Rect(size: size)
        root.backgroundColor = .white
        let box = reports
        render.onFrame { box.append($0) }
        render.start()
    }
    deinit { render.stop() }

    func measure(frames: Int, warmupFrames: Int, update: (Double) -> Void) -> ModeResult {
        var mainBusy: [Int: Double] = [:]
        var last: LayerSnapshot?
        let cpu0 = processCPUSeconds()
        for n in 0..<frames {
            let t0 = threadCPUTimeNanoseconds()
            update(Double(n) / 60)
            let snap = root.snapshot()
            var seq = -1
            if snap !== last { seq = render.commit(snap); last = snap }
            let t1 = threadCPUTimeNanoseconds()
            if seq >= 0 { mainBusy[seq] = Double(t1 - t0) / 1e6 }
            render.waitUntilPresented(timeout: 30, includingAnimations: false)
        }
        let cpu1 = processCPUSeconds()
        // An idle second: nothing changes, so nothing may be composited.
        Thread.sleep(forTimeInterval: 0.05)  // let the last measured frame's report arrive
        let compositedBefore = reports.count
        for _ in 0..<60 {
            let snap = root.snapshot()
            if snap !== last { render.commit(snap); last = snap }
            render.waitUntilPresented(timeout: 30)
        }
        Thread.sleep(forTimeInterval: 0.05)
        let idleFrames = reports.count - compositedBefore

        let measured = reports.all.filter { $0.commitSequence > warmupFrames && $0.commitSequence <= frames }
        let composite = measured.map(\.compositeCPUMs), present = measured.map(\.presentMs)
        let busy = measured.compactMap { mainBusy[$0.commitSequence] }
        let budget = 1000.0 / 60
        let missed = measured.filter { ($0.compositeCPUMs + $0.presentMs + (mainBusy[$0.commitSequence] ?? 0)) > budget }.count
        return ModeResult(frames: measured.count, missedFrames: missed, idleFramesComposited: idleFrames,
                          cpuMs: (cpu1 - cpu0) * 1000,
                          mainBusyMs: Distribution(busy), compositeMs: Distribution(composite), presentMs: Distribution(present),
                          compositeWallMs: Distribution(measured.map(\.compositeMs)))
    }
}

final class ReportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [FrameReport] = []
    func append(_ r: FrameReport) { lock.lock(); reports.append(r); lock.unlock() }
    var all: [FrameReport] { lock.lock(); defer { lock.unlock() }; return reports }
    var count: Int { lock.lock(); defer { lock.unlock() }; return reports.count }
}

struct Distribution: Codable {
    var p50: Double, p95: Double, p99: Double, max: Double, mean: Double
    init(_ values: [Double]) {
        let s = values.sorted()
        func pct(_ p: Double) -> Double { s.isEmpty ? 0 : s[Swift.min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))] }
        p50 = pct(0.5); p95 = pct(0.95); p99 = pct(0.99); max = s.last ?? 0
        mean = s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count)
    }
}

struct ModeResult: Codable {
    var frames: Int
    var missedFrames: Int
    var idleFramesComposited: Int
    var cpuMs: Double
    var mainBusyMs: Distribution
    var compositeMs: Distribution
    var presentMs: Distribution
    // Node scenes only (nil for pure layer scenes):
    var staleFrames: Int? = nil
    var placeholderCellFrames: Int? = nil
    var timeToContentMs: MeanMax? = nil
    var coldFirstFrameMs: Double? = nil
    var firstScreenCompleteMs: Double? = nil
    var displayJobs: Int? = nil
    var cancelledResults: Int? = nil
    /// Main-thread wall time per frame (includes preemption); `mainBusyMs` is CPU time.
    var mainWallMs: Distribution? = nil
    /// Render-thread wall time per composite; `compositeMs` is its CPU time.
    var compositeWallMs: Distribution? = nil
}

struct BenchResult: Codable {
    var scene: String
    var backend: String
    var size: [Int]
    var frameCopyMs: Double
    var modes: [String: ModeResult]

    func table() -> String {
        func f(_ v: Double) -> String { String(format: "%7.3f", v) }
        var lines = ["scene \(scene)  backend \(backend)  size \(size[0])x\(size[1])  frame memcpy \(f(frameCopyMs)) ms",
                     "mode   frames missed idle | main p50 p99 max (ms)      | composite p50 p99 max (ms) | present p50"]
        for (name, m) in modes.sorted(by: { $0.key < $1.key }) {
            if let ph = m.placeholderCellFrames, let ttc = m.timeToContentMs {
                lines.append("\(name): placeholder cell-frames \(ph), time to content mean \(f(ttc.mean)) max \(f(ttc.max)) ms, stale frames \(m.staleFrames ?? 0), cancelled results \(m.cancelledResults ?? 0), cold first frame \(f(m.coldFirstFrameMs ?? 0)) ms, first screen complete \(f(m.firstScreenCompleteMs ?? 0)) ms")
            }
            lines.append("\(name.padding(toLength: 6, withPad: " ", startingAt: 0)) \(String(format: "%6d %6d %4d", m.frames, m.missedFrames, m.idleFramesComposited)) | \(f(m.mainBusyMs.p50)) \(f(m.mainBusyMs.p99)) \(f(m.mainBusyMs.max)) | \(f(m.compositeMs.p50)) \(f(m.compositeMs.p99)) \(f(m.compositeMs.max)) | \(f(m.presentMs.p50))")
        }
        return lines.joined(separator: "\n")
    }
}

/// Median CPU time of one memcpy of a full ARGB32 frame: the physical floor for a full repaint.
func frameCopyMilliseconds(width: Int, height: Int) -> Double {
    let bytes = width * height * 4
    let a = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    let b = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer { a.deallocate(); b.deallocate() }
    memset(a, 1, bytes); memset(b, 2, bytes)
    var times: [Double] = []
    for _ in 0..<31 {
        let t0 = threadCPUTimeNanoseconds()
        memcpy(b, a, bytes)
        times.append(Double(threadCPUTimeNanoseconds() - t0) / 1e6)
    }
    return times.sorted()[times.count / 2]
}

/// User + system CPU seconds of this process so far.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}
