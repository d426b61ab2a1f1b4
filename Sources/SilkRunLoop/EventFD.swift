// eventfd(2): the loop's cross-thread doorbell. Any thread may ring it; the loop thread clears it.
import CSilkLinux
import Glibc
import SilkSystem

/// A non-blocking, close-on-exec eventfd (`eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`), closed on deinit.
///
/// `Sendable`: the only state is the immutable descriptor; concurrent `write`/`read` on an
/// eventfd are atomic in the kernel.
final class EventFD: Sendable {
    let fd: Int32

    init() throws(SystemCallError) {
        fd = try systemCall("eventfd") { silk_eventfd_create() }
    }

    deinit { close(fd) }

    /// Adds 1 to the counter (`write`), making the descriptor readable. Safe from any thread.
    func signal() throws(SystemCallError) {
        var one: UInt64 = 1
        do throws(SystemCallError) {
            _ = try systemCall("write(eventfd)") { write(fd, &one, MemoryLayout<UInt64>.size) }
        } catch where error.errno == EAGAIN {
            // The counter is saturated, so the descriptor is already readable: nothing is lost.
        }
    }

    /// Resets the counter (`read`) and returns what it held (0 if it was not signalled).
    @discardableResult
    func clear() throws(SystemCallError) -> UInt64 {
        try EventFD.clear(fd: fd)
    }

    /// Resets a non-blocking eventfd this process does not own (libdispatch's main-queue handle).
    @discardableResult
    static func clear(fd: Int32) throws(SystemCallError) -> UInt64 {
        var value: UInt64 = 0
        do throws(SystemCallError) {
            _ = try systemCall("read(eventfd)") { read(fd, &value, MemoryLayout<UInt64>.size) }
        } catch where error.errno == EAGAIN {
            return 0
        }
        return value
    }
}
