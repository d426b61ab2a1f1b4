// epoll(7): the one place the loop blocks. Level-triggered; each registration carries a 64-bit key
// that the loop maps back to its source.
import CSilkLinux
import Glibc
import SilkSystem

/// What a file-descriptor source waits for, and what it is told happened.
///
/// `hangup` and `error` are always reported by the kernel, whether asked for or not; asking for
/// `hangup` also asks for `EPOLLRDHUP` (peer closed its writing end).
public struct SourceEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `EPOLLIN`: data (or end of file) can be read without blocking.
    public static let readable = SourceEvents(rawValue: 0x001)
    /// `EPOLLOUT`: a write will not block.
    public static let writable = SourceEvents(rawValue: 0x004)
    /// `EPOLLERR`: an error is pending on the descriptor.
    public static let error = SourceEvents(rawValue: 0x008)
    /// `EPOLLHUP` or `EPOLLRDHUP`: the peer hung up.
    public static let hangup = SourceEvents(rawValue: 0x010)

    static let epollRDHUP: UInt32 = 0x2000

    /// The `epoll_event.events` mask to register.
    var epollMask: UInt32 {
        var mask = rawValue & (Self.readable.rawValue | Self.writable.rawValue)
        if contains(.hangup) { mask |= Self.epollRDHUP }
        return mask
    }

    /// Translates a reported `epoll_event.events` mask.
    init(epollEvents events: UInt32) {
        var result = SourceEvents(rawValue: events & 0x01d)
        if events & Self.epollRDHUP != 0 { result.insert(.hangup) }
        self = result
    }

    public var description: String {
        let names: [(SourceEvents, String)] = [
            (.readable, "readable"), (.writable, "writable"), (.error, "error"), (.hangup, "hangup"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}

/// An epoll instance (`epoll_create1(EPOLL_CLOEXEC)`), closed on deinit.
/// Used only by the thread running its loop.
final class Epoll {
    static let maximumEventsPerWait = 64

    let fd: Int32
    private var readyEvents = [UInt32](repeating: 0, count: Epoll.maximumEventsPerWait)
    private var readyKeys = [UInt64](repeating: 0, count: Epoll.maximumEventsPerWait)

    init() throws(SystemCallError) {
        fd = try systemCall("epoll_create1") { silk_epoll_create() }
    }

    deinit { close(fd) }

    /// `epoll_ctl(EPOLL_CTL_ADD)`.
    func add(fd watched: Int32, events: UInt32, key: UInt64) throws(SystemCallError) {
        _ = try systemCall("epoll_ctl(EPOLL_CTL_ADD)") {
            silk_epoll_ctl(fd, EPOLL_CTL_ADD, watched, events, key)
        }
    }

    /// `epoll_ctl(EPOLL_CTL_MOD)`.
    func modify(fd watched: Int32, events: UInt32, key: UInt64) throws(SystemCallError) {
        _ = try systemCall("epoll_ctl(EPOLL_CTL_MOD)") {
            silk_epoll_ctl(fd, EPOLL_CTL_MOD, watched, events, key)
        }
    }

    /// `epoll_ctl(EPOLL_CTL_DEL)`.
    func remove(fd watched: Int32) throws(SystemCallError) {
        _ = try systemCall("epoll_ctl(EPOLL_CTL_DEL)") {
            silk_epoll_ctl(fd, EPOLL_CTL_DEL, watched, 0, 0)
        }
    }

    /// `epoll_wait`: blocks up to `timeoutMilliseconds` (-1: forever, 0: poll) and returns how many
    /// descriptors are ready; read them with `ready(_:)`. An interrupted wait (EINTR) returns 0
    /// rather than restarting with a stale timeout — the loop recomputes it.
    func wait(timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        let count = readyEvents.withUnsafeMutableBufferPointer { events in
            readyKeys.withUnsafeMutableBufferPointer { keys in
                silk_epoll_wait(fd, events.baseAddress, keys.baseAddress,
                                Int32(Epoll.maximumEventsPerWait), timeoutMilliseconds)
            }
        }
        if count >= 0 { return Int(count) }
        let code = Glibc.errno
        if code == EINTR { return 0 }
        throw SystemCallError(call: "epoll_wait", errno: code)
    }

    /// The `index`th descriptor reported by the last `wait`: its key and raw event mask.
    func ready(_ index: Int) -> (key: UInt64, events: UInt32) {
        (readyKeys[index], readyEvents[index])
    }
}
