import CSilkLinux
import Glibc

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

    /// A system call that returned -1, with `strerror(errno)`.
    static func system(_ call: String, errno code: Int32 = Glibc.errno) -> WaylandError {
        WaylandError(call: call, "\(errorString(code)) (errno \(code))")
    }
}

/// `strerror_r` into a Swift string (strerror is not thread-safe).
func errorString(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    guard strerror_r(code, &buffer, buffer.count) == 0 else { return "unknown error" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Calls `body` until it returns something other than -1 with `errno == EINTR`; any other -1
/// throws a `WaylandError` naming `call`. Every system call of this module goes through here.
@inline(__always)
func systemCall<Result: BinaryInteger>(_ call: @autoclosure () -> String,
                                       _ body: () -> Result) throws(WaylandError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw WaylandError.system(call(), errno: code)
    }
}

/// Allocates a C listener struct once, at an address that never moves: libwayland keeps the
/// pointer for the life of the proxy (a Swift `&value` argument may point at a temporary).
func stableListener<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
    p.initialize(to: value)
    return p
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
