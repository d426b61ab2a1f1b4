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
/// progressive for even IDs by default), `/avatar/ID.png` (PNG), `/animated/ID.gif?w=W&h=H&frames=N&delay=CS`
/// (an animated GIF looping forever: 160 × 90, 12 frames of 80 ms by default), `/health` (text).
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
/// | `hold=BYTES` | send the headers and BYTES of the body, then wait for `release(containing:)` (at most a minute) and send the rest |
/// | `garbage=1` | a body of random bytes labelled `image/jpeg` |
/// | `huge=1` | a real JPEG whose frame header claims 30000 × 30000 pixels |
/// | `length=N` | claim `Content-Length: N` (say 10 GB), send the body, then zeros as fast as the client reads, up to N |
/// | `endless=1` | no `Content-Length`: the body, then zeros as fast as the client reads |
/// | `overfill=N` | a feed page with N posts (at most 100,000) whatever `count` asked for |
/// | `gzipbomb=1` | `Content-Encoding: gzip` (asked for or not): the body, then endless zeros, ~160:1 (`gzipbomb=N`, N > 1: N bytes on the wire) |
///
/// The hostile bodies (`length`, `endless`, `gzipbomb`) end when the client closes, the server
/// stops, or `hostileBodyLimit` bytes (or `cap=N`, if smaller) went out, whichever comes first: a test that fails cannot
/// leave a thread sending for ever. `bytesSent(containing:)` tells how far a client let one go.
/// Numbers in the query that would overflow are refused with 400; `delay` and `interval` are
/// capped at a minute.
///
/// One request per connection (`Connection: close`), each on its own thread, so a stalled
/// response cannot hold up others. Threads: an accept thread and one per connection.
public final class DemoServer: @unchecked Sendable {
    public let port: UInt16
    public let content: DemoContent
    /// The most bytes one hostile body sends on the wire (1 GiB).
    public static let hostileBodyLimit = 1 << 30
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

