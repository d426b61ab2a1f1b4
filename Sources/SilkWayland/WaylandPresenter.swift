import CSilkLinux
import CWaylandClient
import CWaylandProtocols
import Foundation
import SilkGeometry
import SilkInput
import SilkRaster
import SilkRender
import SilkRunLoop
import SilkSystem

/// Shows a window's frames on a Wayland compositor: an xdg-shell toplevel fed with `wl_shm`
/// buffers, paced by `wl_surface.frame`.
///
/// Threads: created, configured and fed input on the main thread (its `WaylandDisplay` is
/// dispatched by the main loop); `waitForFrame` and `present` run on the render thread, which
/// waits on its own `RenderQueue`. Shared state (size, scale, the configure to acknowledge,
/// statistics) is guarded by `lock`; surface requests that must be atomic (ack + attach +
/// damage + commit) by the toplevel's `surfaceLock`.
///
/// Frame pacing: `present` commits with a frame callback; the next `waitForFrame` blocks until
/// that callback fires (the compositor wants a new frame), so a window draws at most once per
/// refresh and not at all while hidden. The render thread only asks for a frame when something
/// changed, so an idle window sleeps in `RenderThread` and costs no CPU.
public final class WaylandPresenter: Presenter, PresenterEventSource, TextInputPresenting, @unchecked Sendable {
    public let name = "wayland"

    /// The window this presenter reports to (set by `startEvents`). Main thread.
    private weak var handler: (any PresenterEventHandler)?

    public let display: WaylandDisplay
    let toplevel: WaylandToplevel
    private let renderQueue: RenderQueue
    private let surfaceOnRenderQueue: OpaquePointer
    private let shmOnRenderQueue: OpaquePointer
    private let presentationOnRenderQueue: OpaquePointer?
    public let options: WaylandWindowOptions

    // Guarded by `lock`.
    private let lock = Lock()
    private var _pixelWidth: Int
    private var _pixelHeight: Int
    private var _scale: Double
    private var _size: Size
    private var pendingAck: UInt32?
    private var closed = false
    private var stats = WaylandFrameStatistics()

    // Render thread only.
    private let chain: BufferChain
    private var frameCallback: OpaquePointer?
    private var frameDoneAt: UInt64 = 0
    private var frameIndex = 0
    private var appliedScale: Double = 0
    private let start = monotonicNanoseconds()
    /// The compositor's presentation clock, fixed after the initial roundtrips.
    private let presentationClock: Int32

    /// Connects, creates the toplevel and waits for its first configure (which decides the
    /// size: the compositor's, or `options.size` when it leaves the choice to the client).
    public init(options: WaylandWindowOptions, displayName: String? = nil) throws(WaylandError) {
        self.options = options
        display = try WaylandDisplay(name: displayName, answerTimeout: options.answerTimeout)
        toplevel = try WaylandToplevel(display: display, options: options)
        let queue = try RenderQueue(display: display.display)
        renderQueue = queue
        surfaceOnRenderQueue = queue.wrap(toplevel.surface)
        shmOnRenderQueue = queue.wrap(display.shm!)
        presentationOnRenderQueue = display.presentation.map { queue.wrap($0) }
        chain = BufferChain(shm: shmOnRenderQueue)
        presentationClock = display.presentationClock
        _size = toplevel.size
        _scale = toplevel.preferredScale
        (_pixelWidth, _pixelHeight) = WaylandPresenter.pixelSize(toplevel.size, scale: toplevel.preferredScale)
        toplevel.onConfigure = { [unowned self] size, _, scale, serial in handleConfigure(size: size, scale: scale, serial: serial) }
        toplevel.onScaleChange = { [unowned self] scale in handleConfigure(size: toplevel.size, scale: scale, serial: nil) }
        toplevel.onClose = { [unowned self] in MainActor.assumeIsolated { handler?.presenterDidRequestClose() } }
        display.onFatalError = { [unowned self] message in
            lock.lock(); closed = true; lock.unlock()
            renderQueue.interrupt()
            MainActor.assumeIsolated { handler?.presenterDidFail(message) }
        }
        for seat in display.seats { route(seat) }
        display.onSeatAdded = { [unowned self] in route($0) }
        display.onSeatRemoved = { [unowned self] seat in
            textInputs.removeAll { input in
                guard input.seat === seat else { return false }
                input.destroy()
                return true
            }
        }
        if WaylandSeat.debug {
            print("wayland: \(display.socketName): window \(Int(_size.width))x\(Int(_size.height)) pt at scale \(_scale), states \(toplevel.states), server-side decorations: \(display.decorationManager != nil)")
            print("wayland: globals: \(display.globalNames.joined(separator: ", "))")
        }
    }

