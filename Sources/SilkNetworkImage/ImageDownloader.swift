import Foundation
import SilkSystem
import SilkNodes
import SilkRaster
import CCurl

/// Downloads image bytes over http(s) with libcurl (`HTTPClient`, not FoundationNetworking's
/// `URLSession`, which leaks libcurl state per request), delivering the body as it arrives (for
/// progressive display), retrying transient failures with exponential backoff, and refusing
/// what cannot become an image as early as possible:
///
/// - a status other than 2xx ends the attempt without reading the body (5xx retries, 404 and
///   other 4xx do not);
/// - a `Content-Length` (or a body) over `maxBytes` is refused at once, and the transfer is
///   cancelled right there (an endless body, or a 10 GB one, stops after the chunk in hand);
/// - `maxBytes` counts the bytes the delegate receives, which are the *decoded* bytes when a
///   server compresses anyway (libcurl inflates whatever `Content-Encoding` it gets), so a
///   compression bomb stops at `maxBytes` of inflated data; images ask for `identity`;
/// - the image header is probed as soon as enough bytes have arrived: bytes that are not PNG
///   or JPEG, or a header claiming more than `maxPixels`, cancel the download there — a
///   "huge" image costs its header, never its pixels;
/// - the delegate queue is a `BoundedDelegateQueue`: libcurl waits while 64 chunks are queued,
///   so what waits in memory stays about 1 MiB however fast the body (or its inflation) runs;
/// - `timeout` is the idle timeout (no byte for that long, connecting included), so a stalled
///   server fails after it however slowly it had been sending; `resourceTimeout` bounds a whole
///   attempt (a byte a second would otherwise keep an image loading for ever);
/// - redirects: at most 5, http and https only.
///
/// Events for one download arrive in order on the downloader's serial delegate queue; a
/// cancelled download reports nothing more.
public final class ImageDownloader: @unchecked Sendable {
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
        /// Concurrent connections to one server (libcurl's `CURLMOPT_MAX_HOST_CONNECTIONS`);
        /// further downloads wait for one.
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
    private let client: HTTPClient
    private var jobs: [Int: Job] = [:]          // by download id
    private var taskToJob: [Int: Int] = [:]     // HTTPClient transfer id → download id
    private var nextID = 0
    /// Set by `invalidate()`. Loads can still arrive afterwards (a loader's disk lookup
    /// finishing, a retry's timer): every transfer is created under `lock` after checking this.
    private var invalidated = false
    private let delegateQueue: BoundedDelegateQueue
    /// Whether the deadline sweep is scheduled (`sweepDeadlines`).
    private var sweepArmed = false

    private final class Job {
        let url: URL
        let handler: @Sendable (Event) -> Void
        var attempt = 0
        /// The current attempt's transfer.
        var task: Int?
        var data = Data()
        var expectedLength: Int64?
        var headerChecked = false
        /// A failure decided while data arrived (the task was then cancelled).
        var earlyFailure: NetworkImageError?
        /// When the current attempt times out as a whole (`Configuration.resourceTimeout`).
        var attemptDeadline = DispatchTime.distantFuture
        init(url: URL, handler: @escaping @Sendable (Event) -> Void) { self.url = url; self.handler = handler }
    }

