// The one path by which SilkRunLoop's kernel wrappers call into the kernel: retry EINTR, turn -1
// into a typed error that names the call. (Modelled on swift-nio's `Linux.swift` / `System.swift`.)
import Glibc

/// A system call that failed, named as in its man page, with the `errno` it set.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `"epoll_ctl(EPOLL_CTL_ADD)"`.
    public let call: String
    /// The `errno` it reported.
    public let errno: Int32

    /// An error for `call` that failed with `errno` (read `errno` right after the call: anything in
    /// between may overwrite it).
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String {
        // strerror_r (the XSI variant Swift imports) fills the buffer; strerror is not thread-safe.
        var buffer = [CChar](repeating: 0, count: 128)
        let message = strerror_r(errno, &buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : "unknown error"
        return "\(call) failed: \(message) (errno \(errno))"
    }
}

/// Calls `body` until it returns something other than -1 with `errno == EINTR`; any other -1
/// becomes a `SystemCallError` naming `call`.
@inline(__always)
func systemCall<Result: BinaryInteger>(
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