    /// The requests so far, as "PATH?QUERY", oldest first: every one of the last
    /// `requestLogLimit` (4,096) at least; older ones are forgotten (the log is in the process a
    /// benchmark measures, and a long feed makes ~20,000 requests).
    public var requestLog: [String] { state.log }
    /// Requests the log keeps at least (`requestLog`).
    public static let requestLogLimit = ServerState.logLimit
    /// Requests whose path (without query) is `path`, among those in `requestLog`.
    public func requestCount(path: String) -> Int {
        state.log.filter { $0 == path || $0.hasPrefix(path + "?") }.count
    }
    public func resetRequestLog() { state.resetLog() }
    /// Connections whose request target contains `fragment` that are still open (a client that
    /// cancels closes its socket, which ends a stalled response).
    public func openConnections(containing fragment: String) -> Int { state.openConnections(containing: fragment) }
    /// Body bytes sent on connections whose request target contains `fragment` (among the
    /// last `ServerState.recentTargets` = 1,024 distinct targets: older ones are forgotten).
    public func bytesSent(containing fragment: String) -> Int { state.bytesSent(containing: fragment) }
    /// The request head (request line and headers) of the last request whose target contains
    /// `fragment`, if that target is among the last 1,024 distinct ones.
    public func requestHead(containing fragment: String) -> String? { state.head(containing: fragment) }
    /// Lets `hold=BYTES` responses whose request target contains `fragment` send the rest of
    /// their body (now, or as soon as they reach the hold). Tests use it to see a partial body
    /// handled before the end arrives, whatever the machine's load.
    public func release(containing fragment: String) { state.release(fragment) }

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
        guard let (target, requestHead) = readRequest(fd) else {
            _ = sendAll(fd, Data("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        state.record(target, head: requestHead)
        state.opened(target)
        defer { state.closed(target) }
        let request = DemoRequest(target: target)
        var response = DemoResponse(status: 200, contentType: "text/plain", body: Data())
        if let bad = request.invalidNumber {
            response = DemoResponse(status: 400, contentType: "text/plain", body: Data("bad request: \(bad)\n".utf8))
        } else if let code = request.int("status") {
            response = DemoResponse(status: code, contentType: "text/plain", body: Data("status \(code)\n".utf8))
        } else if let n = request.int("fail"), state.countFailure(target) <= n {
            response = DemoResponse(status: 503, contentType: "text/plain", body: Data("try again\n".utf8))
        } else {
            response = content.respond(to: request)
        }
        if let ms = request.int("delay"), ms > 0 { sleepMilliseconds(min(ms, 60_000), state: state) }
        if response.status == 200, let hostile = HostileBody(request) {
            sendHostile(hostile, request: request, body: response.body, contentType: response.contentType, fd: fd, target: target, state: state)
            return
        }
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
        if let n = request.int("hold") {
            let cut = min(max(0, n), body.count)
            guard sendAll(fd, body.prefix(cut)) else { return }
            var waited = 0
            while !state.isReleased(target), !state.isStopped, waited < 60_000 { usleep(10_000); waited += 10 }
            _ = sendAll(fd, body.suffix(from: body.startIndex + cut))
            return
        }
        if let n = request.int("close") {
            _ = sendAll(fd, body.prefix(max(0, n)))
            shutdown(fd, Int32(SHUT_RDWR))
            return
        }
        if let chunk = request.int("chunk"), chunk > 0 {
            let interval = min(request.int("interval") ?? 20, 60_000)
            var offset = 0
            while offset < body.count, !state.isStopped {
                let end = min(body.count, offset + chunk)
                guard sendAll(fd, body.subdata(in: offset..<end)) else { return }
                state.sent(end - offset, for: target)
                offset = end
                if offset < body.count { sleepMilliseconds(interval, state: state) }
            }
            return
        }
        _ = sendAll(fd, body)
    }

    /// Reads up to the blank line ending the headers (16 KiB at most) and returns the target
    /// of a GET ("/path?query") with the head, or nil.
    private static func readRequest(_ fd: Int32) -> (target: String, head: String)? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 2048)
        while buffer.count < maximumHeadBytes {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
            switch parseRequestHead(buffer) {
            case .incomplete: continue
            case .bad: return nil
            case let .get(target): return (target, String(decoding: buffer, as: UTF8.self))
            }
        }
        return nil
    }

    /// The most bytes of a request head the server reads before answering 400.
    public static let maximumHeadBytes = 16_384

    public enum ParsedHead: Equatable, Sendable {
        /// The blank line ending the headers has not arrived yet.
        case incomplete
        /// Not a GET of an absolute path (or not UTF-8).
        case bad
        /// A GET of `target` ("/path?query").
        case get(String)
    }

    /// Parses the bytes of a request received so far (pure, so the request fuzzer drives it).
    public static func parseRequestHead(_ buffer: [UInt8]) -> ParsedHead {
        guard let text = String(bytes: buffer, encoding: .utf8) else {
            // Invalid UTF-8 may be only a sequence cut by the read: wait for the end of the head.
            return buffer.count >= maximumHeadBytes || containsBlankLine(buffer) ? .bad : .incomplete
        }
        guard text.contains("\r\n\r\n") else { return .incomplete }
        // Bytes, not Characters: "\r\n" is one grapheme cluster in a Swift String.
        let firstLine = buffer.prefix { $0 != 0x0D }
        let line = String(decoding: firstLine, as: UTF8.self).split(separator: " ")
        guard line.count == 3, line[0] == "GET", line[1].hasPrefix("/") else { return .bad }
        return .get(String(line[1]))
    }

    private static func containsBlankLine(_ b: [UInt8]) -> Bool {
        b.count >= 4 && (0...(b.count - 4)).contains { b[$0] == 0x0D && b[$0 + 1] == 0x0A && b[$0 + 2] == 0x0D && b[$0 + 3] == 0x0A }
    }

    // MARK: Hostile bodies

