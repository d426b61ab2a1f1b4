import Foundation
import SilkGeometry
import SilkRaster
import SilkRunLoop
import SilkSystem

/// Measurements of one presented frame.
public struct FrameReport: Sendable {
    /// The frame's number and target time.
    public var timing: FrameTiming
    /// Wall time spent compositing (damage diff + pixman), milliseconds.
    public var compositeMs: Double
    /// CPU time of the render thread spent compositing (robust to preemption), milliseconds.
    /// With banded compositing (``Compositor/compositeThreads``) this is the render thread's
    /// share: the workers' is ``compositeWorkerCPUMs``.
    public var compositeCPUMs: Double
    /// CPU time the compositor's band workers spent on this frame, milliseconds (0 when the
    /// frame was not banded).
    public var compositeWorkerCPUMs: Double = 0
    /// Wall time spent presenting (copy into the output, protocol calls), milliseconds.
    public var presentMs: Double
    /// Device pixels repainted for the frame.
    public var damagedPixels: Double
    /// Render-list entries (drawing layers) in the frame.
    public var renderEntries: Int
    /// Sequence number of the commit this frame showed.
    public var commitSequence: Int
    /// False when compositing found no damage, so nothing was presented.
    public var didPresent: Bool
}

/// The thread that composites committed layer-tree snapshots and presents them, paced by its
/// presenter. The main thread only calls `commit(_:)`, which stores the newest snapshot
/// ("latest wins": a slow frame skips intermediate commits, never queues them) and wakes this
/// thread; the render thread never calls app code.
///
/// Invariant behind `@unchecked Sendable`: the compositor and presenter are used only on the
/// render thread after `start()`; everything else shared is guarded by `lock`.
public final class RenderThread: @unchecked Sendable {
    /// `SILK_RENDER_STATS=1` prints the compositor's statistics once a second (diagnostics).
    static let logStatistics = SilkConfiguration.current.logsRenderStatistics
    /// `SILK_PRESENT_EVERY_FRAME=1` repaints and presents every frame even when nothing changed.
    /// A diagnostic for screen-capture tools that only see clients that keep drawing (cage
    /// 0.1.4's screencopy returns black frames otherwise); it defeats the idle-CPU design.
    static let presentEveryFrame = SilkConfiguration.current.presentsEveryFrame
    private let presenter: any Presenter
    private let compositor: Compositor
    private let lock = NSCondition()
    private var pending: LayerSnapshot?
    private var current: LayerSnapshot?
    private var commitSequence = 0
    private var presentedSequence = 0
    private var animating = false
    private var settling = false
    private var stopping = false
    private var thread: Thread?
    private var finished = false
    private var reportHandler: (@Sendable (FrameReport) -> Void)?
    private var _completionHandler: @Sendable ([@Sendable () -> Void]) -> Void = { blocks in
        EventLoop.main.perform { for b in blocks { b() } }
    }
    private var failure: (any Error)?

    /// A render thread for `presenter`, with a compositor of the presenter's size and scale; throws
    /// when that size is invalid. Call ``start()`` to start it. Main thread.
    public init(presenter: any Presenter, clearColor: Color = .white) throws(RasterError) {
        self.presenter = presenter
        compositor = try Compositor(pixelWidth: presenter.pixelWidth, pixelHeight: presenter.pixelHeight,
                                    scale: presenter.scale, clearColor: clearColor)
    }

    /// Called on the render thread after each presented frame (keep it short).
    public func onFrame(_ handler: @escaping @Sendable (FrameReport) -> Void) {
        lock.lock(); reportHandler = handler; lock.unlock()
    }

    /// Where the completions of animations that ended in a frame go: by default they are run
    /// on `EventLoop.main` (the render thread never calls app code itself). A window or test
    /// with another main loop sets its own. Any thread.
    public var completionHandler: @Sendable ([@Sendable () -> Void]) -> Void {
        get { lock.lock(); defer { lock.unlock() }; return _completionHandler }
        set { lock.lock(); _completionHandler = newValue; lock.unlock() }
    }

    /// Starts the thread (named `silk.render`, user-interactive QoS); it sleeps until the first
    /// commit. Call once.
    public func start() {
        // Weak: the Thread keeps its closure after it ends, and `thread` keeps the Thread, so a
        // strong capture would keep every render thread (and its presenter and back buffer)
        // alive forever (LeakSanitizer, docs/reliability.md). `self?.run()` holds self while
        // it runs.
        let t = Thread { [weak self] in self?.run() }
        t.name = "silk.render"
        t.qualityOfService = .userInteractive
        thread = t
        t.start()
    }

    /// Hands the render thread a new tree to show (any thread). Returns its sequence number.
    @discardableResult
    public func commit(_ snapshot: LayerSnapshot) -> Int {
        lock.lock(); defer { lock.unlock() }
        commitSequence += 1
        pending = snapshot
        lock.broadcast()
        return commitSequence
    }

