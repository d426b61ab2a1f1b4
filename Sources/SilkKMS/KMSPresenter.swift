// The DRM/KMS presenter (STYLE point 9: its buffer lifecycle).
//
// BUFFERS. Two (or three) dumb buffers, XRGB8888, each a DRM framebuffer. One is on screen (the
// front), at most one is queued by a page flip (pending); the render thread draws into another.
// Dumb-buffer memory is only ever written, never read (often write-combined or across a bus). A
// buffer receives the damage of every frame since the one it holds (buffer age, `BufferAgeDamage`
// as the Wayland presenter does), or a full copy when it never held one.
// PACING. `present` queues the buffer with drmModePageFlip(DRM_MODE_PAGE_FLIP_EVENT); the kernel
// sends the flip-complete event at the vertical blank that shows it. The event is read from the
// DRM descriptor on Silk's epoll loop — a presenter-owned `EventLoopThread` ("silk.kms.flip"), so
// a busy main thread never delays it — and never by a blocking read. `waitForFrame` returns once
// a buffer is free (with two buffers: once the last flip completed). Drivers without a vblank
// interrupt (QEMU's bochs) complete flips at once; a probe (DRM_IOCTL_WAIT_VBLANK, relative 0,
// which never blocks) finds them and a timer at the mode's rate paces those.
// RESTORE. The CRTC's previous framebuffer, position, connectors and mode are saved before the
// modeset and put back by `shutDown` (normal exit, SIGINT/SIGTERM through the session's exit
// observer) and by the C display guard's atexit and fatal-signal handlers (crashes).
import CDRM
import CSilkLinux
import Foundation
import Glibc
import SilkFramebuffer
import SilkGeometry
import SilkRaster
import SilkRender
import SilkRunLoop
import SilkSystem

/// Flip statistics of a KMS presenter (for `silk bench --backend kms` and logs).
public struct KMSStatistics: Sendable, Equatable {
    /// Frames the render thread presented (each one page flip requested).
    public var framesPresented = 0
    /// Flip-complete events received.
    public var flipsCompleted = 0
    /// Seconds between consecutive flip-complete events (the display's real present interval),
    /// at most the last 100,000.
    public var flipIntervals: [Double] = []
    /// Seconds from each drmModePageFlip call (the commit) to its flip-complete event's timestamp,
    /// at most the last 100,000.
    public var flipLatencies: [Double] = []
    /// Flips that took longer than the timeout (the driver never sent the event).
    public var flipTimeouts = 0
    /// Empty statistics.
    public init() {}
}

/// Shows frames on a DRM/KMS display: dumb buffers, legacy modesetting, page flips paced by the
/// display's vertical blank.
///
/// Threads: `waitForFrame`/`present` on the render thread; `close`, `checkDevice`, `shutDown`,
/// `statistics` from any thread. Invariant behind `@unchecked Sendable`: buffer memory and the
/// damage history are touched only by the render thread inside `presentLock`; flip state
/// (`front`, `pending`, statistics, `closed`) is behind `state` (an `NSCondition`), which the flip
/// thread signals.
public final class KMSPresenter: Presenter, ConsoleDisplay, @unchecked Sendable {
    /// The card (`/dev/dri/card0`).
    public let devicePath: String
    /// The connector shown on (`Virtual-1`).
    public let connectorName: String
    /// The mode set.
    public let mode: KMSMode
    /// Software rotation of the picture (and touches).
    public let rotation: Rotation
    /// Logical width in device pixels (after rotation).
    public let pixelWidth: Int
    /// Logical height in device pixels (after rotation).
    public let pixelHeight: Int
    /// Device pixels per point.
    public let scale: Double
    /// "kms".
    public let name = "kms"
    /// Whether the driver has vblank interrupts (else a timer at the mode's rate paces frames).
    public let hasVBlank: Bool
    /// Dumb buffers in the swap chain (2 or 3).
    public let bufferCount: Int

    private let fd: Int32
    /// The seat the card was opened through (nil: open(2)).
    private let seat: (any DeviceSeat)?
    private let connectorID: UInt32
    private let crtcID: UInt32
    private let converter: PixelConverter
    /// How `--rotate` is done: by the primary plane, or in software while copying (and why).
    public let rotationPath: RotationPath
    private let period: Double