    /// `PresenterEventSource`: starts dispatching the connection on `loop` (the main loop) and
    /// reporting configures, input, close and failures to `handler`. Call once, on main.
    @MainActor
    public func startEvents(handler: any PresenterEventHandler, loop: EventLoop) throws {
        self.handler = handler
        try display.attach(to: loop)
        // Copy and paste go through the compositor's clipboard when it has a data device.
        if let manager = display.dataDeviceManager {
            let c = WaylandClipboard(manager: manager, version: display.dataDeviceManagerVersion, display: display, loop: loop)
            for seat in display.seats { c.add(seat) }
            clipboard = c
            Clipboard.current = c
        }
        // Input methods (fcitx5, IBus) through text-input-v3 when the compositor offers it.
        if display.textInputManager != nil { for seat in display.seats { addTextInput(seat) } }
    }

    // MARK: Input methods (main thread)

    /// One text input per seat (text-input-v3), empty when the compositor has none.
    private var textInputs: [WaylandTextInput] = []
    /// The focused field's state the window sent last.
    private var textInputState: TextInputState?

    private func addTextInput(_ seat: WaylandSeat) {
        guard let manager = display.textInputManager, !textInputs.contains(where: { $0.seat === seat }) else { return }
        let input = WaylandTextInput(manager: manager, seat: seat)
        input.windowSurface = toplevel.surface
        input.onUpdate = { [unowned self] update in MainActor.assumeIsolated { handler?.presenterDidReceiveTextInput(update) } }
        input.update(textInputState)
        textInputs.append(input)
    }

    /// `TextInputPresenting`: the window's focused text field (nil: none), forwarded to every
    /// seat's text input (only the one with keyboard focus on the window sends it). Main thread.
    @MainActor
    public func updateTextInput(_ state: TextInputState?) {
        textInputState = state
        for input in textInputs { input.update(state) }
    }

    /// The compositor's clipboard (installed as `Clipboard.current` by `attach`). Main thread.
    private var clipboard: WaylandClipboard?

    private func route(_ seat: WaylandSeat) {
        seat.windowSurface = toplevel.surface
        seat.onInput = { [unowned self] event in MainActor.assumeIsolated { handler?.presenterDidReceive(event) } }
        clipboard?.add(seat)
        if handler != nil { addTextInput(seat) }
    }

    /// Buffer pixels for `size` points at `scale` (integer or fractional: rounded, as the
    /// fractional-scale protocol prescribes).
    static func pixelSize(_ size: Size, scale: Double) -> (Int, Int) {
        (max(1, Int((size.width * scale).rounded())), max(1, Int((size.height * scale).rounded())))
    }

    // MARK: Presenter (sizes: any thread)

    public var pixelWidth: Int { lock.lock(); defer { lock.unlock() }; return _pixelWidth }
    public var pixelHeight: Int { lock.lock(); defer { lock.unlock() }; return _pixelHeight }
    public var scale: Double { lock.lock(); defer { lock.unlock() }; return _scale }
    /// The window size in points, as last configured.
    public var size: Size { lock.lock(); defer { lock.unlock() }; return _size }
    /// Whether the compositor draws the title bar (xdg-decoration server-side mode).
    public var hasServerSideDecorations: Bool { toplevel.serverSideDecorations }

    public func waitForFrame() -> FrameTiming? {
        if isClosed { return nil }
        if frameCallback != nil {
            switch renderQueue.dispatch(until: { frameCallback == nil }) {
            case .ready, .timedOut: break
            case .interrupted: return nil
            case .failed: renderThreadLostConnection(); return nil
            }
        }
        if frameDoneAt == 0 { frameDoneAt = monotonicNanoseconds() }
        frameIndex += 1
        let now = monotonicNanoseconds()
        return FrameTiming(index: frameIndex - 1, time: Double(now - start) / 1e9)
    }