    /// Blocks until the newest commit has been presented (and animations finished, when
    /// `includingAnimations`; animations that repeat forever are not waited for), or `timeout`
    /// seconds passed. For tests and benchmarks.
    @discardableResult
    public func waitUntilPresented(timeout: Double, includingAnimations: Bool = false) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while (presentedSequence < commitSequence || (includingAnimations && settling)) && !finished {
            if !lock.wait(until: deadline) { break }
        }
        return presentedSequence >= commitSequence && !(includingAnimations && settling)
    }

    /// The error that stopped the render thread (a presenter failure), if any.
    public var error: (any Error)? { lock.lock(); defer { lock.unlock() }; return failure }

    /// Stops the thread after the frame in progress and waits for it to end.
    public func stop() {
        lock.lock()
        stopping = true
        lock.broadcast()
        lock.unlock()
        presenter.close()
        lock.lock()
        while thread != nil && !finished { _ = lock.wait(until: Date(timeIntervalSinceNow: 0.05)) }
        lock.unlock()
    }

    private func run() {
        while true {
            // Sleep until there is something to show: no frame is composited when nothing changed.
            lock.lock()
            while pending == nil && !animating && !stopping && !(RenderThread.presentEveryFrame && current != nil) { lock.wait() }
            if stopping { finish(); lock.unlock(); return }
            lock.unlock()

            guard let timing = presenter.waitForFrame() else { lock.lock(); finish(); lock.unlock(); return }

            lock.lock()
            if let p = pending { current = p; pending = nil }
            let sequence = commitSequence
            let handler = reportHandler
            let completionHandler = _completionHandler
            lock.unlock()
            guard let snapshot = current else { continue }

            // A presenter whose output was resized (a Wayland configure, a scale change) gets a
            // back buffer of its new size; that frame repaints everything.
            let (pw, ph, ps) = (presenter.pixelWidth, presenter.pixelHeight, presenter.scale)
            if pw != compositor.backBuffer.width || ph != compositor.backBuffer.height || ps != compositor.scale {
                do { try compositor.resize(pixelWidth: pw, pixelHeight: ph, scale: ps) } catch {
                    lock.lock(); failure = error; finish(); lock.unlock()
                    return
                }
            }
            let t0 = DispatchTime.now().uptimeNanoseconds
            let c0 = threadCPUTimeNanoseconds()
            if RenderThread.presentEveryFrame { compositor.invalidateAll() }
            let frame = compositor.composite(snapshot, at: timing.time)
            let c1 = threadCPUTimeNanoseconds()
            let t1 = DispatchTime.now().uptimeNanoseconds
            if !frame.completions.isEmpty { completionHandler(frame.completions) }
            if !frame.damage.isEmpty {
                do {
                    try presenter.present(compositor.backBuffer, damage: frame.damage, timing: timing)
                } catch {
                    lock.lock(); failure = error; finish(); lock.unlock()
                    return
                }
            }
            let t2 = DispatchTime.now().uptimeNanoseconds
            if RenderThread.logStatistics, timing.index % 60 == 30 {
                let st = compositor.lastStatistics
                print("render: frame \(timing.index) entries \(st.entries) drawn \(st.entriesDrawn) src \(st.srcFastPaths) damage \(Int(st.damagedPixels)) px in \(st.damagedRects) rects, scrolled \(Int(st.scrolledPixels)) px, composite \(String(format: "%.3f", Double(c1 - c0) / 1e6)) ms CPU, bands \(st.bands) (\(st.bandsByWorkers) by workers, \(String(format: "%.3f", st.workerCPUMs)) ms CPU)")
            }
            lock.lock()
            animating = frame.hasRunningAnimations
            settling = frame.hasEndingAnimations
            presentedSequence = sequence
            lock.broadcast()
            lock.unlock()
            handler?(FrameReport(timing: timing, compositeMs: Double(t1 - t0) / 1e6,
                                 compositeCPUMs: Double(c1 - c0) / 1e6,
                                 compositeWorkerCPUMs: compositor.lastStatistics.workerCPUMs, presentMs: Double(t2 - t1) / 1e6,
                                 damagedPixels: frame.damage.area, renderEntries: compositor.lastStatistics.entries,
                                 commitSequence: sequence, didPresent: !frame.damage.isEmpty))
        }
    }

    /// Marks the thread finished (lock held).
    private func finish() {
        finished = true
        lock.broadcast()
    }
}

/// CPU time consumed by the calling thread so far (CLOCK_THREAD_CPUTIME_ID), nanoseconds.
/// `package`: the render thread's frame reports and the benchmark (Tools/) measure with it.
package func threadCPUTimeNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
