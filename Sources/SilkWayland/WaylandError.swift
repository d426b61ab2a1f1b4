import CSilkLinux
import Glibc
import SilkSystem

/// Why the Wayland presenter failed: one line for the user, naming the call that failed.
///
/// `description` is what `silk` prints ("wl_display_connect(wayland-1): No such file or
/// directory — is a compositor running? …").
public struct WaylandError: Error, CustomStringConvertible, Sendable {
    /// The C function (or protocol step) that failed, e.g. `"wl_display_connect"`.
    public let call: String
    public let message: String
    public init(call: String, _ message: String) { self.call = call; self.message = message }

    public var description: String { "\(call): \(message)" }

    /// A system call that returned -1 (or `MAP_FAILED`), with `strerror(errno)`.
    static func system(_ call: String, errno code: Int32 = Glibc.errno) -> WaylandError {
        WaylandError(call: call, "\(errorString(code)) (errno \(code))")
    }

    /// A failed `systemCall` (SilkSystem), worded as `system(_:errno:)`.
    init(_ error: SystemCallError) { self = .system(error.call, errno: error.errno) }
}

/// Allocates a C listener struct once, at an address that never moves: libwayland keeps the
/// pointer for the life of the proxy (a Swift `&value` argument may point at a temporary).
func stableListener<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
    p.initialize(to: value)
    return p
}

/// `stableListener` for the structs of libwayland's own headers, which grow with its version
/// (1.22 added `wl_surface.preferred_buffer_scale` and `wl_pointer.axis_relative_direction`, later
/// releases more): a memberwise initializer compiles against one version's member list only, so
/// these start from the zeroed struct (`T()`) and `fill` assigns the events Silk handles. Members
/// left nil belong to interface versions newer than the ones Silk binds, so they are never called.
func stableListener<T>(_ zeroed: T, _ fill: (inout T) -> Void) -> UnsafeMutablePointer<T> {
    var value = zeroed
    fill(&value)
    return stableListener(value)
}

/// The object passed through a listener's `data` pointer (unretained: the owner outlives its proxies).
@inline(__always)
func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as: T.Type = T.self) -> T {
    Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
}

@inline(__always)
func unretained(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
}

/// CLOCK_MONOTONIC in nanoseconds: the clock compositors stamp presentation feedback with.
func monotonicNanoseconds() -> UInt64 { UInt64(silk_clock_monotonic_ns()) }

/// `clock_gettime(clock)` in nanoseconds (the presentation clock a compositor names).
func nanoseconds(on clock: Int32) -> UInt64 {
    var ts = timespec()
    guard clock_gettime(clockid_t(clock), &ts) == 0 else { return monotonicNanoseconds() }
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
