// The one path by which Silk's kernel wrappers call into the kernel: retry EINTR, turn -1 into a
// typed error that names the call. (Modelled on swift-nio's `Linux.swift` / `System.swift` and
// swift-system's `Syscalls.swift`.)
import Glibc

/// A system call that failed, named as in its man page, with the `errno` it set.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `"epoll_ctl(EPOLL_CTL_ADD)"`.
    public let call: String
    /// The `errno` it reported.
    public let errno: Int32

    /// An error for `call` failing with `errno`. `systemCall` makes these; wrappers make their own
    /// for calls that report failure another way (`pthread_create` returns the code, `epoll_wait`
    /// treats `EINTR` as "no events").
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// `strerror_r(errno)` ("No such file or directory").
    public var message: String { errorString(errno) }

    /// The call, its `strerror` text and the number: `open(/dev/fb0) failed: Permission denied
    /// (errno 13)`. What logs and exit messages show.
    public var description: String { "\(call) failed: \(message) (errno \(errno))" }
}

/// `strerror_r(code)` as a Swift string (strerror is not thread-safe; Swift imports the XSI
/// variant, which fills the buffer).
public func errorString(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    guard strerror_r(code, &buffer, buffer.count) == 0 else { return "unknown error" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Calls `body` until it returns something other than -1 with `errno == EINTR`; any other -1
/// becomes a `SystemCallError` naming `call`.
@inlinable
public func systemCall<Result: BinaryInteger>(
    _ call: @autoclosure () -> String, _ body: () -> Result
) throws(SystemCallError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemCallError(call: call(), errno: code)
    }
}
