import Foundation
import SilkSystem
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SilkNodes
import SilkRaster

/// Downloads image bytes over http(s) with FoundationNetworking's `URLSession` (libcurl),
/// delivering the body as it arrives (for progressive display), retrying transient failures
/// with exponential backoff, and refusing what cannot become an image as early as possible:
///
/// - a status other than 2xx ends the attempt without reading the body (5xx retries, 404 and
///   other 4xx do not);
/// - a `Content-Length` (or a body) over `maxBytes` is refused at once, and the transfer is
///   cancelled right there: FoundationNetworking ignores the `didReceive response` disposition,
///   so answering `.cancel` alone let an endless body (or a 10 GB one) flow on for ever;
/// - `maxBytes` counts the bytes the delegate receives, which are the *decoded* bytes when a
///   server compresses anyway (libcurl inflates whatever `Content-Encoding` it gets), so a
///   compression bomb stops at `maxBytes` of inflated data; images ask for `identity`;
/// - the image header is probed as soon as enough bytes have arrived: bytes that are not PNG
///   or JPEG, or a header claiming more than `maxPixels`, cancel the download there — a
///   "huge" image costs its header, never its pixels;
/// - the delegate queue is a `BoundedDelegateQueue`: libcurl waits while 64 chunks are queued,
///   so what waits in memory stays about 1 MiB however fast the body (or its inflation) runs;
/// - `timeout` is the idle timeout (no byte for that long), so a stalled server fails after
///   it however slowly it had been sending; `resourceTimeout` bounds a whole attempt (by a timer
///   of our own: FoundationNetworking let a byte-a-second image run on past it).
///
/// Events for one download arrive in order on the session's serial delegate queue; a
/// cancelled download reports nothing more.
public final class ImageDownloader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Timeouts, retries and limits of a downloader, fixed when it is created.
    public struct Configuration: Sendable {
        /// Seconds without data before an attempt fails as timed out.
        public var timeout: TimeInterval = 15
        /// Seconds a whole attempt may take.
        public var resourceTimeout: TimeInterval = 120
        /// Further attempts after a transient failure (connection, timeout, 5xx).
        public var maxRetries = 2
        /// Delay before the first retry; doubled for each further one.
        public var retryDelay: TimeInterval = 0.25
        /// The largest body accepted, in bytes as received after any content decoding.
        public var maxBytes = 16 << 20
        /// The largest image accepted, in pixels (checked against the header).
        public var maxPixels = RasterLimits.defaultMaxImagePixels
        /// The most pixels one image may decode to (16 MPx, 64 MiB of ARGB). JPEGs decode at the
        /// node's size (M/8 scaling), but libpng cannot scale while decoding, so a PNG decodes in
        /// full: one over this budget is refused from its header (here, and in the node for
        /// cached bytes), before any pixel memory — an 8000 × 8000 PNG would take 256 MB for a
        /// node 600 points wide. A JPEG decoded without a target size (before layout) counts too.
        public var maxDecodedPixels = 16 << 20
        /// Concurrent connections to one server (`URLSessionConfiguration`'s
        /// `httpMaximumConnectionsPerHost`); further downloads wait for one.
        public var maxConnectionsPerHost = 4
        /// The defaults: 15 s idle timeout, 120 s per attempt, 2 retries from 0.25 s, 16 MiB and
        /// the raster limit's pixels at most, 4 connections per host.
        public init() {}
    }

    /// What a download reports, in order, on the downloader's delegate queue.
    public enum Event: Sendable {
        /// An attempt started (1 for the first; a retry starts again from no data).
        case started(attempt: Int)
        /// The newest bytes of the body (`chunk`), `received` bytes in all so far. Only the new
        /// bytes travel: handing out the growing buffer would make every append copy it.
        case progress(chunk: Data, received: Int, expectedLength: Int?)
        /// The whole body, still encoded; nothing follows.
        case finished(Data)
        /// The download failed for good (after retries, or refused early); nothing follows.
        case failed(NetworkImageError)
    }

    /// One download; `cancel()` stops it (any thread, idempotent) and silences its handler.
    public final class Download: @unchecked Sendable {
        fileprivate weak var downloader: ImageDownloader?
        fileprivate let id: Int
        fileprivate init(downloader: ImageDownloader, id: Int) { self.downloader = downloader; self.id = id }
        /// Stops the download; its handler is not called again. Any thread; calling it twice does
        /// nothing more.
        public func cancel() { downloader?.cancel(id) }
    }

    /// The timeouts, retries and limits this downloader was created with.
    public let configuration: Configuration
    private let lock = Lock()
    private var session: URLSession!
    private var jobs: [Int: Job] = [:]          // by download id
    private var taskToJob: [Int: Int] = [:]     // URLSessionTask.taskIdentifier → download id
    private var nextID = 0
    /// Set by `invalidate()`. URLSession traps ("Session invalidated") when a task is made on
    /// an invalidated session, and loads can still arrive afterwards (a loader's disk lookup
    /// finishing, a retry's timer), so every task is created under `lock` after checking this.
    private var invalidated = false
    /// Tasks whose stray data already asked for a cancel (one cancel each, not one per chunk:
    /// a cancel may wait on libcurl, and thousands would pile up on the global queue).
    private var strayCancels = Set<Int>()
    private let delegateQueue: BoundedDelegateQueue
    /// Whether the deadline sweep is scheduled (`sweepDeadlines`).
    private var sweepArmed = false

    private final class Job {
        let url: URL
        let handler: @Sendable (Event) -> Void
        var attempt = 0
        var task: URLSessionDataTask?
        var data = Data()
        var status = 0
        var headerChecked = false
        /// A failure decided while data arrived (the task was then cancelled).
        var earlyFailure: NetworkImageError?
        /// When the current attempt times out as a whole (`Configuration.resourceTimeout`).
        var attemptDeadline = DispatchTime.distantFuture
        init(url: URL, handler: @escaping @Sendable (Event) -> Void) { self.url = url; self.handler = handler }
    }

    /// A downloader with its own ephemeral `URLSession` (no URL cache: `ImageCache` does the
    /// caching) and serial delegate queue `silk.image-download`. The session keeps its delegate
    /// alive: call `invalidate()` when done with a downloader, or it is never freed.
    public init(configuration: Configuration = Configuration()) {
        OpenSSLExit.keepStateAtExit()  // before libcurl initializes OpenSSL: see OpenSSLExit
        self.configuration = configuration
        delegateQueue = BoundedDelegateQueue(name: "silk.image-download")
        super.init()
        let c = URLSessionConfiguration.ephemeral  // Silk's own cache does the caching
        c.timeoutIntervalForRequest = configuration.timeout
        c.timeoutIntervalForResource = configuration.resourceTimeout
        c.httpMaximumConnectionsPerHost = configuration.maxConnectionsPerHost
        c.urlCache = nil
        c.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: c, delegate: self, delegateQueue: delegateQueue)
    }

    /// Stops every download and releases the session (the session keeps its delegate alive until
    /// then). The shared downloader lives as long as the process. Any thread.
    public func invalidate() {
        let tasks = lock.withLock { () -> [URLSessionDataTask]? in
            guard !invalidated else { return nil }
            invalidated = true
            let t = jobs.values.compactMap(\.task)
            jobs.removeAll(); taskToJob.removeAll()
            return t
        }
        guard let tasks else { return }
        // Cancelled through the gate, then invalidated once they are done: cancel() and
        // invalidateAndCancel() from here raced tasks completing at that moment and trapped inside
        // FoundationNetworking (`CancelGate`).
        tasks.forEach { $0.cancelSoon() }
        session.finishTasksAndInvalidate()
    }

    /// Starts downloading `url`; `handler` gets the events (on the delegate queue).
    @discardableResult
    public func download(_ url: URL, handler: @escaping @Sendable (Event) -> Void) -> Download {
        let id = lock.withLock { () -> Int in nextID += 1; return nextID }
        let download = Download(downloader: self, id: id)
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            delegateQueue.addOperation { handler(.failed(.unsupportedURL(url.absoluteString))) }
            return download
        }
        let accepted = lock.withLock { () -> Bool in
            guard !invalidated else { return false }
            jobs[id] = Job(url: url, handler: handler)
            return true
        }
        guard accepted else {
            delegateQueue.addOperation { handler(.failed(.invalidated)) }
            return download
        }
        startAttempt(id)
        return download
    }

    /// Downloads started and not yet finished, failed or cancelled. Any thread.
    public var activeDownloads: Int { lock.withLock { jobs.count } }
    /// The most deliveries that ever waited on the delegate queue (`BoundedDelegateQueue`).
    var peakQueuedDeliveries: Int { delegateQueue.peakPending }

    // MARK: Attempts

    private func startAttempt(_ id: Int) {
        guard let url = lock.withLock({ jobs[id]?.url }) else { return }
        var request = URLRequest(url: url)
        request.timeoutInterval = configuration.timeout
        request.setValue("image/jpeg, image/png", forHTTPHeaderField: "Accept")
        // PNG and JPEG are compressed already; asking for no transfer compression spares libcurl
        // inflating (and a bomb its ratio). A server may compress anyway: `maxBytes` still holds.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let started = lock.withLock { () -> (task: URLSessionDataTask, attempt: Int, arm: DispatchTime?)? in
            // Made under the lock, after the check: `invalidate()` flips the flag under the same
            // lock before invalidating the session, so no task is ever made on a dead session.
            guard !invalidated, let job = jobs[id] else { return nil }
            let task = session.dataTask(with: request)
            job.attempt += 1
            job.task = task
            job.data = Data()
            job.status = 0
            job.headerChecked = false
            job.earlyFailure = nil
            job.attemptDeadline = .now() + configuration.resourceTimeout
            taskToJob[task.taskIdentifier] = id
            // Every deadline is now + the same timeout, so a sweep already scheduled comes first.
            let arm = sweepArmed ? nil : job.attemptDeadline
            sweepArmed = true
            return (task, job.attempt, arm)
        }
        guard let (task, attempt, arm) = started else { return }
        // Reported before resume so `.started` precedes any data on the delegate queue.
        let handler = lock.withLock { jobs[id]?.handler }
        delegateQueue.addOperation { handler?(.started(attempt: attempt)) }
        task.resume()
        if let arm { scheduleSweep(at: arm) }
    }

    // MARK: Deadlines

    /// One timer for every attempt's deadline, not one each: a timer per attempt lived the whole
    /// `resourceTimeout` (120 s) whether or not its download had long finished — ≈ 10,000 of
    /// them pending at once in a feed-10k run (docs/benchmark.md).
    private func scheduleSweep(at when: DispatchTime) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: when) { [weak self] in self?.sweepDeadlines() }
    }

    /// Fails every attempt past its deadline (a timeout, so retried) and schedules itself for the
    /// next deadline, if any download is left.
    private func sweepDeadlines() {
        let next = lock.withLock { () -> DispatchTime? in
            let now = DispatchTime.now()
            var earliest: DispatchTime?
            for job in jobs.values where job.task != nil && job.earlyFailure == nil {
                if job.attemptDeadline <= now {
                    _lockedFailEarly(job, .timedOut(seconds: configuration.resourceTimeout))
                } else {
                    earliest = min(earliest ?? job.attemptDeadline, job.attemptDeadline)
                }
            }
            sweepArmed = earliest != nil
            return earliest
        }
        if let next { scheduleSweep(at: next) }
    }

    private func cancel(_ id: Int) {
        let task = lock.withLock { () -> URLSessionDataTask? in
            guard let job = jobs.removeValue(forKey: id) else { return nil }
            if let t = job.task { taskToJob.removeValue(forKey: t.taskIdentifier) }
            return job.task
        }
        task?.cancelSoon()  // the owner may be on the delegate queue (a handler reacting)
    }

    /// Ends the download with `event` (removing it first, so nothing follows).
    private func finish(_ id: Int, _ event: Event) {
        let handler = lock.withLock { () -> (@Sendable (Event) -> Void)? in
            guard let job = jobs.removeValue(forKey: id) else { return nil }
            if let t = job.task { taskToJob.removeValue(forKey: t.taskIdentifier) }
            return job.handler
        }
        handler?(event)
    }

    /// Fails the attempt now and cancels its task; completion then decides on a retry.
    private func _lockedFailEarly(_ job: Job, _ error: NetworkImageError) {
        job.earlyFailure = error
        job.task?.cancelSoon()
    }

    // MARK: URLSessionDataDelegate (the delegate queue)

    /// `URLSessionDataDelegate`: refuses a non-2xx status or a `Content-Length` over `maxBytes`
    /// before the body is read. Called by the session on the delegate queue, not by apps.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        let expected = response.expectedContentLength
        var final: (id: Int, error: NetworkImageError)?
        let proceed = lock.withLock { () -> Bool in
            guard let id = taskToJob[dataTask.taskIdentifier], let job = jobs[id] else { return false }
            job.status = status
            if !(200...299).contains(status) { job.earlyFailure = .httpStatus(status) }
            else if expected > configuration.maxBytes {
                job.earlyFailure = .tooLarge(bytes: Int(clamping: expected), limit: configuration.maxBytes)
            }
            guard let failure = job.earlyFailure else { return true }
            if !failure.isTransient { final = (id, failure) }
            return false
        }
        // FoundationNetworking ignores the disposition (it logs "Ignoring disposition from
        // completion handler" and goes on reading), so a refused response is cancelled here.
        if !proceed { dataTask.cancelSoon() }
        completionHandler(proceed ? .allow : .cancel)
        // What will not be retried is reported now: the cancel may wait for libcurl.
        if let final { finish(final.id, .failed(final.error)) }
    }

    /// `URLSessionDataDelegate`: appends the bytes, probes the image header once it has arrived
    /// (refusing a non-image or too many pixels), and reports progress. Called by the session on
    /// the delegate queue, not by apps.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var refused: (id: Int, error: NetworkImageError)?
        let delivery = lock.withLock { () -> ((@Sendable (Event) -> Void), Int, Int?)? in
            guard let id = taskToJob[dataTask.taskIdentifier], let job = jobs[id] else {
                // Cancelled: a cancel that raced the task's start can be lost inside
                // URLSession, so the transfer is stopped again wherever it shows up.
                if strayCancels.insert(dataTask.taskIdentifier).inserted { dataTask.cancelSoon() }
                return nil
            }
            guard job.earlyFailure == nil else { return nil }
            if job.data.isEmpty, let length = dataTask.response?.expectedContentLength,
               length > Int64(data.count), length <= Int64(configuration.maxBytes) {
                // One buffer of the announced size: grown by appends, the body would end in a
                // buffer up to twice its size (kept as long as the memory cache keeps it, and
                // counted there by its length only), after a copy at every doubling.
                job.data = Data(capacity: Int(length))
            }
            job.data.append(data)
            if job.data.count > configuration.maxBytes {
                refused = (id, .tooLarge(bytes: job.data.count, limit: configuration.maxBytes))
            } else if !job.headerChecked, let failure = _lockedCheckHeader(job) {
                refused = (id, failure)
            }
            if let refused {
                _lockedFailEarly(job, refused.error)
                job.data = Data()  // nothing will read it: free it now
                return nil
            }
            let expected = dataTask.response?.expectedContentLength ?? -1
            return (job.handler, job.data.count, expected > 0 ? Int(expected) : nil)
        }
        if let (handler, received, expected) = delivery { handler(.progress(chunk: data, received: received, expectedLength: expected)) }
        // Reported now, not on completion: these are never retried, and the cancel may wait
        // for libcurl (an endless compressed body, `BoundedDelegateQueue`).
        if let refused { finish(refused.id, .failed(refused.error)) }
    }

    /// Probes the header once enough bytes are here: not an image, or too many pixels, fails.
    private func _lockedCheckHeader(_ job: Job) -> NetworkImageError? {
        do {
            let info = try ImageDecoder.probe(data: job.data)
            job.headerChecked = true
            if info.height > 0, info.width > configuration.maxPixels / info.height {
                return .decoding(.tooManyPixels(width: info.width, height: info.height, limit: configuration.maxPixels))
            }
            if info.format == .png, info.height > 0, info.width > configuration.maxDecodedPixels / info.height {
                return .decoding(.tooManyPixels(width: info.width, height: info.height, limit: configuration.maxDecodedPixels))
            }
        } catch .unsupportedFormat(let reason) {
            return .decoding(.unsupportedFormat(reason))
        } catch {
            // Truncated (the header has not all arrived) or damaged: the final decode decides.
        }
        return nil
    }

    /// `URLSessionDataDelegate`: ends the attempt, retrying transient failures after the backoff
    /// delay, else reporting `.finished` or `.failed`. Called by the session on the delegate queue,
    /// not by apps.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        URLSessionTask.didComplete(task)
        let state = lock.withLock { () -> (id: Int, job: Job)? in
            strayCancels.remove(task.taskIdentifier)
            guard let id = taskToJob.removeValue(forKey: task.taskIdentifier), let job = jobs[id] else { return nil }
            return (id, job)
        }
        guard let (id, job) = state else { return }  // cancelled by its owner
        let outcome: NetworkImageError?
        let data = lock.withLock { job.data }
        if let early = lock.withLock({ job.earlyFailure }) {
            outcome = early
        } else if let error {
            outcome = Self.classify(error, timeout: configuration.timeout)
        } else {
            outcome = nil
        }
        guard let failure = outcome else { finish(id, .finished(data)); return }
        let attempt = lock.withLock { job.attempt }
        if failure.isTransient, attempt <= configuration.maxRetries {
            let delay = configuration.retryDelay * pow(2, Double(attempt - 1))
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [weak self] in
                guard let self, self.lock.withLock({ self.jobs[id] != nil }) else { return }
                self.startAttempt(id)
            }
            return
        }
        finish(id, .failed(failure))
    }

    static func classify(_ error: any Error, timeout: TimeInterval) -> NetworkImageError {
        if let e = error as? URLError {
            switch e.code {
            case .timedOut: return .timedOut(seconds: timeout)
            case .networkConnectionLost: return .connection("the connection closed before the whole image arrived")
            case .cannotConnectToHost: return .connection("cannot connect to the host")
            default: return .connection("\(e.localizedDescription) (URLError \(e.code.rawValue))")
            }
        }
        let ns = error as NSError
        if ns.code == NSURLErrorTimedOut { return .timedOut(seconds: timeout) }
        return .connection("\(ns.localizedDescription) (\(ns.domain) \(ns.code))")
    }
}
