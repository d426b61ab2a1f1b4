import CWaylandClient
import CWaylandCursor
import Foundation
import SilkSystem

/// The pointer's image over the window: the XCursor theme's `left_ptr` through libwayland-cursor
/// (`XCURSOR_THEME`, `XCURSOR_SIZE`), or a small built-in arrow when no theme is installed.
/// (cursor-shape-v1 would let the compositor draw it, but Debian 12's compositors do not offer
/// it: see protocols/README.md.) Main thread.
final class WaylandCursor {
    private unowned let display: WaylandDisplay
    private var theme: OpaquePointer?
    private var surface: OpaquePointer?
    private var builtIn: (memory: SharedMemory, buffer: OpaquePointer)?
    private var hotspot = (x: Int32(0), y: Int32(0))
    private var attached = false

    init(display: WaylandDisplay) {
        self.display = display
    }

    deinit {
        if let surface { wl_surface_destroy(surface) }
        if let b = builtIn { wl_buffer_destroy(b.buffer) }
        if let theme { wl_cursor_theme_destroy(theme) }
    }

    /// `wl_pointer.set_cursor` for the enter with `serial`.
    func show(on pointer: OpaquePointer?, serial: UInt32) {
        guard let pointer, let compositor = display.compositor else { return }
        if surface == nil { surface = wl_compositor_create_surface(compositor) }
        if !attached { attachImage() }
        wl_pointer_set_cursor(pointer, serial, surface, hotspot.x, hotspot.y)
    }

    private func attachImage() {
        guard let surface, let shm = display.shm else { return }
        let configuration = SilkConfiguration.current
        let size = configuration.cursorSize
        if theme == nil { theme = wl_cursor_theme_load(configuration.cursorTheme, size, shm) }
        if let theme, let cursor = wl_cursor_theme_get_cursor(theme, "left_ptr") ?? wl_cursor_theme_get_cursor(theme, "default"),
           cursor.pointee.image_count > 0, let image = cursor.pointee.images[0], let buffer = wl_cursor_image_get_buffer(image) {
            hotspot = (Int32(image.pointee.hotspot_x), Int32(image.pointee.hotspot_y))
            wl_surface_attach(surface, buffer, 0, 0)
            wl_surface_damage(surface, 0, 0, Int32(image.pointee.width), Int32(image.pointee.height))
        } else if let buffer = makeBuiltInArrow(shm: shm) {
            hotspot = (1, 1)
            wl_surface_attach(surface, buffer, 0, 0)
            wl_surface_damage(surface, 0, 0, 12, 18)
        } else {
            return
        }
        wl_surface_commit(surface)
        attached = true
    }

    /// A 12×18 black arrow with a white outline, drawn row by row (no theme needed).
    private func makeBuiltInArrow(shm: OpaquePointer) -> OpaquePointer? {
        let w = 12, h = 18
        guard let memory = try? SharedMemory(size: w * h * 4, name: "silk-cursor") else { return nil }
        let px = memory.address.bindMemory(to: UInt32.self, capacity: w * h)
        for y in 0..<h {
            // Arrow: a triangle widening to 11 px at row 11, then a short stem.
            let width = y < 12 ? y : (y < 17 ? 4 : 0)
            let start = y < 12 ? 0 : 4
            for x in 0..<w {
                let inside = x >= start && x <= start + width && width > 0
                let edge = inside && (x == start || x == start + width || y == 11 || y == 16)
                px[y * w + x] = !inside ? 0 : (edge ? 0xffff_ffff : 0xff00_0000)
            }
        }
        guard let pool = wl_shm_create_pool(shm, memory.fd, Int32(memory.size)) else { return nil }
        let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(w), Int32(h), Int32(w * 4), WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        guard let buffer else { return nil }
        builtIn = (memory, buffer)
        return buffer
    }
}