    /// The hostile body a request asks for (`length=N`, `endless=1`, `gzipbomb=1`).
    enum HostileBody {
        case claimedLength(Int)
        case endless
        case gzipBomb(wireBytes: Int)
        init?(_ request: DemoRequest) {
            if let n = request.int("length"), n >= 0 { self = .claimedLength(n) }
            else if request.query["endless"] != nil { self = .endless }
            else if request.query["gzipbomb"] != nil { self = .gzipBomb(wireBytes: max(2, request.int("gzipbomb") ?? 1)) }
            else { return nil }
        }
    }

    /// Sends `body` then filler as fast as the client takes it, until the client closes, the
    /// server stops, the claimed length or `hostileBodyLimit` is reached.
    private static func sendHostile(_ kind: HostileBody, request: DemoRequest, body: Data, contentType: String, fd: Int32,
                                    target: String, state: ServerState) {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\n"
        var limit = hostileBodyLimit
        // Tests cap the wire bytes so a transfer whose cancel waits on libcurl ends soon.
        if let cap = request.int("cap"), cap > 0 { limit = min(limit, cap) }
        var filler = Data(count: 64 << 10)
        var first = body
        switch kind {
        case let .claimedLength(n):
            head += "Content-Length: \(n)\r\n"
            limit = min(limit, n)
        case .endless:
            break
        case let .gzipBomb(wireBytes):
            if wireBytes > 2 { limit = min(limit, wireBytes) }
            head += "Content-Encoding: gzip\r\n"
            first = GzipBomb.prefix(body)
            filler = GzipBomb.zeros
        }
        head += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        guard sendAll(fd, Data(head.utf8)) else { return }
        var sent = 0
        var next = first
        while sent < limit, !state.isStopped {
            let piece = next.prefix(limit - sent)
            guard sendAll(fd, piece) else { return }
            sent += piece.count
            state.sent(piece.count, for: target)
            next = filler
        }
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
    // Per-target details are kept for the most recent `recentTargets` targets only: a feed
    // bench asks for ~20,000 distinct URLs, and a head each (~300 bytes) was megabytes of the
    // memory the bench measures, in a server that stands for another machine. The request log
    // itself (targets only) keeps the last `logLimit` requests at least.
    static let recentTargets = 1024
    static let logLimit = 4096
    private var sentBytes: [String: Int] = [:]
    private var heads: [String: String] = [:]
    private var detailOrder: [String] = []
    /// Keeps `target`'s head and byte count among the recent ones, forgetting the oldest.
    private func _locked_noteDetail(_ target: String) {
        guard heads[target] == nil, sentBytes[target] == nil else { return }
        detailOrder.append(target)
        if detailOrder.count > Self.recentTargets {
            let oldest = detailOrder.removeFirst()
            heads[oldest] = nil
            sentBytes[oldest] = nil
        }
    }
    private var released: [String] = []
    private func locked<R>(_ body: () -> R) -> R { lock.withLock(body) }
    var isStopped: Bool { locked { stopped } }
    /// True the first time.
    func stop() -> Bool { locked { defer { stopped = true }; return !stopped } }
    func record(_ target: String, head: String) {
        locked {
            // Halved when twice the limit: amortized O(1), and never fewer than `logLimit` kept.
            if requests.count >= 2 * Self.logLimit { requests.removeFirst(Self.logLimit) }
            requests.append(target); _locked_noteDetail(target); heads[target] = head
        }
    }
    func head(containing fragment: String) -> String? {
        locked { requests.last { $0.contains(fragment) }.flatMap { heads[$0] } }
    }
    func sent(_ n: Int, for target: String) { locked { _locked_noteDetail(target); sentBytes[target, default: 0] += n } }
    func bytesSent(containing fragment: String) -> Int {
        locked { sentBytes.filter { $0.key.contains(fragment) }.values.reduce(0, +) }
    }
    var log: [String] { locked { requests } }
    func release(_ fragment: String) { locked { released.append(fragment) } }
    func isReleased(_ target: String) -> Bool { locked { released.contains { target.contains($0) } } }
    func opened(_ target: String) { locked { open[target, default: 0] += 1 } }
    func closed(_ target: String) {
        locked {
            open[target, default: 0] -= 1
            if open[target] == 0 { open[target] = nil }  // 20,000 closed targets otherwise
        }
    }
    func openConnections(containing fragment: String) -> Int {
        locked { open.filter { $0.key.contains(fragment) }.values.reduce(0, +) }
    }
    func resetLog() { locked { requests.removeAll(); failures.removeAll(); heads.removeAll(); sentBytes.removeAll(); detailOrder.removeAll() } }
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
                // Empty pieces kept: "?=" split to nothing and `kv[0]` trapped (the request fuzzer).
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                q[String(kv[0])] = kv.count == 2 ? String(kv[1]) : ""
            }
        }
        query = q
    }
    public func int(_ name: String) -> Int? { query[name].flatMap { Int($0) } }

    /// The first numeric parameter whose value does not fit in an `Int` ("page=99999999999999999999"),
    /// as "name=value": answered with 400 rather than read as absent. (The value is cut to
    /// 40 characters so the answer stays one short line.)
    public var invalidNumber: String? {
        for name in ["page", "count", "status", "fail", "delay", "chunk", "interval", "stall", "close", "hold", "length", "w", "h", "progressive", "overfill", "cap"] {
            guard let v = query[name], !v.isEmpty, Int(v) == nil else { continue }
            let digits = v.drop { $0 == "-" || $0 == "+" }
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) { return "\(name)=\(v.prefix(40)) is out of range" }
        }
        return nil
    }
}

