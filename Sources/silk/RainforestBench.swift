import Foundation
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender
import SilkScenes

/// The nodes benchmark: 200 rainforest cards scrolled at 1,200 pt/s, paced in real time at
/// 60 Hz, once with asynchronous display and once with display forced onto the main thread
/// (`--sync`), with the same scene, caches and scroll script.
///
/// Per frame the main thread scrolls (the range rule updates interface states), runs the node
/// pass and the transaction committer, and commits the layer tree to the render thread; the
/// frame is then composited and presented before the next one starts (lockstep). Frames start
/// on a 60 Hz real-time grid, so display jobs get the same wall time in both modes.
struct RainforestBench {
    let size: Size
    let scale: Double
    let cards = 200
    let speed = 1200.0

    func run(synchronous: Bool, seconds: Double) throws -> ModeResult {
        let scheduler = NodeScheduler.shared
        scheduler.synchronousDisplay = synchronous
        defer { scheduler.synchronousDisplay = false }
        TransactionCommitter.shared.resetStatistics()
        let list = RainforestScene.makeList(count: cards, viewport: size, scale: scale)
        let host = Layer()
        host.frame = Rect(size: size)
        host.backgroundColor = Color(rgb: 0x1f2a22)
        let pw = Int((size.width * scale).rounded(.up)), ph = Int((size.height * scale).rounded(.up))
        let presenter = try HeadlessPresenter(pixelWidth: pw, pixelHeight: ph, scale: scale, clock: .realTime)
        let render = try RenderThread(presenter: presenter, clearColor: Color(rgb: 0x1f2a22))
        let reports = ReportBox()
        render.onFrame { reports.append($0) }
        render.start()
        defer { render.stop() }

        let pass = NodePass(rootNode: list, hostLayer: host, size: size, scale: scale)
        let warmup = 60, total = warmup + Int(seconds * 60)
        var mainBusy: [Int: Double] = [:]
        var mainWall: [Double] = []
        var placeholderCellFrames = 0
        var becameVisible: [Int: Double] = [:]
        var timeToContent: [Double] = []
        var lastSnapshot: LayerSnapshot?
        let cpu0 = processCPUSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        var coldFirstFrameMs = 0.0
        var firstScreenCompleteMs: Double?
        var staleFrames = 0
        var cancelledBefore = 0

        for n in 0..<total {
            // Wait for this frame's slot on the 60 Hz grid (late frames start at once).
            let slot = start + UInt64(Double(n) / 60 * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if slot > now { usleep(useconds_t((slot - now) / 1000)) }
            let t0 = DispatchTime.now().uptimeNanoseconds
            let c0 = threadCPUTimeNanoseconds()
            list.scroll(to: n < warmup ? 0 : Double(n - warmup) / 60 * speed)
            pass.run()
            TransactionCommitter.shared.commit()
            let snap = host.snapshot()
            var seq = -1
            if snap !== lastSnapshot { seq = render.commit(snap); lastSnapshot = snap }
            let t1 = DispatchTime.now().uptimeNanoseconds
            // Busy = CPU time of the main thread (robust to preemption on a shared machine);
            // wall time is kept as a second figure.
            let busy = Double(threadCPUTimeNanoseconds() - c0) / 1e6
            if n >= warmup { mainWall.append(Double(t1 - t0) / 1e6) }
            if n == 0 { coldFirstFrameMs = busy }
            if seq >= 0 { mainBusy[seq] = busy }
            render.waitUntilPresented(timeout: 30)

            // What is on screen now.
            let frameTime = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            let visible = list.visibleCardIndices()
            var missing = 0
            for i in visible {
                let hasContent = list.card(at: i)?.layer?.contents != nil
                if becameVisible[i] == nil { becameVisible[i] = frameTime }
                if hasContent {
                    if let v = becameVisible[i], v >= 0 {
                        if n >= warmup { timeToContent.append(frameTime - v) }
                        becameVisible[i] = -1
                    }
                } else {
                    missing += 1
                }
            }
            if n >= warmup { placeholderCellFrames += missing }
            if missing == 0 && firstScreenCompleteMs == nil { firstScreenCompleteMs = frameTime }
            // Stale frames: a published result whose job had been cancelled. The committer drops
            // them by sentinel; `staleApplied` counts any that slipped through.
            let stats = TransactionCommitter.shared.statistics
            if stats.staleApplied > cancelledBefore { staleFrames += 1; cancelledBefore = stats.staleApplied }
        }
        let cpu1 = processCPUSeconds()
        let measured = reports.all.filter { $0.commitSequence > warmup }
        let busy = measured.compactMap { mainBusy[$0.commitSequence] }
        let budget = 1000.0 / 60
        let missed = measured.filter { ($0.compositeCPUMs + $0.presentMs + (mainBusy[$0.commitSequence] ?? 0)) > budget }.count
        let stats = TransactionCommitter.shared.statistics
        return ModeResult(frames: measured.count, missedFrames: missed, idleFramesComposited: 0, cpuMs: (cpu1 - cpu0) * 1000,
                          mainBusyMs: Distribution(busy), compositeMs: Distribution(measured.map(\.compositeCPUMs)),
                          presentMs: Distribution(measured.map(\.presentMs)),
                          staleFrames: staleFrames, placeholderCellFrames: placeholderCellFrames,
                          timeToContentMs: MeanMax(timeToContent),
                          coldFirstFrameMs: coldFirstFrameMs, firstScreenCompleteMs: firstScreenCompleteMs ?? -1,
                          displayJobs: pass.statistics.jobsStarted, cancelledResults: stats.cancelledResults,
                          mainWallMs: Distribution(mainWall), compositeWallMs: Distribution(measured.map(\.compositeMs)))
    }
}

struct MeanMax: Codable {
    var mean: Double, max: Double
    init(_ v: [Double]) { mean = v.isEmpty ? 0 : v.reduce(0, +) / Double(v.count); max = v.max() ?? 0 }
}

