import Foundation
import SilkGeometry
import SilkNodes
import SilkRaster

/// Told what a `NetworkImageNode` is doing. Called on a display queue (one serial queue per
/// load, so in order), never on the main thread: nodes are thread-safe, so a delegate may
/// update other nodes directly. Every method has an empty default.
public protocol NetworkImageNodeDelegate: AnyObject, Sendable {
    /// A download started (not called for memory or disk hits).
    func imageNodeDidStartFetchingData(_ node: NetworkImageNode)
    /// A progressive JPEG decoded to its first `completeScans` scans is now shown.
    func imageNode(_ node: NetworkImageNode, didLoadPartialImage image: Bitmap, completeScans: Int)
    /// The final image is shown; `source` says where its bytes came from.
    func imageNode(_ node: NetworkImageNode, didLoadImage image: Bitmap, source: ImageSource)
    /// The load failed for good (after any retries).
    func imageNode(_ node: NetworkImageNode, didFailWithError error: NetworkImageError)
}

public extension NetworkImageNodeDelegate {
    /// Does nothing.
    func imageNodeDidStartFetchingData(_ node: NetworkImageNode) {}
    /// Does nothing.
    func imageNode(_ node: NetworkImageNode, didLoadPartialImage image: Bitmap, completeScans: Int) {}
    /// Does nothing.
    func imageNode(_ node: NetworkImageNode, didLoadImage image: Bitmap, source: ImageSource) {}
    /// Does nothing.
    func imageNode(_ node: NetworkImageNode, didFailWithError error: NetworkImageError) {}
}

/// An `ImageNode` whose image comes from an http(s) URL (Texture's ASNetworkImageNode).
///
/// - **Ranges.** The load starts when the node enters the preload state (a window shows it,
///   or a range controller brings it near the screen) and is cancelled when it leaves; leaving
///   also releases the decoded image (the bytes stay in the loader's cache), so memory follows
///   the ranges. Re-entering loads again — from memory, usually.
/// - **Decoding** runs on a display queue at the node's pixel size (scaled JPEG decode), never
///   on the main thread; the result becomes `image`, which the display job only scales.
/// - **Progressive JPEG**: as bytes arrive, the prefix up to the last complete scan is decoded
///   (warnings about the missing data tolerated) and shown, refinement after refinement, then
///   the final image. Decodes never queue up: while one runs, newer scans wait and only the
///   newest is decoded next. Set `shouldRenderProgressImages = false` to wait for the end.
/// - **Default image**: shown while nothing is loaded and after a failure (without one, a
///   failure keeps a partial image if one was shown, else the placeholder).
/// - **Errors**: `loadState` becomes `.failed` with a `NetworkImageError`; 404, garbage bytes,
///   a truncated or oversized image, a stalled or closed connection all end there.
open class NetworkImageNode: ImageNode, @unchecked Sendable {
    /// Where the node's load stands. Any thread may read it (`loadState`).
    public enum LoadState: Sendable, Equatable {
        /// No load: no URL, or the node is outside the preload range.
        case idle
        /// Looking in the caches or downloading; nothing of the image is shown yet.
        case loading
        /// A progressive refinement is shown.
        case partial(completeScans: Int)
        /// The final image is shown; its bytes came from the given tier.
        case loaded(ImageSource)
        /// The load failed for good; the default image (or a partial one, or the placeholder)
        /// shows.
        case failed(NetworkImageError)
    }

    private let loader: NetworkImageLoader
    private var _url: URL?
    private var _defaultImage: Bitmap?
    private weak var _delegate: (any NetworkImageNodeDelegate)?
    private var _shouldRenderProgressImages = true
    private var _state: LoadState = .idle
    /// Bumped whenever the current load becomes stale (new URL, leaving preload): results of
    /// an older generation are dropped.
    private var _generation: UInt64 = 0
    private var _load: NetworkImageLoader.Load?
    private var _decodeQueue: DispatchQueue?
    private var _scale: Double = 1
    private var _tracker = JPEGScanTracker()
    private var _latestData: Data?
    private var _renderedScans = 0
    private var _partialDecodeScheduled = false
    private var _finalReceived = false

    /// Creates a node with no URL, showing its placeholder until an image arrives. Any thread.
    ///
    /// - Parameter loader: where bytes come from (the shared loader: default cache and
    ///   downloader).
    public init(loader: NetworkImageLoader = .shared) {
        self.loader = loader
        super.init()
    }

    /// The image's address (http or https). Setting it cancels the current load, shows the default
    /// image, and starts loading if the node is in the preload range. Any thread.
    public var url: URL? {
        get { lock.withLock { _url } }
        set {
            let change = lock.withLock { () -> (NetworkImageLoader.Load?, Bitmap?)? in
                guard newValue != _url else { return nil }
                let stale = _lockedReset()
                _url = newValue
                return (stale, _defaultImage)
            }
            guard let (stale, defaultImage) = change else { return }
            stale?.cancel()
            image = defaultImage
            if interfaceState.contains(.preload) { startLoad() }
        }
    }

