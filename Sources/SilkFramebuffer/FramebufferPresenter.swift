// The framebuffer presenter and its buffer lifecycle (STYLE point 9).
//
// BUFFERS. The shadow is the compositor's back buffer: premultiplied ARGB32 in cached RAM, always
// holding the whole current frame. Device memory is only ever written, never read (reads of
// write-combined display memory are very slow on real boards):
// - Single buffer (the default): each present converts the damaged rectangles of the shadow into
//   the visible page. Rows are written top to bottom; a frame may tear where the scan-out passes.
// - Double buffer (pan): memory holds two pages; the hidden one is drawn and then shown with
//   FBIOPAN_DISPLAY. A page was last drawn two frames ago, so it receives this frame's damage plus
//   the damage of the frame it missed (buffer age 2); a page never drawn gets a full copy.
// DAMAGE is in logical pixels (the application's, rotated screens included); the converter maps
// each rectangle to the device rectangle it occupies.
// PACING: see FramePacing.swift. `waitForFrame` waits for the vertical blank (on the helper thread,
// with a timeout) or for the next timer slot; `present` pans after copying when double-buffered.
import Foundation
import Glibc
import SilkGeometry
import SilkRaster
import SilkRender
import SilkSystem

/// How to open and drive a framebuffer.
public struct FramebufferOptions: Sendable {
    /// Device path; nil: `$SILK_FBDEV`, else the first usable of /dev/fb0 … /dev/fb9.
    public var devicePath: String?
    public var rotation: Rotation = .none
    /// Pan-based double buffering (`auto`: when the memory holds two pages and a pan sticks).
    public var doubleBuffering: FeatureChoice = .auto
    /// FBIO_WAITFORVSYNC pacing (`auto`: when a probe shows it blocks for about a frame).
    public var vsync: FeatureChoice = .auto
    /// Timer rate when not paced by vsync; nil: the mode's refresh rate, else 60 Hz.
    public var refreshRate: Double?
    /// Ordered dithering when the device is 16 bpp.
    public var dither = false
    /// Device pixels per point.
    public var scale: Double = 1
    public init() {}
}

/// Shows frames on a Linux framebuffer through a `FramebufferDevice`.
///
/// Invariant behind `@unchecked Sendable`: after `init`, the device memory, pages and damage
/// history are touched only on the render thread (`waitForFrame`/`present`); `closed` is behind
/// `lock`, and `close()` (any thread) only sets it and wakes a waiting `waitForFrame`.
public final class FramebufferPresenter: Presenter, @unchecked Sendable {
    public let device: any FramebufferDevice
    public let info: ScreenInfo
    public let format: FramebufferPixelFormat
    public let rotation: Rotation
    public let pixelWidth: Int
    public let pixelHeight: Int
    public let scale: Double
    public let name = "fbdev"
    public let pacing: PacingReport

    private let memory: UnsafeMutableRawPointer
    private let converter: PixelConverter
    private let pageBytes: Int
    /// The page on screen (0 or 1); with one page always 0.
    private var shownPage = 0
    /// Per page: the frame it holds (`BufferAgeDamage` numbering; 0: never drawn, so it needs a
    /// full copy).
    private var pageFrame = [0, 0]
    /// Damage of the recent presents (what the hidden page missed: with two pages, one frame).
    private var damageHistory = BufferAgeDamage(historyLimit: 2)
    private let vsyncWaiter: VSyncWaiter?
    private let lock = NSCondition()
    private var closed = false
    /// Held while device memory is written; `shutDown()` takes it so nothing is drawn after it.
    private let presentLock = Lock()
    private var isShutDown = false
    private var nextIndex = 0
    private var lastSlot: Double?
    private let start = monotonicSeconds()
    /// Statistics of the last present (render thread; read after `present` returns).
    public private(set) var lastCopyNanoseconds: UInt64 = 0
    public private(set) var lastCopiedPixels = 0
    public private(set) var vsyncTimeouts = 0

