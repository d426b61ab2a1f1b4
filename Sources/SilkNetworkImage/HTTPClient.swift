import Foundation
import CCurl
import SilkSystem

/// HTTP(S) GETs on libcurl's multi interface — `ImageDownloader`'s transport, and one for an app's
/// own fetches from servers it does not control (the feed demo's pages): one thread per client
/// runs every transfer (started when the first one is resumed, ended after two idle seconds),
/// the body goes to the transfer's handler chunk by chunk as libcurl delivers it, and a cancel
/// stops it there. Limits are the handler's to keep (count the bytes, cancel past a bound; keep a
/// deadline of your own for a whole transfer): the client bounds only idleness.
///
/// Why not FoundationNetworking's `URLSession`, which also runs on libcurl: it leaks about 170
/// bytes of libcurl URL state per request (`_EasyHandle.set(url:)` compares hosts through
/// `CFURLSessionCurlHostIsEqual`, which frees its `CURLU` with `curl_free`, not
/// `curl_url_cleanup`) — the largest growth left in a 10,000-post feed (docs/benchmark.md) — and
/// it ignores a refused response's disposition and lost cancels that raced a task's start (Silk
/// kept a gate against that until 2026-12-07). Here a cancel is a flag the next libcurl callback
/// sees.
///
/// Events of one transfer come in order on the client's thread: at most one `.head`, then
/// `.data` chunks, then exactly one `.completed` — also for a cancelled transfer (with
/// `.cancelled`), except after `invalidate()`. A handler may block (`BoundedDelegateQueue`): the
/// client's other transfers wait meanwhile, which is how a slow consumer holds libcurl back.
public final class HTTPClient: @unchecked Sendable {
    /// Why a transfer ended without its whole body.
    public enum Failure: Error, Equatable, Sendable {
        /// `cancel` (or a handler's refusal) stopped it.
        case cancelled
        /// No byte arrived for the transfer's idle timeout (connecting included).
        case timedOut
        /// libcurl's error, with its code (`CURLcode`) and message.
        case transport(code: Int, message: String)
    }

    /// What a transfer reports, in order, on the client's thread.
    public enum Event: Sendable {
        /// The final response's status and `Content-Length` (nil when not announced); before the
        /// first body byte.
        case head(status: Int, expectedLength: Int64?)
        /// The newest bytes of the body (decoded when the server used a content encoding).
        case data(Data)
        /// The end: nil when the whole body arrived.
        case completed(Failure?)
    }

    /// What one request asks for.
    public struct Request: Sendable {
        /// The http or https URL (libcurl refuses other schemes, and redirects to them).
        public var url: String
        /// Extra request header lines ("Accept: image/png").
        public var headers: [String] = []
        /// libcurl's `CURLOPT_ACCEPT_ENCODING`: the encodings to ask for, which it then decodes
        /// (whatever encoding a server sends anyway, of those it knows).
        public var acceptEncoding = "identity"
        /// Seconds without a byte (connecting and waiting for a connection included) before the
        /// transfer fails as timed out.
        public var idleTimeout: TimeInterval = 15
        /// Redirects followed at most (http and https only).
        public var maxRedirects = 5
        /// A GET of `url`; the other settings keep their defaults (identity encoding, 15 s idle
        /// timeout, 5 redirects) unless given.
        public init(url: String, headers: [String] = [], acceptEncoding: String = "identity", idleTimeout: TimeInterval = 15,
                    maxRedirects: Int = 5) {
            self.url = url; self.headers = headers; self.acceptEncoding = acceptEncoding
            self.idleTimeout = idleTimeout; self.maxRedirects = maxRedirects
        }
    }

    private final class Transfer: @unchecked Sendable {
        let id: Int
        let easy: UnsafeMutableRawPointer
        let handler: @Sendable (Int, Event) -> Void
        let idleTimeout: TimeInterval
        var headers: UnsafeMutablePointer<curl_slist>?
        /// Client thread only.
        var headSent = false
        var lastActivity = DispatchTime.now()
        /// Set by `cancel` from any thread; the write callback reads it.
        let aborted = Locked(false)
        init(id: Int, easy: UnsafeMutableRawPointer, idleTimeout: TimeInterval, handler: @escaping @Sendable (Int, Event) -> Void) {
            self.id = id; self.easy = easy; self.idleTimeout = idleTimeout; self.handler = handler
        }
    }

    /// Simultaneous connections to one host (further transfers wait inside libcurl).
    public let maxConnectionsPerHost: Int
    private let multi: UnsafeMutableRawPointer
    private let lock = Lock()
    // Under `lock`:
    private var nextID = 0
    private var prepared: [Int: Transfer] = [:]
    private var toAdd: [Transfer] = []
    private var toCancel: [Int] = []
    private var known: [Int: Transfer] = [:]   // every transfer not yet completed, for `cancel`
    private var threadRunning = false
    private var invalidated = false
    // Client thread only:
    private var active: [Int: Transfer] = [:]
    private var byEasy: [UnsafeMutableRawPointer: Transfer] = [:]

