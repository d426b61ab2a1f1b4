import Foundation
import SilkNodes
import SilkSystem

/// Finds an image's bytes: the memory tier (synchronously), then the disk tier (on the
/// loader's I/O queue), then the network (`ImageDownloader`). Bytes from the network are not
/// cached here: the caller stores them with `store(_:for:)` once they decoded, so a truncated
/// or damaged body is never cached.
public final class NetworkImageLoader: @unchecked Sendable {
    /// The process-wide loader: default cache directory, default download configuration.
    public static let shared = NetworkImageLoader()

    /// What a load reports, in order, on the thread that produced it (the caller's for a memory
    /// hit, the I/O queue or the download's delegate queue otherwise).
    public enum Event: Sendable {
        /// The download started (attempt 1) or was retried; data starts over.
        case started(attempt: Int)
        /// New bytes of the body (network only); `received` in all so far.
        case progress(chunk: Data, received: Int, expectedLength: Int?)
        /// The whole, still encoded image, and the tier it came from.
        case finished(Data, ImageSource)
        /// The load failed for good (retries included); nothing follows.
        case failed(NetworkImageError)
    }

    /// A running load; `cancel()` from any thread (idempotent) stops it and silences its handler.
    public final class Load: @unchecked Sendable {
        private let state = Locked<(cancelled: Bool, download: ImageDownloader.Download?)>((false, nil))
        /// Whether `cancel()` was called. Any thread.
        public var isCancelled: Bool { state.current.cancelled }
        /// Stops the load: the download (if any) is cancelled and the handler is not called again.
        /// Any thread; calling it twice does nothing more.
        public func cancel() {
            let d = state.withLock { s -> ImageDownloader.Download? in s.cancelled = true; defer { s.download = nil }; return s.download }
            d?.cancel()
        }
        /// Keeps `download` for `cancel()`; false (and cancels it) if already cancelled.
        fileprivate func attach(_ download: ImageDownloader.Download) -> Bool {
            let ok = state.withLock { s -> Bool in if s.cancelled { return false }; s.download = download; return true }
            if !ok { download.cancel() }
            return ok
        }
    }

    /// The memory and disk tiers this loader reads and `store(_:for:)` writes.
    public let cache: ImageCache
    /// Fetches what neither tier has.
    public let downloader: ImageDownloader
    private let ioQueue = DispatchQueue(label: "silk.image-cache", qos: .utility)

    /// A loader over `cache` and `downloader` (a default cache directory and download configuration
    /// unless given). Most apps use `shared`; tests give their own.
    public init(cache: ImageCache = ImageCache(), downloader: ImageDownloader = ImageDownloader()) {
        self.cache = cache
        self.downloader = downloader
    }

    /// Loads `url`. A memory hit calls `handler` with `.finished(_, .memory)` before returning;
    /// everything else arrives later on other threads, in order, and stops after `cancel()`. Any
    /// thread.
    @discardableResult
    public func load(_ url: URL, handler: @escaping @Sendable (Event) -> Void) -> Load {
        let load = Load()
        if let data = cache.memoryData(for: url) {
            handler(.finished(data, .memory))
            return load
        }
        ioQueue.async { [cache, downloader] in
            guard !load.isCancelled else { return }
            if let data = cache.diskData(for: url) {
                if !load.isCancelled { handler(.finished(data, .disk)) }
                return
            }
            cache.recordMiss()
            let download = downloader.download(url) { event in
                guard !load.isCancelled else { return }
                switch event {
                case let .started(attempt): handler(.started(attempt: attempt))
                case let .progress(chunk, received, expected): handler(.progress(chunk: chunk, received: received, expectedLength: expected))
                case let .finished(data): handler(.finished(data, .network))
                case let .failed(error): handler(.failed(error))
                }
            }
            _ = load.attach(download)
        }
        return load
    }

    /// Caches bytes that decoded successfully (memory now, disk on the I/O queue). Any thread.
    public func store(_ data: Data, for url: URL) {
        cache.store(data, for: url, toDisk: false)
        ioQueue.async { [cache] in cache.store(data, for: url) }
    }

    /// Waits until queued disk writes are done (tests, and before a process exits). Blocks: not
    /// from the I/O queue itself.
    public func flush() { ioQueue.sync {} }
}