    private struct Buffer {
        var handle: UInt32
        var fbID: UInt32
        var pitch: Int
        var size: Int
        var memory: UnsafeMutableRawPointer
        /// The frame it holds (`BufferAgeDamage` numbering; 0: never drawn).
        var frame = 0
    }
    private var buffers: [Buffer]
    /// The atomic pipeline (nil: legacy modesetting). Used under `state`.
    private var atomic: KMSAtomic?
    /// "atomic modesetting (primary plane 31)" or "legacy modesetting" (and why, with `auto`).
    public let modesetting: String
    /// Whether atomic modesetting is in use.
    public var usesAtomic: Bool { state.lock(); defer { state.unlock() }; return atomic != nil }
    private var damageHistory = BufferAgeDamage(historyLimit: 8)
    private let presentLock = Lock()

    private let state = NSCondition()
    private var front = 0
    private var pending: Int?
    private var commitTime = 0.0
    private var lastFlipTime: Double?
    private var closed = false
    private var isShutDown = false
    /// The seat switched away (another VT): nothing is flipped until `seatEnabled`.
    private var paused = false
    /// `--wait-for-display`: a lost connector pauses presenting instead of failing.
    private let waitForDisplay: Bool
    /// The connector is gone and presenting waits for it (with `waitForDisplay`).
    private var waitingForDisplay = false
    /// Set when the display came back: the session repaints everything (`takeRepaintRequest`).
    private var repaintRequested = false
    private var stats = KMSStatistics()
    private var nextIndex = 0
    private let start = KMSPresenter.now()
    private var flipThread: EventLoopThread?

    /// How long a flip may take before it counts as lost.
    static let flipTimeout = 1.0