    /// Opens the presenter on `device`: reads its geometry and format (unsupported ones throw,
    /// naming the device), maps its memory and decides the pacing.
    public init(device: any FramebufferDevice, options: FramebufferOptions = FramebufferOptions()) throws(FramebufferError) {
        self.device = device
        let info = try device.screenInfo()
        let format = try info.pixelFormat(device: device.path)
        try info.validate(device: device.path, format: format)
        self.info = info; self.format = format
        rotation = options.rotation
        (pixelWidth, pixelHeight) = rotation.logicalSize(deviceWidth: info.width, deviceHeight: info.height)
        scale = options.scale.isFinite && options.scale > 0 ? options.scale : 1
        converter = PixelConverter(format: format, rotation: rotation, dither: options.dither && format.bitsPerPixel == 16)
        pageBytes = info.lineLength * info.height
        memory = try device.mapMemory(length: max(info.memoryLength, pageBytes))

        var notes: [String] = []
        // Double buffering: two pages must fit, and a pan must stick (FBIOGET shows the offset).
        var doubleBuffered = false
        if options.doubleBuffering != .off {
            if info.virtualHeight < 2 * info.height || info.memoryLength < 2 * pageBytes {
                notes.append("no pan: virtual height \(info.virtualHeight) < 2 × \(info.height)")
            } else if info.yPanStep == 0 && options.doubleBuffering == .auto {
                notes.append("no pan: the driver reports ypanstep 0")
            } else {
                do {
                    try device.pan(yOffset: info.height)
                    let after = try device.screenInfo()
                    try device.pan(yOffset: 0)
                    if after.yOffset == info.height { doubleBuffered = true }
                    else { notes.append("no pan: the offset did not stick (yoffset \(after.yOffset) after panning to \(info.height))") }
                } catch {
                    notes.append("no pan: \(error)")
                }
            }
        } else { notes.append("pan off") }
        if !doubleBuffered, info.yOffset != 0 { try? device.pan(yOffset: 0) }

        // Refresh rate: the option, else the mode's timings, else 60 Hz.
        var rate = options.refreshRate ?? info.refreshRate ?? 60
        if options.refreshRate == nil && info.refreshRate == nil { notes.append("the mode reports no timings: assuming 60 Hz") }
        if !rate.isFinite || rate <= 0 { rate = 60 }

        // Vsync: probe four waits; back-to-back waits must block for some time (a real vblank wait
        // after the first lasts about a frame), but not forever. One wait after the first that
        // returns within 2 ms marks a no-op: a real one never does below 500 Hz, while a busy
        // machine can delay any wait (the handoff to the waiter thread), so "all were short"
        // would call a no-op real under load.
        var waiter: VSyncWaiter?
        if options.vsync != .off {
            let w = VSyncWaiter(device: device)
            var verdict: String?
            var durations: [Double] = []
            for _ in 0..<4 {
                let t0 = monotonicSeconds()
                switch w.wait(timeout: 0.1) {
                case .signalled: durations.append(monotonicSeconds() - t0)
                case .timedOut: verdict = "FBIO_WAITFORVSYNC did not return within 100 ms"
                case let .failed(why): verdict = why
                }
                if verdict != nil { break }
            }
            if verdict == nil, options.vsync == .auto, durations.dropFirst().contains(where: { $0 < 0.002 }) {
                verdict = "FBIO_WAITFORVSYNC returns at once (a no-op)"
            }
            if let verdict { notes.append("no vsync: \(verdict)"); w.stop() }
            else { waiter = w }
        } else { notes.append("vsync off") }
        vsyncWaiter = waiter
        pacing = PacingReport(doubleBuffered: doubleBuffered, vsync: waiter != nil, refreshRate: rate, notes: notes)
    }

    deinit { vsyncWaiter?.stop() }

    /// One line for start-up logs: device, mode, format, rotation and pacing.
    public var startupReport: String {
        "\(device.path) (\(info.id)): \(info.width)×\(info.height) \(format), line \(info.lineLength) bytes, rotation \(rotation)\(converter.dither ? ", dithered" : ""); \(pacing)"
    }

    // MARK: Presenter

