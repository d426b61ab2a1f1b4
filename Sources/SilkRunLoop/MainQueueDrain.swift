// Running `DispatchQueue.main` — and therefore `@MainActor` jobs, which Swift's Linux runtime
// enqueues there — on the main event loop.
//
// On Linux, libdispatch binds the main queue to the main thread and never drains it by itself
// (unless the program calls `dispatch_main()`). Whoever owns the main thread must poll the
// queue's wake-up handle and call the drain callback: CoreFoundation's RunLoop does exactly this
// with the same two exported functions, declared in CSilkLinux.h.
//
// An `async` `main()` (including `@main` types with `static func main() async`) calls
// `dispatch_main()`: the main thread exits, libdispatch's workers serve the main queue, and the
// handle reads -1. Apps that run EventLoop.main must therefore have a synchronous `main()`.
import CSilkLinux
import Dispatch

/// libdispatch's main-queue wake-up handle and drain callback. Main loop only.
struct MainQueueDrain {
    /// An eventfd libdispatch writes when it enqueues main-queue work (it never reads it).
    let handle: Int32

    /// `_dispatch_get_main_queue_handle_4CF()`; nil when the main queue is no longer bound to the
    /// main thread (after `dispatch_main()`, e.g. under an async `main` or swift-testing).
    init?() {
        let handle = _dispatch_get_main_queue_handle_4CF()
        guard handle >= 0 else { return nil }
        self.handle = handle
    }

    /// Resets the handle and tells whether libdispatch had written it (work is waiting). Must
    /// happen before `drain()`: work enqueued during the drain writes the handle again, so
    /// nothing enqueued after this read can be missed. One non-blocking `read`.
    func clearWakeUp() -> Bool {
        do { return try EventFD.clear(fd: handle) > 0 } catch {
            preconditionFailure("libdispatch main-queue handle: \(error)")
        }
    }

    /// `_dispatch_main_queue_callback_4CF(NULL)`: runs the work that was on the main queue when it
    /// started (work enqueued meanwhile waits for the next wake-up). Main thread only.
    func drain() {
        _dispatch_main_queue_callback_4CF(nil)
    }
}