    public func present(_ backBuffer: Bitmap, damage: DamageRegion, timing: FrameTiming) throws {
        if isClosed { return }
        guard renderQueue.pump() else { renderThreadLostConnection(); throw lostConnection() }
        chain.resize(width: backBuffer.width, height: backBuffer.height, opaque: options.opaque)
        var candidate = try chain.idleBuffer()
        while candidate == nil {
            // Every buffer is on screen or queued: wait for a release (never draw into them).
            switch renderQueue.dispatch(until: { chain.buffers.contains { !$0.isBusy } }, timeout: 1000) {
            case .ready, .timedOut: candidate = try chain.idleBuffer()
            case .interrupted: return
            case .failed: renderThreadLostConnection(); throw lostConnection()
            }
        }
        guard let buffer = candidate else { return }
        let copy = chain.damageHistory.damageToCopy(intoBufferHolding: buffer.presentedFrame, damage: damage)
        if let copy {
            for r in copy.rects { buffer.bitmap.composite(backBuffer, from: r, to: r.origin, operation: .source) }
        } else {
            buffer.bitmap.composite(backBuffer, from: backBuffer.bounds, to: .zero, operation: .source)
        }
        buffer.presentedFrame = chain.damageHistory.record(damage)

        let surface = surfaceOnRenderQueue
        toplevel.surfaceLock.lock()
        lock.lock()
        let ack = pendingAck
        pendingAck = nil
        let scale = _scale
        let logical = _size
        lock.unlock()
        if let ack { xdg_surface_ack_configure(toplevel.xdgSurface, ack) }
        let scaleChanged = scale != appliedScale
        if scaleChanged || ack != nil {
            if let viewport = toplevel.viewport {
                // Fractional scale: a buffer of any size shown at the logical size.
                wl_surface_set_buffer_scale(surface, 1)
                wp_viewport_set_destination(viewport, Int32(logical.width.rounded()), Int32(logical.height.rounded()))
            } else if display.compositorVersion >= 3 {
                wl_surface_set_buffer_scale(surface, Int32(max(1, scale.rounded())))
            }
            appliedScale = scale
        }
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        if display.compositorVersion >= 4 {
            for r in damage.rects {
                wl_surface_damage_buffer(surface, Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height))
            }
        } else {
            wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
        }
        let callback = wl_surface_frame(surface)
        wl_callback_add_listener(callback, frameListener, unretained(self))
        frameCallback = callback
        if let presentation = presentationOnRenderQueue {
            let feedback = PresentationFeedback(presenter: self, committedAt: nanoseconds(on: presentationClock))
            feedback.proxy = wp_presentation_feedback(presentation, surface)
            wp_presentation_feedback_add_listener(feedback.proxy, feedbackListener, Unmanaged.passRetained(feedback).toOpaque())
        }
        wl_surface_commit(surface)
        toplevel.surfaceLock.unlock()
        buffer.isBusy = true
        if wl_display_flush(display.display) < 0 && errno != EAGAIN && errno != 0 {
            renderThreadLostConnection()
            throw lostConnection()
        }
        let committed = monotonicNanoseconds()
        lock.lock()
        stats.frames += 1
        stats.callbackToCommitMs.append(Double(committed - frameDoneAt) / 1e6)
        if stats.lastCommitNs > 0 { stats.commitIntervalsMs.append(Double(committed - stats.lastCommitNs) / 1e6) }
        stats.lastCommitNs = committed
        stats.bufferCount = chain.buffers.count
        stats.copiedFull += copy == nil ? 1 : 0
        lock.unlock()
        frameDoneAt = 0
    }

    public func close() {
        lock.lock(); closed = true; lock.unlock()
        renderQueue.interrupt()
    }

    private var isClosed: Bool { lock.lock(); defer { lock.unlock() }; return closed }

    private func lostConnection() -> WaylandError {
        WaylandError(call: "wl_display_read_events", display.describeError())
    }

    /// The render thread saw the connection fail: wake main, which reports it once.
    private func renderThreadLostConnection() {
        lock.lock(); closed = true; lock.unlock()
        EventLoop.main.wakeUp()
    }

    // MARK: Events (main thread)

    private func handleConfigure(size: Size, scale: Double, serial: UInt32?) {
        if WaylandSeat.debug { print("wayland: configure \(Int(size.width))x\(Int(size.height)) pt at scale \(scale), states \(toplevel.states)"); fflush(nil) }
        let (w, h) = WaylandPresenter.pixelSize(size, scale: scale)
        toplevel.surfaceLock.lock()
        lock.lock()
        let unchanged = w == _pixelWidth && h == _pixelHeight && scale == _scale
        if unchanged, pendingAck == nil {
            lock.unlock()
            // Nothing to redraw: acknowledge and commit right away (under the surface lock, so
            // no render-thread ack of an older serial can follow).
            if let serial {
                xdg_surface_ack_configure(toplevel.xdgSurface, serial)
                wl_surface_commit(toplevel.surface)
            }
            toplevel.surfaceLock.unlock()
            display.flush()
            return
        }
        // The render thread acknowledges with the first buffer at the new size.
        if let serial { pendingAck = serial }
        _pixelWidth = w; _pixelHeight = h; _scale = scale; _size = size
        lock.unlock()
        toplevel.surfaceLock.unlock()
        if !unchanged { MainActor.assumeIsolated { handler?.presenterDidResize(to: size, scale: scale) } }
    }

    fileprivate func handleFrameDone(_ callback: OpaquePointer?) {
        if let callback { wl_callback_destroy(callback) }
        if callback == frameCallback { frameCallback = nil }
        frameDoneAt = monotonicNanoseconds()
    }

    fileprivate func handlePresented(committedAt: UInt64, presentedNs: UInt64, refreshNs: UInt32) {
        let now = nanoseconds(on: presentationClock)
        lock.lock()
        // Both times are on the compositor's presentation clock (wp_presentation.clock_id).
        if presentedNs > 0, presentedNs <= now + 1_000_000_000 {
            stats.commitToPresentedMs.append((Double(presentedNs) - Double(committedAt)) / 1e6)
            if stats.lastPresentedNs > 0 { stats.presentedIntervalsMs.append(Double(presentedNs - min(presentedNs, stats.lastPresentedNs)) / 1e6) }
            stats.lastPresentedNs = presentedNs
        }
        stats.refreshNs = refreshNs
        stats.presented += 1
        lock.unlock()
    }

    fileprivate func handleDiscarded() {
        lock.lock(); stats.discarded += 1; lock.unlock()
    }

    /// A copy of the frame statistics so far (any thread).
    public var statistics: WaylandFrameStatistics { lock.lock(); defer { lock.unlock() }; return stats }
    /// Clears the statistics (benchmarks: after warm-up).
    public func resetStatistics() { lock.lock(); stats = WaylandFrameStatistics(); lock.unlock() }
}

