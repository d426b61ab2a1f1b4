import Foundation
import SilkGeometry
import SilkRaster

/// A presenter that keeps frames in memory: the default when neither a compositor nor a
/// framebuffer is available, and what tests and benchmarks use.
///
/// Clock: `.virtual` hands out 60 Hz frame slots at once (frame n is at n/60 s, no sleeping),
/// so a benchmark or test runs as fast as the machine allows and stays deterministic;
/// `.realTime` sleeps until each 1/refresh slot on the monotonic clock, like a display.
/// Frames can be captured to PNG on request (`capturePNG(to:)` or `captureEveryFrame(into:)`).
///
/// Presenting copies the damage into the presenter's own frame, as a display's buffer would
/// receive it. ``keepsFrames`` false skips that copy (a peer comparison against Qt's `offscreen`
/// platform, whose flush copies nothing); frame captures then copy the whole frame when they
/// happen.
public final class HeadlessPresenter: Presenter, @unchecked Sendable {
    /// How frame slots are handed out: `virtual` at once (frame n at n/refresh seconds, for tests
    /// and benchmarks), `realTime` by sleeping to each slot on the monotonic clock.
    public enum Clock: Sendable { case virtual, realTime }

    public let pixelWidth: Int
    public let pixelHeight: Int
    public let scale: Double
    public let name = "headless"
    /// The clock frame slots follow.
    public let clock: Clock
    /// Frames per second (60 unless given; non-positive values become 60).
    public let refreshRate: Double

    // Guarded by `lock`: written on the render thread, read by any thread.
    private let lock = NSCondition()
    private var frame: Bitmap
    private var nextIndex = 0
    private var closed = false
    private var presented = 0
    private var captureFolder: String?
    private var captureStride = 1
    private var captureFailure: RasterError?
    private var keeps = true
    /// `frame` missed presents (``keepsFrames`` was false): the next copy is the whole buffer.
    private var frameIsStale = false
    private let start = DispatchTime.now().uptimeNanoseconds

    /// An in-memory output of `pixelWidth` × `pixelHeight` device pixels at `scale`, cleared to
    /// transparent; throws when the size is invalid.
    public init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1, clock: Clock = .virtual,
                refreshRate: Double = 60) throws(RasterError) {
        self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
        self.scale = scale; self.clock = clock
        self.refreshRate = refreshRate.isFinite && refreshRate > 0 ? refreshRate : 60
        frame = try Bitmap(width: pixelWidth, height: pixelHeight)
    }

    public func waitForFrame() -> FrameTiming? {
        lock.lock()
        let index = nextIndex
        nextIndex += 1
        let isClosed = closed
        lock.unlock()
        if isClosed { return nil }
        let slot = Double(index) / refreshRate
        if clock == .realTime {
            // Sleep to the next slot boundary after now (frames are not queued up when late).
            let now = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let target = max(slot, (now * refreshRate).rounded(.up) / refreshRate)
            if target > now { usleep(useconds_t((target - now) * 1e6)) }
            return FrameTiming(index: index, time: target)
        }
        return FrameTiming(index: index, time: slot)
    }

    /// Whether each present copies the damage into the presenter's frame (default true). With
    /// false, nothing is copied unless ``captureEveryFrame(into:stride:)`` is due to write this
    /// frame, which then copies the whole back buffer; in between, ``currentFrame()`` and
    /// ``capturePNG(to:)`` see the frame as of the last copy. Any thread.
    public var keepsFrames: Bool {
        get { lock.lock(); defer { lock.unlock() }; return keeps }
        set { lock.lock(); keeps = newValue; lock.unlock() }
    }

    public func present(_ backBuffer: Bitmap, damage: DamageRegion, timing: FrameTiming) throws {
        lock.lock()
        defer { lock.unlock() }
        presented += 1
        // Every `captureStride`-th frame is written (1, 1 + stride, …).
        let dueFolder = captureFolder.flatMap { captureStride == 1 || presented % captureStride == 1 ? $0 : nil }
        if keeps || dueFolder != nil {
            if frameIsStale {
                frame.composite(backBuffer, from: frame.bounds, to: Point(x: 0, y: 0), operation: .source)
                frameIsStale = false
            } else {
                for r in damage.rects { frame.composite(backBuffer, from: r, to: r.origin, operation: .source) }
            }
        } else {
            frameIsStale = true
        }
        if let folder = dueFolder {
            // A capture that cannot be written (a full disk) stops capturing, not presenting:
            // captures are diagnostics, and the app keeps running. Reported once.
            do { try frame.writePNG(to: "\(folder)/frame-\(String(format: "%05d", presented)).png") } catch {
                captureFolder = nil
                captureFailure = error
                logger.error("headless: frame capture stopped: \(error)")
            }
        }
        lock.broadcast()
    }

    public func close() {
        lock.lock(); closed = true; lock.broadcast(); lock.unlock()
    }

    /// Why `captureEveryFrame` stopped capturing (nil while it works).
    public var captureError: RasterError? { lock.lock(); defer { lock.unlock() }; return captureFailure }

    /// Frames presented so far.
    public var presentedFrames: Int { lock.lock(); defer { lock.unlock() }; return presented }

    /// A copy of the last presented frame (with ``keepsFrames`` false: of the last one copied).
    public func currentFrame() throws(RasterError) -> Bitmap {
        lock.lock(); defer { lock.unlock() }
        return try frame.copy()
    }

    /// Writes the current frame as PNG now.
    public func capturePNG(to path: String) throws(RasterError) {
        try currentFrame().writePNG(to: path)
    }

    /// Writes every `stride`-th presented frame as `frame-NNNNN.png` (N: presented-frame
    /// number) into `folder`; nil stops.
    public func captureEveryFrame(into folder: String?, stride: Int = 1) {
        lock.lock(); captureFolder = folder; captureStride = max(1, stride); lock.unlock()
    }

    /// Blocks until at least `count` frames were presented or `timeout` seconds passed.
    @discardableResult
    public func waitUntilPresented(_ count: Int, timeout: Double) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while presented < count {
            if !lock.wait(until: deadline) { return presented >= count }
        }
        return true
    }
}
