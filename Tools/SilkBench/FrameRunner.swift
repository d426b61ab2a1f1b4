import Foundation
import SilkGeometry
import SilkNodes
import SilkRender
import SilkSystem

/// `async`: display jobs run on the display queues (Silk's design). `sync`: every display job
/// runs on the main thread during the node pass (`NodeScheduler.synchronousDisplay`), as a
/// toolkit without background display would; compositing stays on the render thread in both.
public enum BenchMode: String, CaseIterable, Sendable { case async, sync }

/// Runs one frame scene in one mode and measures every frame.
///
/// The loop is the app loop reduced to what a frame needs, in lockstep so that each frame's
/// figures are its own: frames start on a real-time 60 Hz grid; at a frame the main thread
/// updates the scene (when an update is due), runs the node pass and the transaction committer
/// (node scenes), snapshots the layer tree and commits it to the render thread, which composites
/// and presents it on a virtual-clock headless presenter; the main thread waits for that before
/// the next frame. A frame that runs late skips the grid slots it overran, as a display would.
/// Between updates the loop sleeps until the next update or until a display result asks for a
/// pass (the scheduler's and committer's wake-ups), then starts a frame on the next slot — so an
/// idle scene costs what an idle app costs.
///
/// Figures are CPU time of the thread where a shared machine makes wall time unreliable
/// (main-thread busy, composite), wall time elsewhere (present, frame wall); see
/// docs/benchmark.md.
public struct FrameRunner {
    public let settings: BenchSettings
    /// Called on the main thread after every frame with the seconds elapsed in this mode.
    public var progress: (Double) -> Void = { _ in }

    public init(settings: BenchSettings) { self.settings = settings }

    /// Seconds a mode takes, setup not included (at most, for a scene that ends by itself).
    public var modeSeconds: Double { settings.warmupSeconds + settings.measuredSeconds }