    /// Opens the card (`options.devicePath`, else the first card with a connected connector),
    /// picks the connector and mode, allocates the buffers, saves the CRTC and sets the mode.
    /// Throws a `KMSError` naming the device and the problem.
    public init(options: KMSOptions = KMSOptions()) throws(KMSError) {
        // 1. The card and connector.
        var chosen: (path: String, fd: Int32, connector: KMSConnectorInfo)?
        var problems: [KMSError] = []
        var waitingSince: Double?
        search: while true {
        let paths = options.devicePath.map { [$0] } ?? KMSCard.candidatePaths()
        if paths.isEmpty { throw KMSError(device: "/dev/dri/card0", kind: .missing) }
        problems = []
        for path in paths {
            let fd: Int32
            do { fd = try KMSCard.open(path, seat: options.seat) } catch { problems.append(error); continue }
            let connectors = KMSCard.connectors(fd: fd)
            let pick: KMSConnectorInfo?
            if let name = options.connector {
                pick = connectors.first { $0.name == name && $0.connected }
                if pick == nil { problems.append(KMSError(device: path, kind: .connectorUnavailable(requested: name, available: KMSCard.describe(connectors)))) }
            } else {
                pick = connectors.first(where: \.connected)
                if pick == nil { problems.append(KMSError(device: path, kind: .noConnectedConnector(KMSCard.describe(connectors)))) }
            }
            if let pick { chosen = (path, fd, pick); break }
            KMSCard.close(fd, seat: options.seat)
        }
        // --wait-for-display: no display connected yet (and nothing else wrong): ask again every
        // half second (start-up has no loop yet; SIGINT/SIGTERM, blocked for the loop's signalfd,
        // are looked for while waiting).
        guard chosen == nil, options.waitForDisplay, !problems.isEmpty,
              problems.allSatisfy({ KMSPresenter.isWaitableAbsence($0.kind) }) else { break search }
        if waitingSince == nil {
            waitingSince = KMSPresenter.now()
            logger.notice("kms: \(problems[0]); waiting for a display to be connected (--wait-for-display)")
        }
        if let signal = KMSPresenter.pendingTerminationSignal() {
            throw KMSError(device: problems[0].device, kind: .systemCall(SystemCallError(call: "waiting for a display (signal \(signal))", errno: EINTR)))
        }
        usleep(500_000)
        }
        if let waitingSince, chosen != nil {
            logger.notice("kms: a display was connected after \(String(format: "%.1f", KMSPresenter.now() - waitingSince)) s")
        }
        guard let chosen else {
            // One card: its own error. Several: the most specific one first, naming the rest.
            if problems.count == 1 { throw problems[0] }
            let first = problems.first { if case .missing = $0.kind { return false }; return true } ?? problems[0]
            throw KMSError(device: first.device, kind: first.kind)
        }
        fd = chosen.fd
        seat = options.seat
        devicePath = chosen.path
        connectorID = chosen.connector.id
        connectorName = chosen.connector.name
        var ok = false
        defer { if !ok { KMSCard.close(chosen.fd, seat: options.seat) } }

        // 2. Mode and CRTC.
        guard let mode = KMSCard.chooseMode(chosen.connector.modes, request: options.mode) else {
            throw KMSError(device: chosen.path, kind: .modeUnavailable(requested: options.mode?.description ?? "?",
                                                                       available: KMSCard.describe(chosen.connector.modes)))
        }
        self.mode = mode
        guard let crtc = KMSCard.crtc(fd: fd, for: chosen.connector) else {
            throw KMSError(device: chosen.path, kind: .noCRTC(chosen.connector.name))
        }
        crtcID = crtc.id
        rotation = options.rotation
        (pixelWidth, pixelHeight) = rotation.logicalSize(deviceWidth: mode.width, deviceHeight: mode.height)
        scale = options.scale.isFinite && options.scale > 0 ? options.scale : 1
        period = 1 / (mode.refresh.isFinite && mode.refresh > 1 ? mode.refresh : 60)
        bufferCount = min(3, max(2, options.bufferCount))
        waitForDisplay = options.waitForDisplay

        // 3. Buffers (freed again if anything below fails).
        var made: [Buffer] = []
        func release() { for b in made { KMSPresenter.destroy(b, fd: chosen.fd) } }
        for _ in 0..<bufferCount {
            do { made.append(try KMSPresenter.makeBuffer(fd: fd, width: mode.width, height: mode.height, device: chosen.path)) }
            catch { release(); throw error }
        }
        // Black, so the first modeset shows no garbage.
        for b in made { memset(b.memory, 0, b.size) }
        buffers = made

        // 4. Save the CRTC, arm the guard, set the mode.
        let crtcID = crtc.id, connectorID = chosen.connector.id, fd = chosen.fd
        let saved = drmModeGetCrtc(fd, crtcID)
        if let saved {
            var oldMode = saved.pointee.mode
            var conns = [connectorID]
            let valid = saved.pointee.mode_valid != 0 && saved.pointee.buffer_id != 0
            _ = withUnsafePointer(to: &oldMode) { m in
                silk_display_guard_arm(chosen.fd, crtcID, valid ? saved.pointee.buffer_id : 0, saved.pointee.x, saved.pointee.y,
                                       &conns, valid ? 1 : 0, valid ? UnsafeRawPointer(m) : nil, valid ? MemoryLayout<drmModeModeInfo>.size : 0)
            }
            drmModeFreeCrtc(saved)
        }
        // Atomic where the driver offers it (`--kms-api`): one validated commit for connector,
        // CRTC and primary plane; else (or when that commit is refused, with `auto`) legacy.
        var pipe: KMSAtomic?
        var note = ""
        var rotationPath = RotationPath.choose(rotation, offered: nil)
        if options.api != .legacy {
            switch KMSAtomic.setUp(fd: fd, crtcID: crtcID, crtcIndex: crtc.index, connectorID: connectorID,
                                   width: mode.width, height: mode.height) {
            case var .success(a):
                // --rotate: the plane turns the picture where it offers the turn (180°), proved
                // by the test-only commit; refused, the same commit without it, in software.
                rotationPath = RotationPath.choose(rotation, offered: a.offeredRotations)
                if case let .plane(bit) = rotationPath { a.planeRotation = bit }
                var failure = a.modeset(fd: fd, mode: mode.raw, fb: made[0].fbID)
                if failure != nil, let bit = a.planeRotation {
                    rotationPath = .software("the driver refused \(bit) in a test-only commit: \(failure!)")
                    a.planeRotation = nil
                    failure = a.modeset(fd: fd, mode: mode.raw, fb: made[0].fbID)
                }
                if let e = failure {
                    if options.api == .atomic || e.errno == EACCES || e.errno == EPERM {
                        silk_display_guard_disarm()
                        release()
                        throw KMSError(device: chosen.path, kind: e.errno == EACCES || e.errno == EPERM ? .notMaster(e) : .atomicUnavailable("\(e)"))
                    }
                    _ = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 0)
                    note = " (the atomic commit was refused: \(e))"
                } else {
                    pipe = a
                }
            case let .failure(why):
                if options.api == .atomic {
                    silk_display_guard_disarm()
                    release()
                    throw KMSError(device: chosen.path, kind: .atomicUnavailable(why.reason))
                }
                note = " (\(why.reason))"
            }
        }
        atomic = pipe
        if pipe == nil, rotation != .none {
            rotationPath = .software(options.api == .legacy ? "--kms-api legacy has no plane properties" : "legacy modesetting has no plane properties")
        }
        self.rotationPath = rotationPath
        // The plane turns the buffers as they are; else the copy into them turns the picture.
        if case .plane = rotationPath { converter = PixelConverter(format: .xrgb8888, rotation: .none) }
        else { converter = PixelConverter(format: .xrgb8888, rotation: rotation) }
        if rotation != .none { logger.notice("\(rotationPath.logLine(rotation))") }
        modesetting = pipe.map { "atomic modesetting (primary plane \($0.planeID))" } ?? "legacy modesetting" + note
        if pipe == nil {
            var connector = connectorID
            var raw = mode.raw
            if drmModeSetCrtc(fd, crtcID, made[0].fbID, 0, 0, &connector, 1, &raw) != 0 {
                let e = SystemCallError(call: "drmModeSetCrtc", errno: errno)
                silk_display_guard_disarm()
                release()
                throw KMSError(device: chosen.path, kind: e.errno == EACCES || e.errno == EPERM ? .notMaster(e) : .systemCall(e))
            }
        }
        front = 0