    /// Shown until the image arrives and after a failure. Any thread.
    public var defaultImage: Bitmap? {
        get { lock.withLock { _defaultImage } }
        set {
            let show = lock.withLock { () -> Bool in
                _defaultImage = newValue
                switch _state {
                case .idle, .loading, .failed: return true
                case .partial, .loaded: return false
                }
            }
            if show { image = newValue }
        }
    }

    /// Told of the load's progress on a display queue (see `NetworkImageNodeDelegate`). Weak. Any
    /// thread.
    public var delegate: (any NetworkImageNodeDelegate)? {
        get { lock.withLock { _delegate } }
        set { lock.withLock { _delegate = newValue } }
    }

    /// Show progressive JPEG refinements while the file downloads (default true). Any thread.
    public var shouldRenderProgressImages: Bool {
        get { lock.withLock { _shouldRenderProgressImages } }
        set { lock.withLock { _shouldRenderProgressImages = newValue } }
    }

    /// Where the current load stands. Any thread.
    public var loadState: LoadState { lock.withLock { _state } }

    // MARK: Interface state (main thread)

    /// Starts loading `url` at the window's scale (memory, then disk, then network). Subclasses
    /// call `super`. Main thread.
    open override func didEnterPreloadState() {
        super.didEnterPreloadState()
        let scale = displayScale
        lock.withLock { _scale = scale }
        startLoad()
    }

    /// Cancels the load and releases the decoded image (the bytes stay cached), showing the default
    /// image again. Subclasses call `super`. Main thread.
    open override func didExitPreloadState() {
        super.didExitPreloadState()
        let (stale, defaultImage, hadImage) = lock.withLock { () -> (NetworkImageLoader.Load?, Bitmap?, Bool) in
            let had: Bool
            switch _state { case .partial, .loaded: had = true; default: had = false }
            return (_lockedReset(), _defaultImage, had)
        }
        stale?.cancel()
        // The decoded pixels go; the bytes stay in the cache for the way back.
        if hadImage { image = defaultImage }
    }

    /// Forgets the current load (lock held): returns it for cancelling outside the lock.
    private func _lockedReset() -> NetworkImageLoader.Load? {
        _generation &+= 1
        let stale = _load
        _load = nil
        _state = .idle
        _tracker = JPEGScanTracker()
        _latestData = nil
        _renderedScans = 0
        _partialDecodeScheduled = false
        _finalReceived = false
        return stale
    }

    // MARK: Loading

    private func startLoad() {
        let start = lock.withLock { () -> (URL, UInt64)? in
            guard let url = _url, _load == nil else { return nil }
            switch _state {
            case .idle, .failed: break
            case .loading, .partial, .loaded: return nil
            }
            _state = .loading
            _decodeQueue = DisplayQueuePool.shared.next()
            return (url, _generation)
        }
        guard let (url, generation) = start else { return }
        let load = loader.load(url) { [weak self] event in self?.handle(event, url: url, generation: generation) }
        let stale = lock.withLock { () -> Bool in
            guard _generation == generation else { return true }
            switch _state {
            case .loading, .partial: _load = load
            case .idle, .loaded, .failed: break  // a memory hit already finished
            }
            return false
        }
        if stale { load.cancel() }
    }

    private func handle(_ event: NetworkImageLoader.Event, url: URL, generation: UInt64) {
        switch event {
        case let .started(attempt):
            let delegate = lock.withLock { () -> (any NetworkImageNodeDelegate)?? in
                guard _generation == generation else { return nil }
                // A retry starts from no data: follow the new body's scans from the start.
                _tracker = JPEGScanTracker()
                _latestData = nil
                _renderedScans = 0
                return .some(_delegate)
            }
            if attempt == 1, let d = delegate { d?.imageNodeDidStartFetchingData(self) }
        case let .progress(chunk, _, _):
            let queue = lock.withLock { () -> DispatchQueue? in
                guard _generation == generation, _shouldRenderProgressImages, !_finalReceived else { return nil }
                // The node keeps its own copy of the body for refinements (appending to a
                // uniquely held buffer; a running decode holds a snapshot, copied at most once).
                if _latestData == nil { _latestData = Data() }
                _latestData!.append(chunk)
                let progress = _tracker.update(with: _latestData!)
                guard progress.isProgressive, progress.completeScans > _renderedScans, !_partialDecodeScheduled else { return nil }
                _partialDecodeScheduled = true
                return _decodeQueue
            }
            queue?.async { [self] in decodePartial(generation: generation) }
        case let .finished(data, source):
            let queue = lock.withLock { () -> DispatchQueue? in
                guard _generation == generation else { return nil }
                _finalReceived = true
                _latestData = nil
                return _decodeQueue
            }
            queue?.async { [self] in decodeFinal(data, source: source, url: url, generation: generation) }
        case let .failed(error):
            fail(error, generation: generation)
        }
    }

