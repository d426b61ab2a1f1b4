// A seat (seatd, logind — libseat in SilkKMS) that opens devices for a process without root and
// tells it when the user switched to another VT and back. The framebuffer layer knows only this
// protocol: evdev input opens its devices through it, and `FramebufferSession` watches its
// descriptor on the main loop and pauses and resumes display and input on its word.
import SilkSystem

/// A change of a seat's activity, in the order the seat reported them.
public enum SeatChange: Sendable, Equatable {
    /// The session is active again (switched back to its VT): the devices work again, the
    /// display must be set up again and repainted, input devices reopened.
    case enabled
    /// The session is being switched away: stop presenting and reading input, then call
    /// `DeviceSeat.acknowledgeDisable()` (the seat revokes the devices after that).
    case disabled
}

/// Opens devices on behalf of the process and reports VT switches.
///
/// Threads: every method may be called from any thread (implementations serialise their calls);
/// `FramebufferSession` calls `dispatch` and `acknowledgeDisable` on the main thread.
public protocol DeviceSeat: AnyObject, Sendable {
    /// What the seat is, for logs (`seatd seat0`, `logind seat0`).
    var seatDescription: String { get }
    /// Opens `path` (a DRM card or an evdev device) read-write and non-blocking; returns the
    /// descriptor. Throws the failed call (errno EACCES: the seat refused).
    func openDevice(_ path: String) throws(SystemCallError) -> Int32
    /// Closes a descriptor `openDevice` returned.
    func closeDevice(fd: Int32)
    /// The descriptor to watch for readability on the event loop; then call `dispatch`.
    var eventFD: Int32 { get }
    /// Reads the seat's pending messages without blocking; returns the activity changes they
    /// carried, in order.
    func dispatch() -> [SeatChange]
    /// Acknowledges a `.disabled` change once the display and input stopped.
    func acknowledgeDisable()
    /// Asks the seat to switch to session (VT) `number` (Ctrl+Alt+Fn while devices are grabbed
    /// by the seat, which turned the kernel's own VT switching keys off).
    func switchSession(_ number: Int)
}