        // 5. Is there a vblank interrupt? A relative wait for 0 vblanks never blocks; drivers
        // without vblank support refuse it (EOPNOTSUPP/EINVAL).
        var vbl = drmVBlank()
        var type = DRM_VBLANK_RELATIVE.rawValue
        if crtc.index == 1 { type |= DRM_VBLANK_SECONDARY.rawValue }
        else if crtc.index > 1 { type |= (UInt32(crtc.index) << UInt32(DRM_VBLANK_HIGH_CRTC_SHIFT)) & DRM_VBLANK_HIGH_CRTC_MASK.rawValue }
        vbl.request.type = drmVBlankSeqType(rawValue: type)
        vbl.request.sequence = 0
        hasVBlank = drmWaitVBlank(fd, &vbl) == 0
        ok = true

        // 6. The flip thread: reads flip-complete events when the descriptor is readable.
        let drmFD = fd
        do {
            flipThread = try EventLoopThread(name: "silk.kms.flip") { loop in
                _ = try? loop.addSource(fd: drmFD, events: .readable) { _ in
                    var ctx = drmEventContext()
                    ctx.version = 2
                    ctx.page_flip_handler = { _, _, sec, usec, data in
                        guard let data else { return }
                        Unmanaged<KMSPresenter>.fromOpaque(data).takeUnretainedValue()
                            .flipCompleted(at: Double(sec) + Double(usec) / 1e6)
                    }
                    _ = drmHandleEvent(drmFD, &ctx)
                }
            }
        } catch {
            shutDown()
            throw KMSError(device: chosen.path, kind: .systemCall(error))
        }
        logger.debug("kms: \(startupReport)")
    }

    deinit { shutDown() }

    /// One line for start-up logs: card, connector, mode, buffers, pacing, rotation.
    public var startupReport: String {
        "\(devicePath)\(seat.map { " (through \($0.seatDescription))" } ?? ""): \(connectorName) \(mode), XRGB8888, \(bufferCount) dumb buffers, \(modesetting), page flips "
            + (hasVBlank ? "paced by vblank events" : "(the driver has no vblank interrupt: paced by a timer at \(String(format: "%.2f", 1 / period)) Hz)")
            + ", rotation \(rotation)" + (rotation == .none ? "" : { if case .plane = rotationPath { " (by the plane)" } else { " (in software)" } }())
    }

    /// The screen's width in device pixels (the mode's).
    public var deviceWidth: Int { mode.width }
    /// The screen's height in device pixels (the mode's).
    public var deviceHeight: Int { mode.height }
    /// "kms".
    public var failurePrefix: String { "kms" }

    /// A copy of the flip statistics so far. Any thread.
    public var statistics: KMSStatistics { state.lock(); defer { state.unlock() }; return stats }

    // MARK: Presenter

    /// Blocks until a buffer is free to draw into (two buffers: the last flip completed; without
    /// vblank interrupts also the mode's frame period passed since it), or the presenter closed.
    public func waitForFrame() -> FrameTiming? {
        state.lock()
        defer { state.unlock() }
        // Switched to another VT: wait (without a timeout) until the seat is back.
        while !closed && (paused || waitingForDisplay) { state.wait() }
        let deadline = Date(timeIntervalSinceNow: KMSPresenter.flipTimeout)
        while !closed && freeBuffer() == nil {
            if !state.wait(until: deadline) { break }   // present() reports the lost flip
        }
        if !hasVBlank, let last = lastFlipTime {
            let next = Date(timeIntervalSinceNow: last + period - KMSPresenter.now())
            while !closed && next.timeIntervalSinceNow > 0 { _ = state.wait(until: next) }
        }
        if closed { return nil }
        let index = nextIndex
        nextIndex += 1
        return FrameTiming(index: index, time: KMSPresenter.now() - start)
    }

    /// A buffer neither on screen nor queued (state lock held).
    private func freeBuffer() -> Int? {
        (0..<bufferCount).first { $0 != front && $0 != pending }
    }

    /// Copies the damage (plus what the buffer missed) into a free buffer and queues it with a
    /// page flip; with three buffers the copy overlaps the previous flip's wait.
    public func present(_ backBuffer: Bitmap, damage: DamageRegion, timing: FrameTiming) throws {
        guard backBuffer.width == pixelWidth, backBuffer.height == pixelHeight else {
            throw KMSError(device: devicePath, kind: .systemCall(SystemCallError(call: "present (back buffer \(backBuffer.width)×\(backBuffer.height), screen \(pixelWidth)×\(pixelHeight))", errno: EINVAL)))
        }
        presentLock.lock()
        defer { presentLock.unlock() }
        state.lock()
        let target = closed ? nil : freeBuffer()
        state.unlock()
        guard let target else {
            if isClosed { return }
            state.lock(); stats.flipTimeouts += 1; state.unlock()
            throw KMSError(device: devicePath, kind: .flipTimeout("a page flip did not complete within \(Int(KMSPresenter.flipTimeout)) s (the driver sent no flip event)"))
        }
        var b = buffers[target]
        let region: DamageRegion
        if let copy = damageHistory.damageToCopy(intoBufferHolding: b.frame, damage: damage) { region = copy }
        else { var all = DamageRegion(); all.add(backBuffer.bounds); region = all }
        for r in region.clipped(to: backBuffer.bounds).rects {
            converter.copy(r, from: backBuffer, to: b.memory, lineLength: b.pitch, deviceWidth: mode.width, deviceHeight: mode.height)
        }
        b.frame = damageHistory.record(damage)
        buffers[target] = b

        // One flip at a time: wait for the previous one (three buffers) before queueing this.
        state.lock()
        defer { state.unlock() }
        let deadline = Date(timeIntervalSinceNow: KMSPresenter.flipTimeout)
        while !closed && pending != nil {
            if !state.wait(until: deadline) {
                stats.flipTimeouts += 1
                throw KMSError(device: devicePath, kind: .flipTimeout("a page flip did not complete within \(Int(KMSPresenter.flipTimeout)) s (the driver sent no flip event)"))
            }
        }
        // Switched away while copying: the buffer keeps the frame (its age is recorded), the
        // flip waits for `seatEnabled`, which shows the newest complete buffer.
        if closed || paused || waitingForDisplay { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Before the call: a driver without vblank completes (and stamps) the flip inside it.
        let committed = KMSPresenter.now()
        let flipped = atomic.map { $0.flip(fd: fd, fb: b.fbID, userData: context) }
            ?? drmModePageFlip(fd, crtcID, b.fbID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), context)
        if flipped != 0 {
            let e = SystemCallError(call: atomic == nil ? "drmModePageFlip" : "drmModeAtomicCommit(flip)", errno: errno)
            if e.errno == ENODEV || e.errno == ENXIO || e.errno == EIO || e.errno == ENOENT {
                throw KMSError(device: devicePath, kind: .disconnected("\(connectorName) (\(e))"))
            }
            throw KMSError(device: devicePath, kind: .systemCall(e))
        }
        pending = target
        commitTime = committed
        stats.framesPresented += 1
    }

    /// Called on the flip thread for each flip-complete event (`time`: the event's timestamp,
    /// CLOCK_MONOTONIC seconds).
    private func flipCompleted(at time: Double) {
        state.lock()
        defer { state.unlock() }
        guard let p = pending else { return }
        front = p
        pending = nil
        stats.flipsCompleted += 1
        // Drivers without vblank stamp the event at completion; never report a negative latency.
        let stamp = time > 0 ? time : KMSPresenter.now()
        if let last = lastFlipTime { append(&stats.flipIntervals, max(0, stamp - last)) }
        append(&stats.flipLatencies, max(0, stamp - commitTime))
        lastFlipTime = stamp
        state.broadcast()
    }

    private func append(_ list: inout [Double], _ value: Double) {
        if list.count >= 100_000 { list.removeFirst(list.count - 99_999) }
        list.append(value)
    }

    private var isClosed: Bool { state.lock(); defer { state.unlock() }; return closed }

    /// Unblocks `waitForFrame` and makes it return nil. Any thread.
    public func close() {
        state.lock(); closed = true; state.broadcast(); state.unlock()
    }

    /// Asks the kernel whether the connector is still connected (no forced probe: the state hot
    /// plug detection keeps). Throws `KMSError.disconnected` once it is not — unless the presenter
    /// waits for displays (`KMSOptions.waitForDisplay`): then presenting pauses until the
    /// connector is back with the mode in use, which is set again (a display without that mode
    /// throws `.modeUnavailable`). Any thread (the session: the main loop, once a second); does
    /// nothing after `shutDown`.
    public func checkDevice() throws {
        // `shutDown` closes the card under `presentLock`: holding it, the descriptor stays valid.
        presentLock.lock()
        defer { presentLock.unlock() }
        state.lock()
        let done = isShutDown
        state.unlock()
        if done { return }
        let c = connectorState()
        state.lock()
        defer { state.unlock() }
        let action = KMSPresenter.hotplugAction(connected: c.connected, modes: c.modes, current: mode,
                                                 waiting: waitingForDisplay, waitForDisplay: waitForDisplay)
        switch action {
        case .none, .keepWaiting:
            return
        case .fail:
            throw KMSError(device: devicePath, kind: .disconnected(c.error.map { "\(connectorName) (\($0))" } ?? connectorName))
        case .startWaiting:
            waitingForDisplay = true
            while pending != nil { if !state.wait(until: Date(timeIntervalSinceNow: 0.1)) { break } }
            if let p = pending { front = p; pending = nil }
            logger.notice("kms: connector \(connectorName) on \(devicePath) was disconnected: presenting paused, waiting for a display (--wait-for-display)")
        case let .resume(newMode):
            if !paused {
                // Not while switched to another VT: `seatEnabled` sets the mode then.
                if let e = setModeAgain(newMode, call: "display reconnected") {
                    throw KMSError(device: devicePath, kind: .systemCall(e))
                }
            }
            for i in buffers.indices { buffers[i].frame = 0 }
            waitingForDisplay = false
            repaintRequested = true
            lastFlipTime = nil
            state.broadcast()
            logger.notice("kms: a display is connected to \(connectorName) again: mode \(newMode) set, repainting")
        case let .failModeGone(modes):
            throw KMSError(device: devicePath, kind: .modeUnavailable(requested: "\(mode) (in use before the display was unplugged)", available: modes))
        }
    }

    /// Sets `mode` again showing the front buffer (after a VT switch or a display plugged back
    /// in), atomically or legacy as at start-up. State lock held.
    private func setModeAgain(_ mode: KMSMode, call: String) -> SystemCallError? {
        if atomic != nil { return atomic!.modeset(fd: fd, mode: mode.raw, fb: buffers[front].fbID) }
        var connector = connectorID
        var raw = mode.raw
        if drmModeSetCrtc(fd, crtcID, buffers[front].fbID, 0, 0, &connector, 1, &raw) != 0 {
            return SystemCallError(call: "drmModeSetCrtc (\(call))", errno: errno)
        }
        return nil
    }

    /// Whether the display came back since the last call (the session then repaints everything).
    /// Any thread.
    public func takeRepaintRequest() -> Bool {
        state.lock(); defer { state.unlock() }
        let r = repaintRequested
        repaintRequested = false
        return r
    }

    /// The connector's state now (no forced probe).
    private func connectorState() -> (connected: Bool, modes: [KMSMode], error: SystemCallError?) {
        guard let c = drmModeGetConnectorCurrent(fd, connectorID) else {
            return (false, [], SystemCallError(call: "drmModeGetConnectorCurrent", errno: errno))
        }
        defer { drmModeFreeConnector(c) }
        let info = KMSCard.info(c.pointee)
        return (info.connected, info.modes, nil)
    }

    /// What a hotplug check does (pure: the unit tests' seam).
    enum HotplugAction: Equatable {
        /// Connected as before.
        case none
        /// Disconnected, and not waiting for displays: the app ends.
        case fail
        /// Disconnected: pause and wait for a display.
        case startWaiting
        /// Still disconnected while waiting.
        case keepWaiting
        /// Connected again with this mode (the one in use: same size, rate within 1 Hz).
        case resume(KMSMode)
        /// Connected again, but without the mode in use: its modes.
        case failModeGone(String)
    }

    static func hotplugAction(connected: Bool, modes: [KMSMode], current: KMSMode, waiting: Bool,
                              waitForDisplay: Bool) -> HotplugAction {
        switch (connected, waiting) {
        case (true, false): return .none
        case (false, false): return waitForDisplay ? .startWaiting : .fail
        case (false, true): return .keepWaiting
        case (true, true):
            let request = KMSModeRequest(width: current.width, height: current.height, refresh: current.refresh)
            if let m = KMSCard.chooseMode(modes, request: request) { return .resume(m) }
            return .failModeGone(KMSCard.describe(modes))
        }
    }

    /// Whether `--wait-for-display` waits out this start-up error (no display connected yet).
    static func isWaitableAbsence(_ kind: KMSError.Kind) -> Bool {
        switch kind {
        case .noConnectedConnector, .connectorUnavailable: return true
        default: return false
        }
    }

    /// SIGINT or SIGTERM pending (blocked for the main loop's signalfd), if one is.
    static func pendingTerminationSignal() -> Int32? {
        var set = sigset_t()
        sigemptyset(&set)
        guard sigpending(&set) == 0 else { return nil }
        for s in [SIGINT, SIGTERM] where sigismember(&set, s) == 1 { return s }
        return nil
    }

    /// Waits (briefly) for a queued flip, puts the saved CRTC configuration back, stops the flip
    /// thread, frees the buffers and closes the card. Afterwards nothing is drawn. Any thread
    /// but the flip thread; idempotent.
    public func shutDown() {
        close()
        presentLock.lock()
        defer { presentLock.unlock() }
        state.lock()
        if isShutDown { state.unlock(); return }
        let deadline = Date(timeIntervalSinceNow: 0.1)
        while pending != nil { if !state.wait(until: deadline) { break } }
        state.unlock()
        if paused {
            // Another VT is in front and owns the CRTC (and DRM master): nothing to put back.
            silk_display_guard_disarm()
            logger.notice("kms: exiting while switched away: the CRTC is left to the session in front")
        }
        // A turned plane keeps its rotation through the legacy restore below: turn it back first.
        if !paused { atomic?.resetRotation(fd: fd) }
        let restored = paused ? 1 : silk_display_guard_restore()
        if restored == 0 { logger.notice("kms: restored CRTC \(crtcID) on \(devicePath) to its previous framebuffer and mode") }
        else if restored < 0 { logger.warning("kms: restoring the previous CRTC on \(devicePath) failed: \(SystemCallError(call: "drmModeSetCrtc", errno: errno))") }
        _ = flipThread?.stopAndJoin()
        flipThread = nil
        state.lock()
        isShutDown = true
        for b in buffers { KMSPresenter.destroy(b, fd: fd) }
        buffers = []
        atomic?.destroy(fd: fd)
        atomic = nil
        KMSCard.close(fd, seat: seat)
        state.unlock()
    }

    // MARK: Seat (VT switching)

    /// The seat switches away: waits for a present in progress and (briefly) for a queued flip,
    /// then flips nothing more until `seatEnabled`. Main thread (the seat's dispatch).
    public func seatDisabled() {
        presentLock.lock()
        defer { presentLock.unlock() }
        state.lock()
        defer { state.unlock() }
        paused = true
        let deadline = Date(timeIntervalSinceNow: 0.1)
        while pending != nil { if !state.wait(until: deadline) { break } }
        // A flip the kernel never completed: the buffer it queued is treated as shown.
        if let p = pending { front = p; pending = nil }
        logger.notice("kms: seat disabled: presenting paused (the seat drops DRM master)")
    }

    /// The seat is back (DRM master again): sets the mode again showing the newest complete
    /// buffer, forgets what the buffers hold (the next frame copies everything) and lets the
    /// render thread go on. Throws when the modeset fails. Main thread.
    public func seatEnabled() throws {
        presentLock.lock()
        defer { presentLock.unlock() }
        state.lock()
        defer { state.unlock() }
        guard paused, !isShutDown else { return }
        if let e = setModeAgain(mode, call: "after the VT switch back") {
            throw KMSError(device: devicePath, kind: e.errno == EACCES || e.errno == EPERM ? .notMaster(e) : .systemCall(e))
        }
        for i in buffers.indices { buffers[i].frame = 0 }
        paused = false
        lastFlipTime = nil
        state.broadcast()
        logger.notice("kms: seat enabled: mode \(mode) set again on \(connectorName)")
    }

    // MARK: Buffers

    private static func makeBuffer(fd: Int32, width: Int, height: Int, device: String) throws(KMSError) -> Buffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0
        var size: UInt64 = 0
        if drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size) != 0 {
            throw KMSError(device: device, kind: .systemCall(SystemCallError(call: "drmModeCreateDumbBuffer(\(width)x\(height))", errno: errno)))
        }
        var fbID: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let added = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    h.withMemoryRebound(to: UInt32.self, capacity: 4) { h in
                        p.withMemoryRebound(to: UInt32.self, capacity: 4) { p in
                            o.withMemoryRebound(to: UInt32.self, capacity: 4) { o in
                                drmModeAddFB2(fd, UInt32(width), UInt32(height), KMSPresenter.formatXRGB8888, h, p, o, &fbID, 0)
                            }
                        }
                    }
                }
            }
        }
        if added != 0 {
            let e = errno
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw KMSError(device: device, kind: .systemCall(SystemCallError(call: "drmModeAddFB2", errno: e)))
        }
        var offset: UInt64 = 0
        if drmModeMapDumbBuffer(fd, handle, &offset) != 0 {
            let e = errno
            _ = drmModeRmFB(fd, fbID); _ = drmModeDestroyDumbBuffer(fd, handle)
            throw KMSError(device: device, kind: .systemCall(SystemCallError(call: "drmModeMapDumbBuffer", errno: e)))
        }
        let memory = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let memory, memory != MAP_FAILED else {
            let e = errno
            _ = drmModeRmFB(fd, fbID); _ = drmModeDestroyDumbBuffer(fd, handle)
            throw KMSError(device: device, kind: .systemCall(SystemCallError(call: "mmap(dumb buffer)", errno: e)))
        }
        return Buffer(handle: handle, fbID: fbID, pitch: Int(pitch), size: Int(size), memory: memory)
    }

    private static func destroy(_ b: Buffer, fd: Int32) {
        munmap(b.memory, b.size)
        _ = drmModeRmFB(fd, b.fbID)
        _ = drmModeDestroyDumbBuffer(fd, b.handle)
    }

    /// DRM_FORMAT_XRGB8888 ('XR24'; drm_fourcc.h's macro is not importable).
    static let formatXRGB8888: UInt32 = 0x3432_5258

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
