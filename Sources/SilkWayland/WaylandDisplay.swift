import CSilkLinux
import CWaylandClient
import CWaylandProtocols
import Foundation
import Glibc
import SilkRunLoop
import SilkSystem

/// The connection to the compositor and its globals; lives on the main thread.
///
/// **Threads and the read protocol.** libwayland lets several threads read one socket if each
/// follows `wl_display_prepare_read[_queue]` → poll → `wl_display_read_events` (or
/// `wl_display_cancel_read`) → `dispatch_[queue_]pending`. The main thread owns the default queue
/// (registry, window configure, input); the render thread owns its own queue (frame callbacks,
/// buffer releases, presentation feedback: see `RenderQueue`). On the main loop this class
///  - prepares to read in a `.beforeWaiting` observer that runs after every committer
///    (dispatching whatever another thread already queued for main first), and flushes;
///  - in the first `.afterWaiting` observer reads if the socket is readable, else cancels, and
///    dispatches. The loop's epoll also watches the socket, so a prepared main thread always
///    wakes when there is something to read — the render thread never waits on it for long.
///
/// **Errors.** The first failure of a read, dispatch or flush ends the connection: `fatalError`
/// is set from `wl_display_get_error` (protocol errors name interface, object and code) and
/// `onFatalError` runs once on the main thread.
public final class WaylandDisplay {
    let display: OpaquePointer
    private(set) var registry: OpaquePointer!
    /// The socket name, for messages.
    public let socketName: String

    // Globals (nil when the compositor does not offer them).
    private(set) var compositor: OpaquePointer?
    private(set) var compositorVersion: UInt32 = 0
    private(set) var shm: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    private(set) var decorationManager: OpaquePointer?
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaleManager: OpaquePointer?
    private(set) var presentation: OpaquePointer?
    /// `wl_data_device_manager` (copy and paste), version ≤ 3.
    private(set) var dataDeviceManager: OpaquePointer?
    private(set) var dataDeviceManagerVersion: UInt32 = 0
    /// `zwp_text_input_manager_v3` (input methods: `WaylandTextInput`).
    private(set) var textInputManager: OpaquePointer?
    private(set) var outputs: [WaylandOutput] = []
    private(set) var seats: [WaylandSeat] = []
    /// The clock `wp_presentation` timestamps use (`wp_presentation.clock_id`), read by the
    /// render thread after the initial roundtrips.
    private(set) var presentationClock: Int32 = CLOCK_MONOTONIC
    fileprivate func handlePresentationClock(_ id: UInt32) { presentationClock = Int32(bitPattern: id) }
    /// Names of every global offered (diagnostics: `SILK_WAYLAND_DEBUG=1`).
    private(set) var globalNames: [String] = []

    /// Called when an output's scale changes or outputs come and go (main thread).
    var onOutputsChanged: (() -> Void)?
    /// Called for each seat bound (main thread), so the presenter can route its input.
    var onSeatAdded: ((WaylandSeat) -> Void)?
    /// Called for a seat the compositor removed, before it is destroyed (main thread).
    var onSeatRemoved: ((WaylandSeat) -> Void)?

    /// Set once the connection failed; the message names the error.
    public private(set) var fatalError: String?
    /// Runs once, on the main thread, when the connection fails.
    public var onFatalError: ((String) -> Void)?

    private var loopTokens: (source: SourceToken, before: ObserverToken, after: ObserverToken)?
    private weak var loop: EventLoop?
    private var preparedRead = false

    /// How long a start-up wait on the compositor (a roundtrip, the first configure) may take
    /// before it fails with a clear error: a compositor that accepts the connection and never
    /// answers would otherwise hang the app forever.
    public let answerTimeout: Double

