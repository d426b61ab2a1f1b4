import CWaylandClient
import CWaylandProtocols
import Foundation
import SilkGeometry
import SilkSystem

/// What the app asks of its window (title, app id, size limits, initial state).
public struct WaylandWindowOptions: Sendable {
    public var title = "Silk"
    /// The desktop-file name compositors group windows by (`xdg_toplevel.set_app_id`).
    public var appID = "org.silk.Silk"
    /// Size in points the window asks for when the compositor leaves it free to choose.
    public var size = Size(width: 800, height: 600)
    public var minimumSize: Size?
    public var maximized = false
    /// Kiosks under cage, or any compositor: `xdg_toplevel.set_fullscreen`.
    public var fullscreen = false
    /// Whether the window's content is opaque everywhere (XRGB8888 buffers instead of ARGB8888).
    public var opaque = true
    /// Seconds each start-up wait on the compositor (the globals, the first configure) may take
    /// before opening the window fails with a clear error (`WaylandDisplay.answerTimeout`).
    public var answerTimeout: Double = 10
    public init() {}
}

/// The toplevel's state as last configured by the compositor.
public struct ToplevelState: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let maximized = ToplevelState(rawValue: 1 << 1)
    public static let fullscreen = ToplevelState(rawValue: 1 << 2)
    public static let resizing = ToplevelState(rawValue: 1 << 3)
    public static let activated = ToplevelState(rawValue: 1 << 4)
    public static let tiled = ToplevelState(rawValue: 1 << 5)
    public var description: String {
        let names = [(Self.maximized, "maximized"), (.fullscreen, "fullscreen"), (.resizing, "resizing"),
                     (.activated, "activated"), (.tiled, "tiled")].filter { contains($0.0) }.map(\.1)
        return "[" + names.joined(separator: ", ") + "]"
    }
}

/// The window on screen: `wl_surface` + `xdg_surface` + `xdg_toplevel`, with the optional
/// server-side decoration, viewport and fractional-scale objects. Main thread, except that the
/// presenter's render thread attaches and commits the surface (through a wrapper on its queue)
/// while holding `surfaceLock`, which main takes too whenever it commits.
///
/// **Configure.** `xdg_toplevel.configure` carries the proposed size (0: the client chooses) and
/// states; the `xdg_surface.configure` that follows ends the sequence and gives the serial to
/// acknowledge. A configure that keeps the buffer size is acknowledged and committed at once;
/// one that changes it is handed to the presenter, which acknowledges it in the same commit as the
/// first buffer at the new size (`ack_configure` must precede that commit).
final class WaylandToplevel {
    unowned let display: WaylandDisplay
    let surface: OpaquePointer
    let xdgSurface: OpaquePointer
    let toplevel: OpaquePointer
    private(set) var decoration: OpaquePointer?
    private(set) var viewport: OpaquePointer?
    private(set) var fractionalScale: OpaquePointer?
    let surfaceLock = Lock()

    /// Size in points (surface-local coordinates).
    private(set) var size: Size
    private(set) var states: ToplevelState = []
    private(set) var configured = false
    private(set) var serverSideDecorations = false
    /// The scale the compositor prefers for this surface: the largest integer scale of the
    /// outputs it is on, or `wp_fractional_scale_v1.preferred_scale` / 120 when offered.
    private(set) var preferredScale: Double
    private var fractionalPreferred: Double?
    private var enteredOutputs: [OpaquePointer] = []

    // Pending configure (toplevel part), completed by xdg_surface.configure.
    private var pendingSize: (Int32, Int32) = (0, 0)
    private var pendingStates: ToplevelState = []

    /// Configure finished: new size (points), states, scale, serial to acknowledge.
    var onConfigure: ((Size, ToplevelState, Double, UInt32) -> Void)?
    /// The preferred scale changed outside a configure (output scale, fractional scale).
    var onScaleChange: ((Double) -> Void)?
    /// `xdg_toplevel.close`: the user asked to close the window.
    var onClose: (() -> Void)?

