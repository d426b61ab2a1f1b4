import CSilkLinux
import CWaylandClient
import Glibc
import SilkSystem

/// The render thread's `wl_event_queue`: frame callbacks, buffer releases and presentation
/// feedback arrive here, never on the main thread's queue, so the render thread can wait for
/// them without the main loop's help (and main never blocks on the render thread).
///
/// Waiting follows libwayland's multi-reader protocol (`wl_display_prepare_read_queue` →
/// poll → `wl_display_read_events` / `wl_display_cancel_read` → `dispatch_queue_pending`),
/// which is what lets the main thread read the same socket concurrently. The poll also watches
/// an eventfd so `interrupt()` (any thread) ends a wait at once.
final class RenderQueue {
    let display: OpaquePointer
    let queue: OpaquePointer
    private let wakeFD: Int32

    init(display: OpaquePointer) throws(WaylandError) {
        self.display = display
        guard let q = wl_display_create_queue(display) else {
            throw WaylandError(call: "wl_display_create_queue", "out of memory")
        }
        queue = q
        do throws(SystemCallError) {
            wakeFD = try systemCall("eventfd") { silk_eventfd_create() }
        } catch { throw WaylandError(error) }
    }

    deinit {
        wl_event_queue_destroy(queue)
        close(wakeFD)
    }

    /// A wrapper of `proxy` whose new objects and events belong to this queue
    /// (`wl_proxy_create_wrapper` + `wl_proxy_set_queue`); destroy with `wl_proxy_wrapper_destroy`.
    func wrap(_ proxy: OpaquePointer) -> OpaquePointer {
        let w = wl_proxy_create_wrapper(UnsafeMutableRawPointer(proxy))!
        wl_proxy_set_queue(OpaquePointer(w), queue)
        return OpaquePointer(w)
    }

    enum Outcome { case ready, interrupted, timedOut, failed }

    /// Dispatches this queue's events until `condition()` holds. `timeout` in milliseconds
    /// (-1: none). Render thread only.
    func dispatch(until condition: () -> Bool, timeout: Int32 = -1) -> Outcome {
        let deadline = timeout < 0 ? Int64.max : silk_clock_monotonic_ns() + Int64(timeout) * 1_000_000
        while true {
            if wl_display_dispatch_queue_pending(display, queue) < 0 { return .failed }
            if condition() { return .ready }
            while wl_display_prepare_read_queue(display, queue) != 0 {
                if wl_display_dispatch_queue_pending(display, queue) < 0 { return .failed }
            }
            if condition() { wl_display_cancel_read(display); return .ready }
            if wl_display_flush(display) < 0 && errno != EAGAIN { wl_display_cancel_read(display); return .failed }
            let remaining = deadline == Int64.max ? -1 : Int32(max(0, (deadline - silk_clock_monotonic_ns()) / 1_000_000))
            var fds = [pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let n = (try? systemCall("poll") { poll(&fds, 2, remaining) }) ?? -1
            if n > 0 && fds[0].revents != 0 {
                if wl_display_read_events(display) < 0 { return .failed }
            } else {
                wl_display_cancel_read(display)
            }
            if fds[1].revents != 0 { return .interrupted }
            if n == 0 && remaining >= 0 && silk_clock_monotonic_ns() >= deadline {
                if wl_display_dispatch_queue_pending(display, queue) < 0 { return .failed }
                return condition() ? .ready : .timedOut
            }
        }
    }

    /// Reads whatever the socket holds and handles this queue's events, without blocking.
    func pump() -> Bool {
        while wl_display_prepare_read_queue(display, queue) != 0 {
            if wl_display_dispatch_queue_pending(display, queue) < 0 { return false }
        }
        var p = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 0) > 0 {
            if wl_display_read_events(display) < 0 { return false }
        } else {
            wl_display_cancel_read(display)
        }
        return wl_display_dispatch_queue_pending(display, queue) >= 0
    }

    /// Makes the current and every later `dispatch` return `.interrupted` (any thread).
    func interrupt() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }
}