    /// Connects to `name` (nil: `WAYLAND_DISPLAY`, else `wayland-0`) and binds the globals.
    /// Calls `wl_display_connect`, then one roundtrip for the registry and one for the globals'
    /// initial events (output scales, seat capabilities), each within `answerTimeout` seconds.
    public init(name: String? = nil, answerTimeout: Double = 10) throws(WaylandError) {
        self.answerTimeout = answerTimeout
        let configuration = SilkConfiguration.current
        socketName = name ?? configuration.waylandDisplay ?? "wayland-0"
        guard let d = wl_display_connect(name) else {
            let code = errno
            let runtime = configuration.runtimeDirectory.map { "XDG_RUNTIME_DIR=\($0)" } ?? "XDG_RUNTIME_DIR is not set"
            throw WaylandError(call: "wl_display_connect(\(socketName))",
                               "\(errorString(code)) — no Wayland compositor is listening there (\(runtime))")
        }
        display = d
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, registryListener, unretained(self))
        try roundtrip("wl_display_roundtrip (registry)")
        try roundtrip("wl_display_roundtrip (globals)")
        guard compositor != nil else { throw WaylandError(call: "wl_registry", "the compositor offers no wl_compositor") }
        guard shm != nil else { throw WaylandError(call: "wl_registry", "the compositor offers no wl_shm") }
        guard wmBase != nil else { throw WaylandError(call: "wl_registry", "the compositor offers no xdg_wm_base (xdg-shell)") }
    }

    deinit {
        detach()
        for s in seats { s.destroy() }
        for o in outputs { o.destroy() }
        for p in [textInputManager, decorationManager, viewporter, fractionalScaleManager, presentation, wmBase, shm, compositor, registry] {
            if let p { wl_proxy_destroy(p) }
        }
        wl_display_disconnect(display)
    }

    // MARK: Dispatching on the main thread

    /// `wl_display_roundtrip` with a deadline: a `wl_display.sync` and its `done`, waited for at
    /// most `answerTimeout` seconds (see `dispatch(until:)`).
    func roundtrip(_ what: String) throws(WaylandError) {
        guard let callback = wl_display_sync(display) else { throw WaylandError(call: what, describeError()) }
        let sync = SyncDone()
        wl_callback_add_listener(callback, syncListener, unretained(sync))
        defer { wl_callback_destroy(callback) }
        try dispatch(until: { sync.done }, what)
    }

    /// Dispatches the main queue until `condition()` holds. Unlike `wl_display_roundtrip` and
    /// `wl_display_dispatch`, which block in poll(2) for as long as the compositor is silent,
    /// this gives up after `answerTimeout` seconds with an error naming the socket and the wait,
    /// and when a termination signal is pending (they are blocked for the loop's signalfd, so
    /// SIGINT/SIGTERM would not end the wait otherwise). The signal stays pending: a loop run
    /// afterwards still ends on it. Main thread, before `attach(to:)`.
    func dispatch(until condition: () -> Bool, _ what: String) throws(WaylandError) {
        let deadline = silk_clock_monotonic_ns() + Int64(answerTimeout * 1e9)
        let fd = wl_display_get_fd(display)
        while true {
            if wl_display_dispatch_pending(display) < 0 { throw WaylandError(call: what, describeError()) }
            if condition() { return }
            if wl_display_prepare_read(display) != 0 { continue }  // events queued meanwhile
            if wl_display_flush(display) < 0 && errno != EAGAIN {
                wl_display_cancel_read(display)
                throw WaylandError(call: what, describeError())
            }
            let remaining = deadline - silk_clock_monotonic_ns()
            if remaining <= 0 {
                wl_display_cancel_read(display)
                throw WaylandError(call: what, "the compositor on \(socketName) did not answer within \(formatSeconds(answerTimeout)) (it accepted the connection but sent nothing)")
            }
            if let signal = TerminationSignal.pending() {
                wl_display_cancel_read(display)
                throw WaylandError(call: what, "stopped by \(signal.name) while waiting for the compositor on \(socketName)")
            }
            // Short slices, so a signal is noticed within 100 ms.
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&p, 1, Int32(min(remaining / 1_000_000 + 1, 100)))
            if n > 0 {
                if wl_display_read_events(display) < 0 { throw WaylandError(call: what, describeError()) }
            } else {
                wl_display_cancel_read(display)
            }
        }
    }

    /// Integrates the connection with `loop` (the main loop): see the class comment.
    public func attach(to loop: EventLoop) throws(WaylandError) {
        guard loopTokens == nil else { return }
        self.loop = loop
        let fd = wl_display_get_fd(display)
        let source: SourceToken
        do {
            // The handler has nothing to do: the read happens in the .afterWaiting observer.
            source = try loop.addSource(fd: fd, events: [.readable, .hangup]) { _ in }
        } catch {
            throw WaylandError(call: "epoll_ctl(wayland socket)", error.description)
        }
        let before = loop.addObserver(.beforeWaiting, order: .waylandPrepareRead) { [unowned self] _ in prepareToWait() }
        let after = loop.addObserver(.afterWaiting, order: .waylandRead) { [unowned self] _ in readIfPrepared() }
        loopTokens = (source, before, after)
    }

    /// Stops dispatching from the loop (before teardown).
    func detach() {
        guard let tokens = loopTokens, let loop else { loopTokens = nil; return }
        if preparedRead { wl_display_cancel_read(display); preparedRead = false }
        loop.removeSource(tokens.source)
        loop.removeObserver(tokens.before)
        loop.removeObserver(tokens.after)
        loopTokens = nil
    }

    private func prepareToWait() {
        guard fatalError == nil, !preparedRead else { return }
        var dispatched = false
        while wl_display_prepare_read(display) != 0 {
            // Another thread queued events for main: handle them, then go round the loop once
            // more so the committers see what the handlers changed.
            if wl_display_dispatch_pending(display) < 0 { fail(); return }
            dispatched = true
        }
        preparedRead = true
        if wl_display_flush(display) < 0 && errno != EAGAIN {
            wl_display_cancel_read(display); preparedRead = false
            fail(); return
        }
        if dispatched { loop?.wakeUp() }
    }

    private func readIfPrepared() {
        guard preparedRead else { return }
        preparedRead = false
        var p = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 0) > 0 {
            if wl_display_read_events(display) < 0 { fail(); return }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { fail() }
    }

    /// Sends queued requests now (main thread; the render thread flushes its own).
    func flush() { _ = wl_display_flush(display) }

    /// Records the connection's failure and reports it once (main thread).
    func fail() {
        guard fatalError == nil else { return }
        let message = describeError()
        fatalError = message
        onFatalError?(message)
    }

    /// A sentence for the connection's error (`wl_display_get_error`,
    /// `wl_display_get_protocol_error`). Any thread.
    func describeError() -> String {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            return "the compositor on \(socketName) reported a protocol error: \(name)@\(id) error \(protocolCode) (wl_display_get_error: EPROTO)"
        }
        if code == 0 { return "the connection to the compositor on \(socketName) failed" }
        return "lost the connection to the compositor on \(socketName): \(errorString(code)) (wl_display_get_error: errno \(code))"
    }

    // MARK: Registry

    fileprivate func handleGlobal(name: UInt32, interface: String, version: UInt32) {
        globalNames.append("\(interface) v\(version)")
        func bind(_ iface: UnsafePointer<wl_interface>, _ want: UInt32) -> OpaquePointer {
            OpaquePointer(wl_registry_bind(registry, name, iface, min(version, want)))
        }
        switch interface {
        case "wl_compositor":
            compositorVersion = min(version, 4)
            compositor = bind(silk_wl_compositor_interface(), 4)
        case "wl_shm": shm = bind(silk_wl_shm_interface(), 1)
        case "xdg_wm_base":
            wmBase = bind(silk_xdg_wm_base_interface(), 2)
            xdg_wm_base_add_listener(wmBase, wmBaseListener, unretained(self))
        case "zxdg_decoration_manager_v1": decorationManager = bind(silk_zxdg_decoration_manager_v1_interface(), 1)
        case "wp_viewporter": viewporter = bind(silk_wp_viewporter_interface(), 1)
        case "wp_fractional_scale_manager_v1": fractionalScaleManager = bind(silk_wp_fractional_scale_manager_v1_interface(), 1)
        case "wp_presentation":
            presentation = bind(silk_wp_presentation_interface(), 1)
            wp_presentation_add_listener(presentation, presentationListener, unretained(self))
        case "wl_data_device_manager":
            dataDeviceManagerVersion = min(version, 3)
            dataDeviceManager = bind(silk_wl_data_device_manager_interface(), 3)
        case "zwp_text_input_manager_v3": textInputManager = bind(silk_zwp_text_input_manager_v3_interface(), 1)
        case "wl_output":
            let v = min(version, 4)
            outputs.append(WaylandOutput(proxy: bind(silk_wl_output_interface(), 4), globalName: name, version: v, display: self))
        case "wl_seat":
            let seat = WaylandSeat(proxy: bind(silk_wl_seat_interface(), 8), globalName: name,
                                   version: min(version, 8), display: self)
            seats.append(seat)
            onSeatAdded?(seat)
        default: break
        }
    }

    fileprivate func handleGlobalRemove(name: UInt32) {
        if let i = outputs.firstIndex(where: { $0.globalName == name }) {
            outputs.remove(at: i).destroy()
            onOutputsChanged?()
        }
        if let i = seats.firstIndex(where: { $0.globalName == name }) {
            let seat = seats.remove(at: i)
            onSeatRemoved?(seat)
            seat.destroy()
        }
    }

    func outputChanged() { onOutputsChanged?() }

    func output(for proxy: OpaquePointer?) -> WaylandOutput? { outputs.first { $0.proxy == proxy } }
}