/// What the presenter measured (milliseconds).
public struct WaylandFrameStatistics: Sendable {
    public var frames = 0
    /// From the frame callback that allowed a frame (or the request, when none was pending) to
    /// the commit of that frame: compositing plus presenting.
    public var callbackToCommitMs: [Double] = []
    /// From commit to the compositor's presentation time (`wp_presentation_feedback.presented`).
    public var commitToPresentedMs: [Double] = []
    public var presentedIntervalsMs: [Double] = []
    /// Between consecutive commits (the frame interval the client achieved).
    public var commitIntervalsMs: [Double] = []
    var lastCommitNs: UInt64 = 0
    public var presented = 0
    public var discarded = 0
    public var refreshNs: UInt32 = 0
    public var bufferCount = 0
    /// Frames copied whole into their buffer (no usable buffer age).
    public var copiedFull = 0
    var lastPresentedNs: UInt64 = 0
    public init() {}
}

private nonisolated(unsafe) let frameListener = stableListener(wl_callback_listener(
    done: { data, callback, _ in owner(data, as: WaylandPresenter.self).handleFrameDone(callback) }))

/// One `wp_presentation_feedback`, retained through its listener data until an event ends it.
private final class PresentationFeedback {
    unowned let presenter: WaylandPresenter
    let committedAt: UInt64
    var proxy: OpaquePointer?
    init(presenter: WaylandPresenter, committedAt: UInt64) { self.presenter = presenter; self.committedAt = committedAt }
    func finish() {
        if let proxy { wp_presentation_feedback_destroy(proxy) }
        proxy = nil
    }
}

private nonisolated(unsafe) let feedbackListener = stableListener(wp_presentation_feedback_listener(
    sync_output: { _, _, _ in },
    presented: { data, _, secHi, secLo, nsec, refresh, _, _, _ in
        let f = Unmanaged<PresentationFeedback>.fromOpaque(data!).takeRetainedValue()
        let ns = ((UInt64(secHi) << 32) | UInt64(secLo)) * 1_000_000_000 + UInt64(nsec)
        f.presenter.handlePresented(committedAt: f.committedAt, presentedNs: ns, refreshNs: refresh)
        f.finish()
    },
    discarded: { data, _ in
        let f = Unmanaged<PresentationFeedback>.fromOpaque(data!).takeRetainedValue()
        f.presenter.handleDiscarded()
        f.finish()
    }))
