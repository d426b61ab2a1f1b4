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
/// - a `Content-Length` (or a body) over `maxBytes` is refused at once;
/// - the image header is probed as soon as enough bytes have arrived: bytes that are not PNG
///   or JPEG, or a header claiming more than `maxPixels`, cancel the download there — a
///   "huge" image costs its header, never its pixels;
/// - `timeout` is the idle timeout (no byte for that long), so a stalled server fails after
///   it however slowly it had been sending; `resourceTimeout` bounds a whole attempt.
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
        /// The largest body accepted, in bytes.
        public var maxBytes = 16 << 20
        /// The largest image accepted, in pixels (checked against the header).
        public var maxPixels = RasterLimits.defaultMaxImagePixels
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
    private let delegateQueue: OperationQueue

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
        init(url: URL, handler: @escaping @Sendable (Event) -> Void) { self.url = url; self.handler = handler }
    }

    /// A downloader with its own ephemeral `URLSession` (no URL cache: `ImageCache` does the
    /// caching) and serial delegate queue `silk.image-download`. The session keeps its delegate
    /// alive: call `invalidate()` when done with a downloader, or it is never freed.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.name = "silk.image-download"
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
        let tasks = lock.withLock { () -> [URLSessionDataTask] in
            let t = jobs.values.compactMap(\.task)
            jobs.removeAll(); taskToJob.removeAll()
            return t
        }
        tasks.forEach { $0.cancel() }
        session.invalidateAndCancel()
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
        lock.withLock { jobs[id] = Job(url: url, handler: handler) }
        startAttempt(id)
        return download
    }

    /// Downloads started and not yet finished, failed or cancelled. Any thread.
    public var activeDownloads: Int { lock.withLock { jobs.count } }

    // MARK: Attempts

    private func startAttempt(_ id: Int) {
        var request = URLRequest(url: lock.withLock { jobs[id]?.url } ?? URL(fileURLWithPath: "/"))
        request.timeoutInterval = configuration.timeout
        request.setValue("image/jpeg, image/png", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let attempt = lock.withLock { () -> Int? in
            guard let job = jobs[id] else { return nil }
            job.attempt += 1
            job.task = task
            job.data = Data()
            job.status = 0
            job.headerChecked = false
            job.earlyFailure = nil
            taskToJob[task.taskIdentifier] = id
            return job.attempt
        }
        guard let attempt else { return }
        // Reported before resume so `.started` precedes any data on the delegate queue.
        let handler = lock.withLock { jobs[id]?.handler }
        delegateQueue.addOperation { handler?(.started(attempt: attempt)) }
        task.resume()
    }

    private func cancel(_ id: Int) {
        let task = lock.withLock { () -> URLSessionDataTask? in
            guard let job = jobs.removeValue(forKey: id) else { return nil }
            if let t = job.task { taskToJob.removeValue(forKey: t.taskIdentifier) }
            return job.task
        }
        task?.cancel()
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
        job.task?.cancel()
    }

    // MARK: URLSessionDataDelegate (the delegate queue)

    /// `URLSessionDataDelegate`: refuses a non-2xx status or a `Content-Length` over `maxBytes`
    /// before the body is read. Called by the session on the delegate queue, not by apps.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        let expected = response.expectedContentLength
        let proceed = lock.withLock { () -> Bool in
            guard let id = taskToJob[dataTask.taskIdentifier], let job = jobs[id] else { return false }
            job.status = status
            if !(200...299).contains(status) { job.earlyFailure = .httpStatus(status); return false }
            if expected > configuration.maxBytes {
                job.earlyFailure = .tooLarge(bytes: Int(expected), limit: configuration.maxBytes)
                return false
            }
            return true
        }
        completionHandler(proceed ? .allow : .cancel)
    }

    /// `URLSessionDataDelegate`: appends the bytes, probes the image header once it has arrived
    /// (refusing a non-image or too many pixels), and reports progress. Called by the session on
    /// the delegate queue, not by apps.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let delivery = lock.withLock { () -> ((@Sendable (Event) -> Void), Int, Int?)? in
            guard let id = taskToJob[dataTask.taskIdentifier], let job = jobs[id] else {
                // Cancelled: a cancel that raced the task's start can be lost inside
                // URLSession, so the transfer is stopped again wherever it shows up.
                dataTask.cancel()
                return nil
            }
            guard job.earlyFailure == nil else { return nil }
            job.data.append(data)
            if job.data.count > configuration.maxBytes {
                _lockedFailEarly(job, .tooLarge(bytes: job.data.count, limit: configuration.maxBytes))
                return nil
            }
            if !job.headerChecked, let failure = _lockedCheckHeader(job) {
                _lockedFailEarly(job, failure)
                return nil
            }
            let expected = dataTask.response?.expectedContentLength ?? -1
            return (job.handler, job.data.count, expected > 0 ? Int(expected) : nil)
        }
        if let (handler, received, expected) = delivery { handler(.progress(chunk: data, received: received, expectedLength: expected)) }
    }

    /// Probes the header once enough bytes are here: not an image, or too many pixels, fails.
    private func _lockedCheckHeader(_ job: Job) -> NetworkImageError? {
        do {
            let info = try ImageDecoder.probe(data: job.data)
            job.headerChecked = true
            if info.height > 0, info.width > configuration.maxPixels / info.height {
                return .decoding(.tooManyPixels(width: info.width, height: info.height, limit: configuration.maxPixels))
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
        let state = lock.withLock { () -> (id: Int, job: Job)? in
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
