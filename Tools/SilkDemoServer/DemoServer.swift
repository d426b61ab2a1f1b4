import Foundation
import SilkSystem
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on POSIX sockets, bound to 127.0.0.1 on a port the kernel picks,
/// serving generated content (`DemoContent`) for the feed demo and for network tests.
///
/// ```swift
/// let server = try DemoServer()               // listening at once; server.port, server.baseURL
/// server.url("/photo/7.jpg?w=600&h=400")       // http://127.0.0.1:PORT/photo/7.jpg?w=600&h=400
/// server.requestCount(path: "/photo/7.jpg")    // how many requests reached that path
/// server.stop()                                // also on deinit; stalled connections end too
/// ```
///
/// Routes: `/feed?page=N&count=M` (JSON), `/photo/ID.jpg?w=W&h=H[&progressive=0|1]` (JPEG,
/// progressive for even IDs by default), `/avatar/ID.png` (PNG), `/health` (text).
///
/// Fault options, as query parameters on any route (tests combine them):
///
/// | parameter | effect |
/// |---|---|
/// | `status=CODE` | answer with that status and a short text body |
/// | `fail=N` | the first N requests for this exact path and query get 503, then normal answers |
/// | `delay=MS` | wait before answering |
/// | `chunk=BYTES&interval=MS` | send the body in chunks with pauses (progressive display) |
/// | `stall=BYTES` | send the headers (full Content-Length) and BYTES of the body, then nothing |
/// | `close=BYTES` | send the headers (full Content-Length) and BYTES of the body, then close |
/// | `garbage=1` | a body of random bytes labelled `image/jpeg` |
/// | `huge=1` | a real JPEG whose frame header claims 30000 × 30000 pixels |
///
/// One request per connection (`Connection: close`), each on its own thread, so a stalled
/// response cannot hold up others. Threads: an accept thread and one per connection.
public final class DemoServer: @unchecked Sendable {
    public let port: UInt16
    public let content: DemoContent
    private let listenFD: Int32
    private let state = ServerState()