    init(display: WaylandDisplay, options: WaylandWindowOptions) throws(WaylandError) {
        self.display = display
        size = options.size
        // Until the surface enters an output, assume the largest output scale (usually the one
        // it will be shown on), so the first frame is already sharp.
        preferredScale = Double(display.outputs.map(\.scale).max() ?? 1)
        guard let s = wl_compositor_create_surface(display.compositor) else {
            throw WaylandError(call: "wl_compositor.create_surface", display.describeError())
        }
        surface = s
        guard let xs = xdg_wm_base_get_xdg_surface(display.wmBase, surface) else {
            throw WaylandError(call: "xdg_wm_base.get_xdg_surface", display.describeError())
        }
        xdgSurface = xs
        guard let tl = xdg_surface_get_toplevel(xdgSurface) else {
            throw WaylandError(call: "xdg_surface.get_toplevel", display.describeError())
        }
        toplevel = tl
        wl_surface_add_listener(surface, surfaceListener, unretained(self))
        xdg_surface_add_listener(xdgSurface, xdgSurfaceListener, unretained(self))
        xdg_toplevel_add_listener(toplevel, toplevelListener, unretained(self))
        xdg_toplevel_set_title(toplevel, options.title)
        xdg_toplevel_set_app_id(toplevel, options.appID)
        if let m = options.minimumSize { xdg_toplevel_set_min_size(toplevel, Int32(m.width), Int32(m.height)) }
        if options.maximized { xdg_toplevel_set_maximized(toplevel) }
        if options.fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) }
        if let manager = display.decorationManager {
            decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
            zxdg_toplevel_decoration_v1_add_listener(decoration, decorationListener, unretained(self))
            zxdg_toplevel_decoration_v1_set_mode(decoration, UInt32(ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue))
        }
        if let viewporter = display.viewporter, let manager = display.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractionalScale, fractionalScaleListener, unretained(self))
        }
        display.onOutputsChanged = { [weak self] in self?.updateIntegerScale() }
        // The initial commit without a buffer asks for the first configure.
        wl_surface_commit(surface)
        // Bounded like every start-up wait: a compositor that never configures the window
        // would otherwise keep the app waiting forever.
        try display.dispatch(until: { configured }, "waiting for the first xdg_surface.configure")
    }

    func destroy() {
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
    }

    /// Acknowledges `serial` and commits the surface as it is (main thread, a configure that
    /// does not change the buffer).
    func acknowledgeAndCommit(_ serial: UInt32) {
        surfaceLock.lock()
        xdg_surface_ack_configure(xdgSurface, serial)
        wl_surface_commit(surface)
        surfaceLock.unlock()
        display.flush()
    }

    // MARK: Events

    fileprivate func handleToplevelConfigure(width: Int32, height: Int32, states: ToplevelState) {
        pendingSize = (width, height)
        pendingStates = states
    }

    fileprivate func handleSurfaceConfigure(serial: UInt32) {
        if pendingSize.0 > 0 { size.width = Double(pendingSize.0) }
        if pendingSize.1 > 0 { size.height = Double(pendingSize.1) }
        states = pendingStates
        let first = !configured
        configured = true
        if first {
            // Before the presenter exists: acknowledge now; the first buffer's commit follows.
            xdg_surface_ack_configure(xdgSurface, serial)
        } else {
            onConfigure?(size, states, preferredScale, serial)
        }
    }

    fileprivate func handleEnter(_ output: OpaquePointer?) {
        if let output, !enteredOutputs.contains(output) { enteredOutputs.append(output) }
        updateIntegerScale()
    }

    fileprivate func handleLeave(_ output: OpaquePointer?) {
        enteredOutputs.removeAll { $0 == output }
        updateIntegerScale()
    }

    private func updateIntegerScale() {
        guard fractionalPreferred == nil else { return }
        let scales = enteredOutputs.compactMap { display.output(for: $0)?.scale }
        let s = Double(scales.max() ?? display.outputs.map(\.scale).max() ?? 1)
        if s != preferredScale { preferredScale = s; onScaleChange?(s) }
    }

    fileprivate func handlePreferredFractionalScale(_ scale120: UInt32) {
        let s = Double(scale120) / 120
        fractionalPreferred = s
        if s != preferredScale { preferredScale = s; onScaleChange?(s) }
    }

    fileprivate func handleDecorationMode(_ mode: UInt32) {
        serverSideDecorations = mode == UInt32(ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
    }

    fileprivate func handleClose() { onClose?() }
}

private nonisolated(unsafe) let surfaceListener = stableListener(wl_surface_listener()) { l in
    l.enter = { data, _, output in owner(data, as: WaylandToplevel.self).handleEnter(output) }
    l.leave = { data, _, output in owner(data, as: WaylandToplevel.self).handleLeave(output) }
}

private nonisolated(unsafe) let xdgSurfaceListener = stableListener(xdg_surface_listener(
    configure: { data, _, serial in owner(data, as: WaylandToplevel.self).handleSurfaceConfigure(serial: serial) }))

private nonisolated(unsafe) let toplevelListener = stableListener(xdg_toplevel_listener(
    configure: { data, _, width, height, statesArray in
        var states: ToplevelState = []
        if let a = statesArray, a.pointee.size > 0, let raw = a.pointee.data {
            let values = raw.bindMemory(to: UInt32.self, capacity: a.pointee.size / 4)
            for i in 0..<(a.pointee.size / 4) {
                switch values[i] {
                case UInt32(XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue): states.insert(.maximized)
                case UInt32(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue): states.insert(.fullscreen)
                case UInt32(XDG_TOPLEVEL_STATE_RESIZING.rawValue): states.insert(.resizing)
                case UInt32(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue): states.insert(.activated)
                case 5...8: states.insert(.tiled)
                default: break
                }
            }
        }
        owner(data, as: WaylandToplevel.self).handleToplevelConfigure(width: width, height: height, states: states)
    },
    close: { data, _ in owner(data, as: WaylandToplevel.self).handleClose() },
    configure_bounds: { _, _, _, _ in },
    wm_capabilities: { _, _, _ in }))

private nonisolated(unsafe) let decorationListener = stableListener(zxdg_toplevel_decoration_v1_listener(
    configure: { data, _, mode in owner(data, as: WaylandToplevel.self).handleDecorationMode(mode) }))

private nonisolated(unsafe) let fractionalScaleListener = stableListener(wp_fractional_scale_v1_listener(
    preferred_scale: { data, _, scale in owner(data, as: WaylandToplevel.self).handlePreferredFractionalScale(scale) }))