private nonisolated(unsafe) let registryListener = stableListener(wl_registry_listener(
    global: { data, _, name, interface, version in
        guard let interface else { return }
        owner(data, as: WaylandDisplay.self).handleGlobal(name: name, interface: String(cString: interface), version: version)
    },
    global_remove: { data, _, name in owner(data, as: WaylandDisplay.self).handleGlobalRemove(name: name) }))

/// The `done` of one `wl_display.sync` (a roundtrip's end).
private final class SyncDone { var done = false }

private nonisolated(unsafe) let syncListener = stableListener(wl_callback_listener(
    done: { data, _, _ in owner(data, as: SyncDone.self).done = true }))

/// "5 s", "0.5 s": a timeout for messages.
func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
}

private nonisolated(unsafe) let presentationListener = stableListener(wp_presentation_listener(
    clock_id: { data, _, id in owner(data, as: WaylandDisplay.self).handlePresentationClock(id) }))

/// xdg_wm_base.ping → pong, or the compositor considers the client hung.
private nonisolated(unsafe) let wmBaseListener = stableListener(xdg_wm_base_listener(
    ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))

/// One `wl_output`: its integer scale (what `wl_surface.enter` tells the window it is on).
final class WaylandOutput {
    let proxy: OpaquePointer
    let globalName: UInt32
    let version: UInt32
    private(set) var scale: Int32 = 1
    private(set) var name = ""
    private(set) var modeSize = (width: Int32(0), height: Int32(0))
    private unowned let display: WaylandDisplay