    /// Binds 127.0.0.1:0 and starts accepting. Throws with the failing call's name.
    public init(content: DemoContent = DemoContent()) throws {
        self.content = content
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DemoServerError.system("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let e = errno; close(fd); throw DemoServerError.system("bind", e) }
        guard listen(fd, 64) == 0 else { let e = errno; close(fd); throw DemoServerError.system("listen", e) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        guard named == 0 else { let e = errno; close(fd); throw DemoServerError.system("getsockname", e) }
        listenFD = fd
        port = UInt16(bigEndian: addr.sin_port)
        content.baseURL = "http://127.0.0.1:\(port)"
        let thread = Thread { [state, content, fd] in DemoServer.acceptLoop(fd: fd, state: state, content: content) }
        thread.name = "silk.demo-server"
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of `pathAndQuery` ("/photo/1.jpg?w=10&h=10") on this server.
    public func url(_ pathAndQuery: String) -> URL { URL(string: "http://127.0.0.1:\(port)" + pathAndQuery)! }

    /// Stops accepting and ends stalled responses (idempotent).
    public func stop() {
        guard state.stop() else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
    }

    /// Every request so far, as "PATH?QUERY".
    public var requestLog: [String] { state.log }
    /// Requests whose path (without query) is `path`.
    public func requestCount(path: String) -> Int {
        state.log.filter { $0 == path || $0.hasPrefix(path + "?") }.count
    }
    public func resetRequestLog() { state.resetLog() }
    /// Connections whose request target contains `fragment` that are still open (a client that
    /// cancels closes its socket, which ends a stalled response).
    public func openConnections(containing fragment: String) -> Int { state.openConnections(containing: fragment) }

    // MARK: Connections

    private static func acceptLoop(fd: Int32, state: ServerState, content: DemoContent) {
        while !state.isStopped {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // the listening socket was shut down
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let thread = Thread { handle(client, state: state, content: content) }
            thread.name = "silk.demo-server.connection"
            thread.start()
        }
    }

    private static func handle(_ fd: Int32, state: ServerState, content: DemoContent) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let target = readRequestTarget(fd) else {
            _ = sendAll(fd, Data("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        state.record(target)
        state.opened(target)
        defer { state.closed(target) }
        let request = DemoRequest(target: target)
        var response = DemoResponse(status: 200, contentType: "text/plain", body: Data())
        if let code = request.int("status") {
            response = DemoResponse(status: code, contentType: "text/plain", body: Data("status \(code)\n".utf8))
        } else if let n = request.int("fail"), state.countFailure(target) <= n {
            response = DemoResponse(status: 503, contentType: "text/plain", body: Data("try again\n".utf8))
        } else {
            response = content.respond(to: request)
        }
        if let ms = request.int("delay"), ms > 0 { sleepMilliseconds(ms, state: state) }
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        head += "Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\n"
        head += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        guard sendAll(fd, Data(head.utf8)) else { return }
        let body = response.body
        if let n = request.int("stall") {
            _ = sendAll(fd, body.prefix(max(0, n)))
            // Stay silent until the client gives up (it closes) or the server stops.
            while !state.isStopped {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 50) > 0 {
                    var byte: UInt8 = 0
                    if recv(fd, &byte, 1, 0) <= 0 { return }
                }
            }
            return
        }
        if let n = request.int("close") {
            _ = sendAll(fd, body.prefix(max(0, n)))
            shutdown(fd, Int32(SHUT_RDWR))
            return
        }
        if let chunk = request.int("chunk"), chunk > 0 {
            let interval = request.int("interval") ?? 20
            var offset = 0
            while offset < body.count, !state.isStopped {
                let end = min(body.count, offset + chunk)
                guard sendAll(fd, body.subdata(in: offset..<end)) else { return }
                offset = end
                if offset < body.count { sleepMilliseconds(interval, state: state) }
            }
            return
        }
        _ = sendAll(fd, body)
    }

    /// Reads up to the blank line ending the headers (16 KiB at most) and returns the target
    /// of a GET ("/path?query"), or nil.
    private static func readRequestTarget(_ fd: Int32) -> String? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 2048)
        while buffer.count < 16_384 {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
            if let text = String(bytes: buffer, encoding: .utf8), text.contains("\r\n\r\n") {
                // Bytes, not Characters: "\r\n" is one grapheme cluster in a Swift String.
                let firstLine = buffer.prefix { $0 != 0x0D }
                let line = String(decoding: firstLine, as: UTF8.self).split(separator: " ")
                guard line.count == 3, line[0] == "GET", line[1].hasPrefix("/") else { return nil }
                return String(line[1])
            }
        }
        return nil
    }

    private static func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    private static func sleepMilliseconds(_ ms: Int, state: ServerState) {
        var left = ms
        while left > 0, !state.isStopped { let step = min(left, 20); usleep(UInt32(step * 1000)); left -= step }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

public enum DemoServerError: Error, CustomStringConvertible {
    case system(String, Int32)
    public var description: String {
        switch self { case let .system(call, e): "demo server: \(call) failed: \(String(cString: strerror(e)))" }
    }
}

/// The server's shared mutable state, behind one lock.
final class ServerState: @unchecked Sendable {
    private let lock = Lock()
    private var stopped = false
    private var requests: [String] = []
    private var failures: [String: Int] = [:]
    private var open: [String: Int] = [:]
    private func locked<R>(_ body: () -> R) -> R { lock.withLock(body) }
    var isStopped: Bool { locked { stopped } }
    /// True the first time.
    func stop() -> Bool { locked { defer { stopped = true }; return !stopped } }
    func record(_ target: String) { locked { requests.append(target) } }
    var log: [String] { locked { requests } }
    func opened(_ target: String) { locked { open[target, default: 0] += 1 } }
    func closed(_ target: String) { locked { open[target, default: 0] -= 1 } }
    func openConnections(containing fragment: String) -> Int {
        locked { open.filter { $0.key.contains(fragment) }.values.reduce(0, +) }
    }
    func resetLog() { locked { requests.removeAll(); failures.removeAll() } }
    /// Counts a request for `target` and returns how many there were (1 for the first).
    func countFailure(_ target: String) -> Int { locked { failures[target, default: 0] += 1; return failures[target]! } }
}

/// A parsed request target.
public struct DemoRequest: Sendable {
    public let path: String
    public let query: [String: String]
    public init(target: String) {
        let parts = target.split(separator: "?", maxSplits: 1)
        path = String(parts.first ?? "/")
        var q: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                q[String(kv[0])] = kv.count == 2 ? String(kv[1]) : ""
            }
        }
        query = q
    }
    public func int(_ name: String) -> Int? { query[name].flatMap { Int($0) } }
}

public struct DemoResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: Data
    public init(status: Int, contentType: String, body: Data) { self.status = status; self.contentType = contentType; self.body = body }
}