    /// The pixel size to decode at: the node's bounds at its window's scale (nil before layout:
    /// then the whole image is decoded and the display job scales it).
    private func targetPixelSize() -> (width: Int, height: Int)? {
        let size = bounds.size
        let scale = lock.withLock { _scale }
        guard size.width > 0, size.height > 0 else { return nil }
        return (Int((size.width * scale).rounded(.up)), Int((size.height * scale).rounded(.up)))
    }

    /// Display queue: decodes the newest complete-scan prefix, shows it, and goes on while
    /// newer scans arrived meanwhile.
    private func decodePartial(generation: UInt64) {
        while true {
            let job = lock.withLock { () -> (Data, Int, Int)? in
                guard _generation == generation, !_finalReceived, let data = _latestData,
                      _tracker.progress.completeScans > _renderedScans else {
                    _partialDecodeScheduled = false
                    return nil
                }
                return (data, _tracker.progress.decodablePrefixLength, _tracker.progress.completeScans)
            }
            guard let (data, length, scans) = job else { return }
            let decoded = try? ImageDecoder.decodeJPEGPrefix(data, length: length, targetSize: targetPixelSize(),
                                                             maxPixels: loader.downloader.configuration.maxPixels)
            let delegate = lock.withLock { () -> (any NetworkImageNodeDelegate)?? in
                _renderedScans = max(_renderedScans, scans)  // a failed prefix decode is not retried
                guard decoded != nil, _generation == generation, !_finalReceived else { return nil }
                _state = .partial(completeScans: scans)
                return .some(_delegate)
            }
            if let delegate, let bitmap = decoded?.bitmap {
                image = bitmap
                delegate?.imageNode(self, didLoadPartialImage: bitmap, completeScans: scans)
            }
        }
    }

    private func decodeFinal(_ data: Data, source: ImageSource, url: URL, generation: UInt64) {
        guard lock.withLock({ _generation == generation }) else { return }
        let decoded: DecodedImage
        let target = targetPixelSize()
        do throws(RasterError) {
            // The decoded-pixel budget, from the header before any pixel memory: a PNG (and a
            // JPEG with no target size) decodes in full. Cached bytes never met the downloader's
            // check, and a budget lowered since must hold for them too.
            if let over = Self.overDecodeBudget(data, target: target, budget: loader.downloader.configuration.maxDecodedPixels) {
                throw over
            }
            decoded = try ImageDecoder.decode(data: data, targetSize: target,
                                              maxPixels: loader.downloader.configuration.maxPixels)
        } catch {
            fail(.decoding(error), generation: generation)
            return
        }
        let delegate = lock.withLock { () -> (any NetworkImageNodeDelegate)?? in
            guard _generation == generation else { return nil }
            _state = .loaded(source)
            _load = nil
            return .some(_delegate)
        }
        guard let delegate else { return }
        // A GIF or WebP goes to the node as bytes: its display job plays it if it animates.
        if AnimatedImageDecoder.mayAnimate(data) { imageData = data } else { image = decoded.bitmap }
        if source == .network { loader.store(data, for: url) }
        delegate?.imageNode(self, didLoadImage: decoded.bitmap, source: source)
    }

    /// The budget check from the header alone: a PNG, GIF or WebP decodes in full, and so does a JPEG with no
    /// target size; nil when the decode stays within `budget` pixels (or the header is unreadable:
    /// the decoder then reports that).
    static func overDecodeBudget(_ data: Data, target: (width: Int, height: Int)?, budget: Int) -> RasterError? {
        guard let info = try? ImageDecoder.probe(data: data), info.format != .jpeg || target == nil,
              info.height > 0, info.width > budget / info.height else { return nil }
        return .tooManyPixels(width: info.width, height: info.height, limit: budget)
    }

    private func fail(_ error: NetworkImageError, generation: UInt64) {
        let outcome = lock.withLock { () -> ((any NetworkImageNodeDelegate)?, Bitmap?, Bool)? in
            guard _generation == generation else { return nil }
            let hadPartial: Bool
            if case .partial = _state { hadPartial = true } else { hadPartial = false }
            _state = .failed(error)
            _load = nil
            return (_delegate, _defaultImage, hadPartial)
        }
        guard let (delegate, defaultImage, hadPartial) = outcome else { return }
        if defaultImage != nil || !hadPartial { image = defaultImage }
        delegate?.imageNode(self, didFailWithError: error)
    }
}