    init(proxy: OpaquePointer, globalName: UInt32, version: UInt32, display: WaylandDisplay) {
        self.proxy = proxy; self.globalName = globalName; self.version = version; self.display = display
        wl_output_add_listener(proxy, outputListener, unretained(self))
    }

    func destroy() {
        if version >= 3 { wl_output_release(proxy) } else { wl_proxy_destroy(proxy) }
    }

    fileprivate func handleScale(_ s: Int32) { scale = max(1, s) }
    fileprivate func handleMode(width: Int32, height: Int32, current: Bool) { if current { modeSize = (width, height) } }
    fileprivate func handleName(_ n: String) { name = n }
    fileprivate func handleDone() { display.outputChanged() }
}

private nonisolated(unsafe) let outputListener = stableListener(wl_output_listener(
    geometry: { _, _, _, _, _, _, _, _, _, _ in },
    mode: { data, _, flags, w, h, _ in
        owner(data, as: WaylandOutput.self).handleMode(width: w, height: h, current: flags & UInt32(WL_OUTPUT_MODE_CURRENT.rawValue) != 0)
    },
    done: { data, _ in owner(data, as: WaylandOutput.self).handleDone() },
    scale: { data, _, s in owner(data, as: WaylandOutput.self).handleScale(s) },
    name: { data, _, n in if let n { owner(data, as: WaylandOutput.self).handleName(String(cString: n)) } },
    description: { _, _, _ in }))