    public func run(_ type: any BenchScene.Type, mode: BenchMode) throws -> (result: ModeResult, notes: [String]) {
        let usesNodes = type.supportsSync
        ProcessMeasurements.resetPeakRSS()
        let window = type.window(settings)

        let stage = BenchStage(size: settings.size, scale: settings.scale, quick: settings.quick,
                               warmupSeconds: window.warmup)
        let scene = try type.init(stage: stage)
        let presenter: any Presenter
        if let made = try settings.makePresenter?(stage.pixelWidth, stage.pixelHeight, stage.scale) {
            presenter = made
        } else {
            let headless = try HeadlessPresenter(pixelWidth: stage.pixelWidth, pixelHeight: stage.pixelHeight, scale: stage.scale,
                                                 clock: type.presentsOnRealTimeClock ? .realTime : .virtual)
            headless.keepsFrames = settings.headlessKeepsFrames
            presenter = headless
        }
        let render = try RenderThread(presenter: presenter, clearColor: stage.background)
        // The runner's per-frame records are in the process whose memory feed-10k measures:
        // room for the frames the mode is expected to take is made up front (no copies as they
        // double, and 130 bytes a frame rather than a dictionary entry's worth).
        let expectedFrames = min(200_000, Int((window.warmup + type.estimatedMeasuredSeconds(settings)) * 60 * 1.5) + 600)
        let reports = ReportBox(capacity: expectedFrames)
        render.onFrame { reports.append($0) }
        render.start()
        defer { render.stop() }
        let pass = stage.rootNode.map { NodePass(rootNode: $0, hostLayer: stage.root, size: stage.size, scale: stage.scale) }
        precondition(pass == nil || usesNodes, "\(type.name): a node scene must declare supportsSync")
        // The scene's own node runtime: its display mode, committer statistics and wake-up.
        let wake = DispatchSemaphore(value: 0)
        pass?.synchronousDisplay = mode == .sync
        pass?.wakeUp = { wake.signal() }
        defer { pass?.wakeUp = nil }

        struct Sample { var start: Double; var busy: Double; var mainWall: Double; var frameWall: Double; var inTransition = false }
        let slot = 1.0 / 60
        let interval = max(slot, type.updateInterval)
        let warmup = window.warmup, end = warmup + window.measured
        // The grid slot at or just before `t` (a timed wait overshoots by a little), else the next.
        func slotAtOrAfter(_ t: Double) -> Double { (t / slot - 0.25).rounded(.up) * slot }
        let paced = settings.makePresenter != nil
        let start = ProcessMeasurements.now()
        var nextUpdate = 0.0
        // By commit sequence (0, 1, 2 …); nil for the warm-up's frames.
        var samples: [Sample?] = []
        samples.reserveCapacity(expectedFrames)
        var last: LayerSnapshot?
        var frameIndex = 0
        var lastFrameTime = -1.0
        var cpu0 = 0.0, wall0 = 0.0, began = false
        var flips0: PageFlipSample?

        while true {
            // When does the next frame start: at the next update, or at the first slot after a
            // wake-up (display results waiting to be committed), whichever comes first.
            let now0 = ProcessMeasurements.now() - start
            if now0 < nextUpdate {
                _ = wake.wait(timeout: .now() + (nextUpdate - now0))
            }
            // One frame per slot at most: a wake-up right after a frame waits for the next slot.
            // A presenter with its own clock (a framebuffer's vsync or timer) paces the frames:
            // the next one starts once the last was presented.
            let t = paced ? ProcessMeasurements.now() - start
                : Swift.max(slotAtOrAfter(ProcessMeasurements.now() - start), lastFrameTime + slot)
            let delay = t - (ProcessMeasurements.now() - start)
            if delay > 0 { usleep(useconds_t(delay * 1e6)) }
            while wake.wait(timeout: .now()) == .success {}
            if t >= end { break }
            let isUpdate = t >= nextUpdate - 1e-9
            let measuring = t >= warmup - 1e-9
            if measuring && !began {
                began = true
                cpu0 = ProcessMeasurements.cpuSeconds(); wall0 = ProcessMeasurements.now()
                flips0 = settings.pageFlipProbe?(presenter)
            }
            let w0 = ProcessMeasurements.now()
            let c0 = threadCPUTimeNanoseconds()
            if isUpdate {
                scene.update(time: t)
                nextUpdate = t + interval
                // A slow-ticking scene (a clock) ticks at the start of the measured window too.
                if t < warmup - 1e-9 && nextUpdate > warmup { nextUpdate = warmup }
                let late = ProcessMeasurements.now() - start
                if nextUpdate < late { nextUpdate = slotAtOrAfter(late) }
            }
            if paced && isUpdate && interval <= slot { nextUpdate = t }  // every frame, at the presenter's pace
            if let pass, isUpdate || pass.hasPendingWork || pass.committer.hasPendingCommits {
                pass.run()
                pass.committer.commit()
            }
            let snap = stage.root.snapshot()
            var seq = -1
            // The previous snapshot is let go before the commit, as `Window.commitIfNeeded` does:
            // the render thread still holds it then, so its tree is freed there. Let go after
            // the commit, it was often the last reference (the render thread had already moved
            // on) and the main thread freed the tree: up to 0.25 ms of its p99 in
            // rainforest-scroll, a cost of this loop that apps do not have.
            if snap !== last { last = snap; seq = render.commit(snap) }
            let busy = Double(threadCPUTimeNanoseconds() - c0) / 1e6
            let w1 = ProcessMeasurements.now()
            if seq >= 0 {
                render.waitUntilPresented(timeout: 30)
                if measuring {
                    if samples.count <= seq { samples.append(contentsOf: repeatElement(nil, count: seq + 1 - samples.count)) }
                    samples[seq] = Sample(start: w0 - wall0, busy: busy, mainWall: (w1 - w0) * 1000,
                                          frameWall: (ProcessMeasurements.now() - w0) * 1000,
                                          inTransition: scene.isInTransition)
                }
            }
            scene.didPresent(FrameObservation(index: frameIndex, time: t,
                                              presentedAtMs: (ProcessMeasurements.now() - start) * 1000,
                                              measuring: measuring, mainBusyMs: busy,
                                              staleApplied: pass?.committer.statistics.staleApplied ?? 0))
            frameIndex += 1
            lastFrameTime = t
            progress(ProcessMeasurements.now() - start)
            if let error = render.error { throw error }
            if scene.isFinished { break }
        }
        let cpu1 = ProcessMeasurements.cpuSeconds(), wall1 = ProcessMeasurements.now()
        let flips1 = settings.pageFlipProbe?(presenter)
        if !began { wall0 = wall1; cpu0 = cpu1 }

        // Layer scenes: an idle check — nothing changes, so nothing may be composited.
        var idleFrames = 0
        if pass == nil {
            Thread.sleep(forTimeInterval: 0.05)  // let the last measured frame's report arrive
            let before = reports.count
            for _ in 0..<60 {
                let snap = stage.root.snapshot()
                if snap !== last { last = snap; render.commit(snap) }
                render.waitUntilPresented(timeout: 30)
            }
            Thread.sleep(forTimeInterval: 0.05)
            idleFrames = reports.count - before
        } else {
            Thread.sleep(forTimeInterval: 0.05)
        }

        // The first report of each measured commit is its frame. Later reports with the same
        // sequence are the render thread's own animation frames (placeholder fade-ins), which
        // the virtual clock runs back to back; they are not main-thread frames.
        var firstReports: [Int: FrameReport] = [:]
        func sample(_ seq: Int) -> Sample? { seq >= 0 && seq < samples.count ? samples[seq] : nil }
        for r in reports.all where sample(r.commitSequence) != nil && firstReports[r.commitSequence] == nil {
            firstReports[r.commitSequence] = r
        }
        let measured = firstReports.values.sorted { $0.commitSequence < $1.commitSequence }
        var frameCost: [Double] = [], timeline: [[Double]] = []
        for r in measured {
            let s = sample(r.commitSequence)!
            let cost = s.busy + r.compositeCPUMs + r.presentMs
            frameCost.append(cost)
            // Start times to the microsecond: a late frame and the next on-time one can start under
            // half a millisecond apart, and millisecond rounding made them equal.
            timeline.append([(s.start * 1e6).rounded() / 1e6, (cost * 1000).rounded() / 1000])
        }
        let seconds = max(1e-9, wall1 - wall0)
        let sampleList = measured.map { sample($0.commitSequence)! }
        var result = ModeResult(
            frames: measured.count, measuredSeconds: seconds, fps: Double(measured.count) / seconds,
            missedFrames: frameCost.filter { $0 > 1000.0 / 60 }.count, idleFramesComposited: idleFrames,
            cpuMs: (cpu1 - cpu0) * 1000, cpuPercent: (cpu1 - cpu0) / seconds * 100,
            peakRSSMB: ProcessMeasurements.peakRSSMegabytes() ?? 0,
            frameMs: Distribution(frameCost), frameWallMs: Distribution(sampleList.map(\.frameWall)),
            mainBusyMs: Distribution(sampleList.map(\.busy)), compositeMs: Distribution(measured.map(\.compositeCPUMs)),
            presentMs: Distribution(measured.map(\.presentMs)), mainWallMs: Distribution(sampleList.map(\.mainWall)),
            compositeWallMs: Distribution(measured.map(\.compositeMs)),
            damagedMegapixels: Distribution(measured.map { $0.damagedPixels / 1e6 }), timeline: timeline)
        if measured.contains(where: { $0.compositeWorkerCPUMs > 0 }) {
            result.compositeWorkerCPUMs = Distribution(measured.map(\.compositeWorkerCPUMs))
            result.compositeAllCPUMs = Distribution(measured.map { $0.compositeCPUMs + $0.compositeWorkerCPUMs })
        }
        if let pass { result.displayJobs = pass.statistics.jobsStarted }
        if let flips1 { result.pageFlips = PageFlipResult(from: flips0 ?? flips1, to: flips1) }
        // Every frame of a transition-tagged commit: the render thread animates a slide on its
        // own frames after the commit that started it, and those are the ones that recomposite.
        let transitionFrames = reports.all.filter { sample($0.commitSequence)?.inTransition == true }
        if !transitionFrames.isEmpty { result.transitionCompositeMs = Distribution(transitionFrames.map(\.compositeCPUMs)) }
        scene.finish(into: &result, pass: pass)
        return (result, scene.notes)
    }
}

/// Frame reports from the render thread (appended there, read on main).
final class ReportBox: @unchecked Sendable {
    private let lock = Lock()
    private var reports: [FrameReport] = []
    init(capacity: Int = 0) { reports.reserveCapacity(capacity) }
    func append(_ r: FrameReport) { lock.lock(); reports.append(r); lock.unlock() }
    var all: [FrameReport] { lock.lock(); defer { lock.unlock() }; return reports }
    var count: Int { lock.lock(); defer { lock.unlock() }; return reports.count }
}