    /// A downloader with its own libcurl client (no HTTP cache: `ImageCache` does the caching)
    /// and serial delegate queue `silk.image-download`. Call `invalidate()` to stop its downloads
    /// when done with it (its thread ends two seconds after its last transfer either way).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        delegateQueue = BoundedDelegateQueue(name: "silk.image-download")
        client = HTTPClient(maxConnectionsPerHost: configuration.maxConnectionsPerHost)
    }

    deinit { client.invalidate() }  // an endless body would otherwise run on without a consumer

    /// Stops every download; later loads fail with `.invalidated`. The shared downloader lives as
    /// long as the process. Any thread; idempotent.
    public func invalidate() {
        let done = lock.withLock { () -> Bool in
            guard !invalidated else { return true }
            invalidated = true
            jobs.removeAll(); taskToJob.removeAll()
            return false
        }
        if !done { client.invalidate() }
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
        // PNG and JPEG are compressed already; asking for no transfer compression spares libcurl
        // inflating (and a bomb its ratio). A server may compress anyway: `maxBytes` still holds.
        let request = HTTPClient.Request(url: url.absoluteString, headers: ["Accept: image/jpeg, image/png"],
                                         acceptEncoding: "identity", idleTimeout: configuration.timeout)
        let started = lock.withLock { () -> (task: Int, attempt: Int, arm: DispatchTime?)? in
            // Made under the lock, after the check: `invalidate()` flips the flag under the same
            // lock before invalidating the client.
            guard !invalidated, let job = jobs[id] else { return nil }
            guard let task = client.makeTransfer(request, handler: { [weak self] transfer, event in self?.deliver(event, transfer: transfer) })
            else { return nil }
            job.attempt += 1
            job.task = task
            job.data = Data()
            job.headerChecked = false
            job.earlyFailure = nil
            job.attemptDeadline = .now() + configuration.resourceTimeout
            job.expectedLength = nil
            taskToJob[task] = id
            // Every deadline is now + the same timeout, so a sweep already scheduled comes first.
            let arm = sweepArmed ? nil : job.attemptDeadline
            sweepArmed = true
            return (task, job.attempt, arm)
        }
        guard let (task, attempt, arm) = started else {
            // Invalidated meanwhile (the job is gone, nothing to say), or a URL libcurl refuses.
            if lock.withLock({ !invalidated && jobs[id] != nil }) { finish(id, .failed(.unsupportedURL(url.absoluteString))) }
            return
        }
        // Reported before resume so `.started` precedes any data on the delegate queue.
        let handler = lock.withLock { jobs[id]?.handler }
        delegateQueue.addOperation { handler?(.started(attempt: attempt)) }
        client.resume(task)
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
        let task = lock.withLock { () -> Int? in
            guard let job = jobs.removeValue(forKey: id) else { return nil }
            if let t = job.task { taskToJob.removeValue(forKey: t) }
            return job.task
        }
        if let task { client.cancel(task) }
    }

    /// Ends the download with `event` (removing it first, so nothing follows).
    private func finish(_ id: Int, _ event: Event) {
        let handler = lock.withLock { () -> (@Sendable (Event) -> Void)? in
            guard let job = jobs.removeValue(forKey: id) else { return nil }
            if let t = job.task { taskToJob.removeValue(forKey: t) }
            return job.handler
        }
        handler?(event)
    }

    /// Fails the attempt now and cancels its task; completion then decides on a retry.
    private func _lockedFailEarly(_ job: Job, _ error: NetworkImageError) {
        job.earlyFailure = error
        if let t = job.task { client.cancel(t) }
    }

    // MARK: Transfer events (the client's thread, then the delegate queue)

    /// Hands a transfer's event to the delegate queue, in order; waits while the queue is full
    /// (`BoundedDelegateQueue`), which holds libcurl back.
    private func deliver(_ event: HTTPClient.Event, transfer: Int) {
        delegateQueue.addOperation { [self] in
            switch event {
            case let .head(status, length): didReceiveHead(transfer, status: status, expectedLength: length)
            case let .data(data): didReceive(transfer, data: data)
            case let .completed(failure): didComplete(transfer, failure: failure)
            }
        }
    }

    /// Refuses a non-2xx status or a `Content-Length` over `maxBytes` before the body is read.
    private func didReceiveHead(_ transfer: Int, status: Int, expectedLength: Int64?) {
        var final: (id: Int, error: NetworkImageError)?
        lock.withLock {
            guard let id = taskToJob[transfer], let job = jobs[id] else { return }
            job.expectedLength = expectedLength
            if !(200...299).contains(status) { job.earlyFailure = .httpStatus(status) }
            else if let expected = expectedLength, expected > configuration.maxBytes {
                job.earlyFailure = .tooLarge(bytes: Int(clamping: expected), limit: configuration.maxBytes)
            }
            guard let failure = job.earlyFailure else { return }
            client.cancel(transfer)
            if !failure.isTransient { final = (id, failure) }
        }
        // What will not be retried is reported now, not when the cancel completes.
        if let final { finish(final.id, .failed(final.error)) }
    }

    /// Appends the bytes, probes the image header once it has arrived (refusing a non-image or
    /// too many pixels), and reports progress.
    private func didReceive(_ transfer: Int, data: Data) {
        var refused: (id: Int, error: NetworkImageError)?
        let delivery = lock.withLock { () -> ((@Sendable (Event) -> Void), Int, Int?)? in
            guard let id = taskToJob[transfer], let job = jobs[id] else {
                client.cancel(transfer)  // cancelled by its owner meanwhile (idempotent)
                return nil
            }
            guard job.earlyFailure == nil else { return nil }
            if job.data.isEmpty, let length = job.expectedLength,
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
            let expected = job.expectedLength.map { Int(clamping: $0) }
            return (job.handler, job.data.count, expected.flatMap { $0 > 0 ? $0 : nil })
        }
        if let (handler, received, expected) = delivery { handler(.progress(chunk: data, received: received, expectedLength: expected)) }
        // Reported now, not on completion: these are never retried.
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

    /// Ends the attempt, retrying transient failures after the backoff delay, else reporting
    /// `.finished` or `.failed`.
    private func didComplete(_ transfer: Int, failure transferFailure: HTTPClient.Failure?) {
        let state = lock.withLock { () -> (id: Int, job: Job)? in
            guard let id = taskToJob.removeValue(forKey: transfer), let job = jobs[id] else { return nil }
            return (id, job)
        }
        guard let (id, job) = state else { return }  // cancelled by its owner
        let outcome: NetworkImageError?
        let data = lock.withLock { job.data }
        if let early = lock.withLock({ job.earlyFailure }) {
            outcome = early
        } else if let transferFailure {
            outcome = Self.classify(transferFailure, timeout: configuration.timeout)
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

    /// The error a transfer's failure is reported as.
    static func classify(_ failure: HTTPClient.Failure, timeout: TimeInterval) -> NetworkImageError {
        switch failure {
        case .timedOut: return .timedOut(seconds: timeout)
        case .cancelled: return .connection("the transfer was cancelled")
        case let .transport(code, message):
            switch CURLcode(UInt32(clamping: code)) {
            case CURLE_COULDNT_CONNECT: return .connection("cannot connect to the host")
            case CURLE_COULDNT_RESOLVE_HOST: return .connection("cannot find the host")
            case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_RECV_ERROR:
                return .connection("the connection closed before the whole image arrived")
            case CURLE_OPERATION_TIMEDOUT: return .timedOut(seconds: timeout)
            case CURLE_TOO_MANY_REDIRECTS: return .connection("too many redirects")
            default: return .connection("\(message) (libcurl \(code))")
            }
        }
    }
}