/// A gzip stream that inflates to the given bytes followed by endless copies of their last
/// byte, at about 160:1: stored deflate blocks for the bytes, then fixed-Huffman blocks of
/// length-258, distance-1 copies (13 bits each). `zeros` is one such block, byte-aligned
/// (16,006 copies: 3 + 13 × 16,006 + 7 bits is a whole number of bytes), so it repeats for ever.
enum GzipBomb {
    /// The gzip header and `body` as stored blocks (non-final).
    static func prefix(_ body: Data) -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        var rest = body.isEmpty ? Data([0]) : body[...]
        while !rest.isEmpty {
            let n = min(rest.count, 65_535)
            out += [0x00, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += rest.prefix(n)
            rest = rest.dropFirst(n)
        }
        return out
    }

    /// 16,006 × 258 = 4,129,548 inflated bytes in 26,011 bytes.
    static let zeros: Data = {
        var bits = BitWriter()
        bits.write(0, count: 1)  // BFINAL = 0
        bits.write(1, count: 2)  // BTYPE = 01, fixed Huffman
        for _ in 0..<16_006 {
            bits.writeCode(0b1100_0101, length: 8)  // length code 285 = 258 bytes
            bits.writeCode(0, length: 5)            // distance code 0 = 1 byte back
        }
        bits.writeCode(0, length: 7)                // end of block (256)
        precondition(bits.pending == 0)
        return bits.bytes
    }()

    struct BitWriter {
        var bytes = Data()
        var current: UInt32 = 0
        var pending = 0
        /// `value`'s low `count` bits, least significant first (deflate's header fields).
        mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count { push(value >> UInt32(i) & 1) }
        }
        /// A Huffman code, most significant bit first (deflate packs codes reversed).
        mutating func writeCode(_ code: UInt32, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { push(code >> UInt32(i) & 1) }
        }
        private mutating func push(_ bit: UInt32) {
            current |= bit << UInt32(pending)
            pending += 1
            if pending == 8 { bytes.append(UInt8(current)); current = 0; pending = 0 }
        }
    }
}

public struct DemoResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: Data
    public init(status: Int, contentType: String, body: Data) { self.status = status; self.contentType = contentType; self.body = body }
}