    public func waitForFrame() -> FrameTiming? {
        lock.lock()
        if closed { lock.unlock(); return nil }
        let index = nextIndex
        nextIndex += 1
        lock.unlock()
        let period = 1 / pacing.refreshRate
        if let vsyncWaiter {
            switch vsyncWaiter.wait(timeout: period * VSyncWaiter.timeoutFactor) {
            case .signalled:
                let now = monotonicSeconds() - start
                lastSlot = now
                return isClosed ? nil : FrameTiming(index: index, time: now)
            case .timedOut, .failed:
                vsyncTimeouts += 1  // fall through to the timer for this frame
            }
        }
        // Timer: the next slot boundary after the previous frame's slot (never queueing up).
        let now = monotonicSeconds() - start
        let next = max((lastSlot ?? now - period) + period, (now * pacing.refreshRate).rounded(.up) / pacing.refreshRate)
        lastSlot = next
        lock.lock()
        defer { lock.unlock() }
        while !closed {
            let remaining = next - (monotonicSeconds() - start)
            if remaining <= 0 { break }
            _ = lock.wait(until: Date(timeIntervalSinceNow: remaining))
        }
        return closed ? nil : FrameTiming(index: index, time: next)
    }

    private var isClosed: Bool { lock.lock(); defer { lock.unlock() }; return closed }

    public func present(_ backBuffer: Bitmap, damage: DamageRegion, timing: FrameTiming) throws {
        guard backBuffer.width == pixelWidth, backBuffer.height == pixelHeight else {
            throw FramebufferError(device: device.path, kind: .unsupported("back buffer \(backBuffer.width)×\(backBuffer.height) does not match the screen \(pixelWidth)×\(pixelHeight)"))
        }
        presentLock.lock()
        defer { presentLock.unlock() }
        if isClosed { return }
        let t0 = DispatchTime.now().uptimeNanoseconds
        let page = pacing.doubleBuffered ? 1 - shownPage : 0
        var region: DamageRegion
        if let copy = damageHistory.damageToCopy(intoBufferHolding: pageFrame[page], damage: damage) {
            region = copy
        } else {
            region = DamageRegion()
            region.add(backBuffer.bounds)
        }
        pageFrame[page] = damageHistory.nextFrame
        let base = memory + page * pageBytes
        var pixels = 0
        for r in region.clipped(to: backBuffer.bounds).rects {
            converter.copy(r, from: backBuffer, to: base, lineLength: info.lineLength,
                           deviceWidth: info.width, deviceHeight: info.height)
            pixels += Int(r.width * r.height)
        }
        if pacing.doubleBuffered {
            do { try device.pan(yOffset: page * info.height) } catch { throw error.vanishedIfGone }
            shownPage = page
        }
        damageHistory.record(damage)
        lastCopiedPixels = pixels
        lastCopyNanoseconds = DispatchTime.now().uptimeNanoseconds - t0
    }

    public func close() {
        lock.lock(); closed = true; lock.broadcast(); lock.unlock()
    }

    /// Asks the driver whether the device is still there (FBIOGET_VSCREENINFO). A display that
    /// was unplugged or whose driver was unbound keeps its mapping writable, so drawing alone
    /// never notices; this ioctl then fails with ENODEV. The framebuffer session calls it once
    /// a second and ends the app with the error (the console is restored on the way out).
    /// Any thread; does nothing after `shutDown`.
    public func checkDevice() throws(FramebufferError) {
        presentLock.lock()
        defer { presentLock.unlock() }
        guard !isShutDown else { return }
        do { _ = try device.screenInfo() } catch { throw error.vanishedIfGone }
    }

    /// Shows page 0 again, stops the vsync helper and closes the device (after the render
    /// thread stopped). The console is restored separately (`Console`).
    /// Waits for a present in progress; afterwards nothing is written to the device. Any thread.
    public func shutDown() {
        close()
        presentLock.lock()
        defer { presentLock.unlock() }
        guard !isShutDown else { return }
        isShutDown = true
        vsyncWaiter?.stop()
        if pacing.doubleBuffered, shownPage != 0 { try? device.pan(yOffset: 0) }
        device.close()
    }
}