    /// libcurl's process-wide state, set up once before the first handle.
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// A client allowing `maxConnectionsPerHost` connections to one host (at least 1). Its
    /// thread starts with the first transfer. Call `invalidate()` when done with it.
    public init(maxConnectionsPerHost: Int = 4) {
        OpenSSLExit.keepStateAtExit()  // before libcurl initializes OpenSSL: see OpenSSLExit
        _ = Self.globalInit
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        multi = curl_multi_init()
        _ = silk_curlm_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, self.maxConnectionsPerHost)
    }

    deinit {
        // The thread holds the client while it runs, so it has ended: nothing else uses `multi`.
        for t in prepared.values { Self.free(t) }
        curl_multi_cleanup(multi)
    }

    /// A transfer for `request`, not started yet (`resume`): nil after `invalidate()` or for a URL
    /// libcurl refuses. `handler` gets its events on the client's thread.
    public func makeTransfer(_ request: Request, handler: @escaping @Sendable (Int, Event) -> Void) -> Int? {
        guard let easy = curl_easy_init() else { return nil }
        let idle = Self.sanitizedTimeout(request.idleTimeout)
        let timeoutMs = max(1, Int(min(idle * 1000, Double(Int32.max))))
        var ok = request.url.withCString { silk_curl_set_ptr(easy, CURLOPT_URL, $0) } == CURLE_OK
        ok = ok && "http,https".withCString { silk_curl_set_ptr(easy, CURLOPT_PROTOCOLS_STR, $0) } == CURLE_OK
        ok = ok && "http,https".withCString { silk_curl_set_ptr(easy, CURLOPT_REDIR_PROTOCOLS_STR, $0) } == CURLE_OK
        guard ok else { curl_easy_cleanup(easy); return nil }
        _ = silk_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = silk_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = silk_curl_set_long(easy, CURLOPT_MAXREDIRS, max(0, request.maxRedirects))
        _ = silk_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, timeoutMs)
        _ = request.acceptEncoding.withCString { silk_curl_set_ptr(easy, CURLOPT_ACCEPT_ENCODING, $0) }
        _ = "Silk".withCString { silk_curl_set_ptr(easy, CURLOPT_USERAGENT, $0) }
        _ = silk_curl_set_write(easy, CURLOPT_WRITEFUNCTION, HTTPClient.write)
        var list: UnsafeMutablePointer<curl_slist>?
        for line in request.headers { list = line.withCString { curl_slist_append(list, $0) } ?? list }
        if let list { _ = silk_curl_set_ptr(easy, CURLOPT_HTTPHEADER, list) }
        return lock.withLock { () -> Int? in
            guard !invalidated else {
                curl_easy_cleanup(easy); curl_slist_free_all(list)
                return nil
            }
            nextID += 1
            let t = Transfer(id: nextID, easy: easy, idleTimeout: idle, handler: handler)
            t.headers = list
            _ = silk_curl_set_ptr(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(t).toOpaque())
            prepared[t.id] = t
            known[t.id] = t
            return t.id
        }
    }

    /// Starts a transfer made by `makeTransfer` (any thread).
    public func resume(_ id: Int) {
        let start = lock.withLock { () -> Bool in
            guard !invalidated, let t = prepared.removeValue(forKey: id) else { return false }
            t.lastActivity = .now()
            toAdd.append(t)
            defer { threadRunning = true }
            return !threadRunning
        }
        if start { startThread() } else { curl_multi_wakeup(multi) }
    }

    /// Stops a transfer (any thread, idempotent): no more data reaches its handler after the
    /// chunk being delivered, then `.completed(.cancelled)` (unless it had completed already).
    public func cancel(_ id: Int) {
        let unstarted = lock.withLock { () -> Transfer? in
            guard let t = known[id] else { return nil }
            t.aborted.withLock { $0 = true }
            if let p = prepared.removeValue(forKey: id) { known.removeValue(forKey: id); return p }
            toCancel.append(id)
            return nil
        }
        if let unstarted {
            Self.free(unstarted)
            // Not on the caller's thread: it may hold a lock the handler's consumer needs.
            DispatchQueue.global(qos: .utility).async { unstarted.handler(unstarted.id, .completed(.cancelled)) }
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Stops every transfer without further events, and refuses new ones. Any thread; idempotent.
    public func invalidate() {
        let (wasRunning, unstarted) = lock.withLock { () -> (Bool, [Transfer]) in
            invalidated = true
            for t in known.values { t.aborted.withLock { $0 = true } }
            // Made and never resumed: no thread will see them.
            let unstarted = Array(prepared.values)
            for t in unstarted { known.removeValue(forKey: t.id) }
            prepared = [:]
            return (threadRunning, unstarted)
        }
        for t in unstarted { Self.free(t) }
        if wasRunning { curl_multi_wakeup(multi) }
    }

    /// Transfers made and not yet completed (tests).
    var transferCount: Int { lock.withLock { known.count } }
    /// Whether the client's thread runs now (tests: it ends two seconds after the last transfer).
    var isThreadRunning: Bool { lock.withLock { threadRunning } }

    // MARK: The client's thread

    private func startThread() {
        let thread = Thread { [self] in run() }
        thread.name = "silk.http"
        thread.start()
    }

    private func run() {
        var idleSince: DispatchTime?
        while true {
            let (adds, cancels, stop) = lock.withLock { () -> ([Transfer], [Int], Bool) in
                defer { toAdd = []; toCancel = [] }
                return (toAdd, toCancel, invalidated)
            }
            if stop {
                for t in adds { Self.free(t) }
                for t in active.values { curl_multi_remove_handle(multi, t.easy); Self.free(t) }
                active = [:]; byEasy = [:]
                lock.withLock { known = [:]; toAdd = []; threadRunning = false }
                return
            }
            for t in adds {
                if curl_multi_add_handle(multi, t.easy) == CURLM_OK {
                    active[t.id] = t; byEasy[t.easy] = t
                } else {
                    complete(t, .transport(code: -1, message: "libcurl refused the transfer"), inMulti: false)
                }
            }
            for id in cancels { if let t = active[id] { complete(t, .cancelled) } }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let t = byEasy[easy] else { continue }
                let code = message.pointee.data.result
                complete(t, code == CURLE_OK ? nil : failure(t, code))
            }
            // Idle timeouts: our own clock (libcurl's low-speed limit counts whole seconds).
            let now = DispatchTime.now()
            var nextDeadline = now + 1.0
            for t in active.values {
                let deadline = t.lastActivity + t.idleTimeout
                if deadline <= now { complete(t, .timedOut) } else { nextDeadline = min(nextDeadline, deadline) }
            }

            if active.isEmpty {
                let since = idleSince ?? now
                idleSince = since
                if now >= since + 2.0 {
                    let exit = lock.withLock { () -> Bool in
                        guard toAdd.isEmpty, toCancel.isEmpty, !invalidated else { return false }
                        threadRunning = false
                        return true
                    }
                    if exit { return }
                }
            } else {
                idleSince = nil
            }
            let waitMs = Int32(clamping: max(1, Int((nextDeadline.uptimeNanoseconds &- now.uptimeNanoseconds) / 1_000_000)))
            _ = curl_multi_poll(multi, nil, 0, min(waitMs, 500), nil)
        }
    }

    private func failure(_ t: Transfer, _ code: CURLcode) -> Failure {
        if t.aborted.current { return .cancelled }
        if code == CURLE_OPERATION_TIMEDOUT { return .timedOut }
        return .transport(code: Int(code.rawValue), message: String(cString: curl_easy_strerror(code)))
    }

    /// Ends `t`: removed from libcurl and freed, its head (if none went yet) and `.completed` sent.
    private func complete(_ t: Transfer, _ failure: Failure?, inMulti: Bool = true) {
        if inMulti { curl_multi_remove_handle(multi, t.easy) }
        active.removeValue(forKey: t.id)
        byEasy.removeValue(forKey: t.easy)
        lock.withLock { _ = known.removeValue(forKey: t.id) }
        if failure == nil, !t.headSent { Self.sendHead(t) }
        Self.free(t)
        t.handler(t.id, .completed(failure))
    }

    private static func sendHead(_ t: Transfer) {
        t.headSent = true
        var status = 0
        var length: curl_off_t = -1
        _ = silk_curl_get_long(t.easy, CURLINFO_RESPONSE_CODE, &status)
        _ = silk_curl_get_off(t.easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        t.handler(t.id, .head(status: status, expectedLength: length >= 0 ? Int64(length) : nil))
    }

    private static func free(_ t: Transfer) {
        curl_easy_cleanup(t.easy)
        if let h = t.headers { curl_slist_free_all(h); t.headers = nil }
    }

    /// A usable idle timeout: NaN, zero or negative take the default 15 s; at most a million.
    static func sanitizedTimeout(_ seconds: TimeInterval) -> TimeInterval {
        guard !seconds.isNaN, seconds > 0 else { return 15 }
        return min(seconds, 1_000_000)
    }

    /// libcurl's write callback (the client's thread): the head before the first chunk, then the
    /// chunk; 0 (libcurl then fails the transfer) once the transfer is cancelled.
    private static let write: silk_curl_write_fn = { bytes, size, count, context in
        guard let context else { return 0 }
        let t = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let n = size &* count
        if t.aborted.current { return 0 }
        t.lastActivity = .now()
        if !t.headSent {
            // The head goes with the first body bytes (redirects' bodies are not delivered, so
            // this is the final response's).
            sendHead(t)
            if t.aborted.current { return 0 }
        }
        guard n > 0, let bytes else { return n }
        t.handler(t.id, .data(Data(bytes: bytes, count: n)))
        return n
    }
}

