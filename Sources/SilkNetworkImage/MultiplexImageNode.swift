import Foundation
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkSystem

/// Supplies a `MultiplexImageNode`'s images and URLs (Texture's `ASMultiplexImageNodeDataSource`).
/// Called on the main thread (`imageFor`) and on display queues (`urlFor`); keep both quick.
public protocol MultiplexImageNodeDataSource: AnyObject, Sendable {
    /// A decoded image the app already has for `identifier` (its own cache), shown at once; nil
    /// when it has none. Main thread.
    func multiplexImageNode(_ node: MultiplexImageNode, imageFor identifier: String) -> Bitmap?
    /// Where to download `identifier` from; nil when it cannot be downloaded. Any thread.
    func multiplexImageNode(_ node: MultiplexImageNode, urlFor identifier: String) -> URL?
}

extension MultiplexImageNodeDataSource {
    /// No images of the app's own.
    public func multiplexImageNode(_ node: MultiplexImageNode, imageFor identifier: String) -> Bitmap? { nil }
    /// The identifier is the URL.
    public func multiplexImageNode(_ node: MultiplexImageNode, urlFor identifier: String) -> URL? { URL(string: identifier) }
}

/// Told how a `MultiplexImageNode`'s images arrive (Texture's `ASMultiplexImageNodeDelegate`).
/// Called on display queues or the loader's threads (the main thread for images from the data
/// source); all methods have empty defaults.
public protocol MultiplexImageNodeDelegate: AnyObject, Sendable {
    /// A download of `identifier` started.
    func multiplexImageNode(_ node: MultiplexImageNode, didStartDownloadOf identifier: String)
    /// The download of `identifier` ended: its bytes decoded (`error` nil) or not.
    func multiplexImageNode(_ node: MultiplexImageNode, didFinishDownloadOf identifier: String, error: NetworkImageError?)
    /// A better image is now the node's image (`previous` nil: the first one).
    func multiplexImageNode(_ node: MultiplexImageNode, didUpdateImage image: Bitmap, identifier: String, previous: String?)
}

extension MultiplexImageNodeDelegate {
    /// Does nothing.
    public func multiplexImageNode(_ node: MultiplexImageNode, didStartDownloadOf identifier: String) {}
    /// Does nothing.
    public func multiplexImageNode(_ node: MultiplexImageNode, didFinishDownloadOf identifier: String, error: NetworkImageError?) {}
    /// Does nothing.
    public func multiplexImageNode(_ node: MultiplexImageNode, didUpdateImage image: Bitmap, identifier: String, previous: String?) {}
}

/// Shows the best of several versions of an image as they become available (Texture's
/// `ASMultiplexImageNode`): `imageIdentifiers` are ordered best first (say a 2048-pixel, an
/// 800-pixel and a 200-pixel rendition).
///
/// - **Right away**: on entering the preload range the node shows the best version the data
///   source has decoded, else (on a display queue) the best one in the loader's memory or disk
///   cache.
/// - **Then better ones**: it downloads the best version (or, with
///   `downloadsIntermediateImages`, each better one in turn) through the loader and swaps each in
///   as it decodes. Swaps only ever go to a better version, and the old image stays on screen
///   until the new one's display job has finished, so the node never flickers back to the
///   placeholder or to a worse version, even when arrivals race.
/// - **Cancellation**: leaving the preload range cancels the running download and releases the
///   image (the bytes stay cached); coming back shows the best cached version at once.
/// - Failures skip to the next candidate; a failed best version leaves the best one shown.
///
/// Thread safety: configure from any thread (state behind the node's lock); the hooks run on the
/// main thread.
open class MultiplexImageNode: ImageNode, @unchecked Sendable {
    private let loader: NetworkImageLoader
    private var _identifiers: [String] = []
    private var _downloadsIntermediateImages = false
    private weak var _dataSource: (any MultiplexImageNodeDataSource)?
    private weak var _delegate: (any MultiplexImageNodeDelegate)?
    /// Index in `_identifiers` of what is shown (lower is better).
    private var _loadedIndex: Int?
    private var _generation: UInt64 = 0
    private var _load: NetworkImageLoader.Load?
    private var _loadingIndex: Int?
    private var _failed: Set<Int> = []
    private var _scale: Double = 1
    private let queue = DisplayQueuePool.shared.next()
    /// Held from the decision to show a version until it is set, so two arrivals racing on
    /// different threads cannot set a worse image after a better one.
    private let swapLock = Lock()

    /// A node with no identifiers. `loader` fetches and caches the versions (the shared one unless
    /// given). Any thread.
    public init(loader: NetworkImageLoader = .shared) {
        self.loader = loader
        super.init()
    }

    /// The versions, best first. Setting them releases what is shown and starts again (when in
    /// the preload range). Any thread.
    public var imageIdentifiers: [String] {
        get { lock.withLock { _identifiers } }
        set {
            let stale = lock.withLock { () -> NetworkImageLoader.Load? in
                guard newValue != _identifiers else { return nil }
                _identifiers = newValue
                return _lockedReset()
            }
            stale?.cancel()
            if interfaceState.contains(.preload) { onMain { self.start() } }
        }
    }

    /// Download every version better than the one shown, worst first, instead of only the best
    /// (default false). Any thread.
    public var downloadsIntermediateImages: Bool {
        get { lock.withLock { _downloadsIntermediateImages } }
        set { lock.withLock { _downloadsIntermediateImages = newValue } }
    }

    /// Supplies decoded images and URLs. Weak. Without one, identifiers are URLs. Any thread.
    public var dataSource: (any MultiplexImageNodeDataSource)? {
        get { lock.withLock { _dataSource } }
        set { lock.withLock { _dataSource = newValue } }
    }

    /// Told of downloads and swaps. Weak. Any thread.
    public var delegate: (any MultiplexImageNodeDelegate)? {
        get { lock.withLock { _delegate } }
        set { lock.withLock { _delegate = newValue } }
    }

    /// The identifier of the version shown (nil: none yet). Any thread.
    public var loadedImageIdentifier: String? {
        lock.withLock { _loadedIndex.map { _identifiers[$0] } }
    }

    /// The identifier being downloaded now, if any. Any thread.
    public var downloadingImageIdentifier: String? {
        lock.withLock { _loadingIndex.map { _identifiers[$0] } }
    }

    // MARK: Interface state (main thread)

    /// Shows the best version available now and starts fetching better ones. Subclasses call
    /// `super`. Main thread.
    open override func didEnterPreloadState() {
        super.didEnterPreloadState()
        let scale = displayScale
        lock.withLock { _scale = scale }
        start()
    }

    /// Cancels the download and releases the image (the bytes stay cached). Subclasses call
    /// `super`. Main thread.
    open override func didExitPreloadState() {
        super.didExitPreloadState()
        swapLock.lock()
        let stale = lock.withLock { _lockedReset() }
        image = nil
        swapLock.unlock()
        stale?.cancel()
    }

    private func _lockedReset() -> NetworkImageLoader.Load? {
        _generation &+= 1
        _loadedIndex = nil
        _loadingIndex = nil
        _failed = []
        defer { _load = nil }
        return _load
    }

    private func onMain(_ body: @escaping @Sendable () -> Void) {
        performOnPassThread(body)
    }

    private func start() {
        let (identifiers, source, generation) = lock.withLock { (_identifiers, _dataSource, _generation) }
        guard !identifiers.isEmpty else { return }
        // The app's own decoded images: the best one now.
        if let source {
            for (i, id) in identifiers.enumerated() {
                if let bitmap = source.multiplexImageNode(self, imageFor: id) {
                    offer(.image(bitmap), index: i, generation: generation)
                    break
                }
            }
        }
        // The caches: the best cached version, decoded on a display queue.
        queue.async { [self] in
            // (url(for:) takes the lock itself: map outside it.)
            let ids = lock.withLock { _generation == generation ? _identifiers : [] }
            let urls = ids.enumerated().map { ($0.offset, url(for: $0.element)) }
            for (i, url) in urls {
                guard let url, lock.withLock({ _generation == generation && (_loadedIndex ?? .max) > i }) else { continue }
                if let data = loader.cache.memoryData(for: url) ?? loader.cache.diskData(for: url) {
                    if decodeAndOffer(data, index: i, generation: generation) { break }
                }
            }
            loadNext(generation: generation)
        }
    }

    private func url(for identifier: String) -> URL? {
        guard let source = lock.withLock({ _dataSource }) else { return URL(string: identifier) }
        return source.multiplexImageNode(self, urlFor: identifier)
    }

    /// Starts the next download, if a better version is still wanted (any thread).
    private func loadNext(generation: UInt64) {
        let next = lock.withLock { () -> (Int, String)? in
            guard _generation == generation, _load == nil, _loadingIndex == nil else { return nil }
            let limit = _loadedIndex ?? _identifiers.count
            let candidates = (0..<limit).filter { !_failed.contains($0) }
            guard let index = _downloadsIntermediateImages ? candidates.last : candidates.first else { return nil }
            _loadingIndex = index
            return (index, _identifiers[index])
        }
        guard let (index, identifier) = next else { return }
        guard let url = url(for: identifier) else {
            finishLoad(index: index, generation: generation, error: .unsupportedURL(identifier))
            return
        }
        let load = loader.load(url) { [weak self] event in
            guard let self else { return }
            switch event {
            case .started(attempt: 1):
                if let d = lock.withLock({ _generation == generation ? _delegate : nil }) {
                    d.multiplexImageNode(self, didStartDownloadOf: identifier)
                }
            case .started, .progress: break
            case let .finished(data, source):
                queue.async { [self] in
                    if decodeAndOffer(data, index: index, generation: generation) {
                        if source == .network { loader.store(data, for: url) }
                        finishLoad(index: index, generation: generation, error: nil)
                    } else {
                        finishLoad(index: index, generation: generation, error: .decoding(.corrupt("\(identifier) did not decode")))
                    }
                }
            case let .failed(error):
                finishLoad(index: index, generation: generation, error: error)
            }
        }
        let stale = lock.withLock { () -> Bool in
            guard _generation == generation else { return true }
            if _loadingIndex == index { _load = load }
            return false
        }
        if stale { load.cancel() }
    }

    private func finishLoad(index: Int, generation: UInt64, error: NetworkImageError?) {
        let delegate = lock.withLock { () -> (any MultiplexImageNodeDelegate)?? in
            guard _generation == generation else { return nil }
            _load = nil
            _loadingIndex = nil
            if error != nil { _failed.insert(index) }
            return .some(_delegate)
        }
        guard let delegate else { return }
        let identifier = lock.withLock { index < _identifiers.count ? _identifiers[index] : "" }
        delegate?.multiplexImageNode(self, didFinishDownloadOf: identifier, error: error)
        loadNext(generation: generation)
    }

    /// Decodes `data` at the node's pixel size and offers it; false when it did not decode.
    private func decodeAndOffer(_ data: Data, index: Int, generation: UInt64) -> Bool {
        let size = bounds.size
        let scale = lock.withLock { _scale }
        let target = size.width > 0 && size.height > 0
            ? (Int((size.width * scale).rounded(.up)), Int((size.height * scale).rounded(.up))) : nil
        let budget = loader.downloader.configuration.maxDecodedPixels
        if NetworkImageNode.overDecodeBudget(data, target: target, budget: budget) != nil { return false }
        guard let decoded = try? ImageDecoder.decode(data: data, targetSize: target, maxPixels: loader.downloader.configuration.maxPixels)
        else { return false }
        offer(AnimatedImageDecoder.mayAnimate(data) ? .data(data, decoded.bitmap) : .image(decoded.bitmap), index: index, generation: generation)
        return true
    }

    private enum Version { case image(Bitmap), data(Data, Bitmap) }

    /// Shows `version` if it is better than what is shown (any thread).
    private func offer(_ version: Version, index: Int, generation: UInt64) {
        swapLock.lock()
        let accepted = lock.withLock { () -> ((any MultiplexImageNodeDelegate)?, String, String?)? in
            guard _generation == generation, index < (_loadedIndex ?? .max), index < _identifiers.count else { return nil }
            let previous = _loadedIndex.map { _identifiers[$0] }
            _loadedIndex = index
            return (_delegate, _identifiers[index], previous)
        }
        guard let (delegate, identifier, previous) = accepted else { swapLock.unlock(); return }
        let bitmap: Bitmap
        switch version {
        case let .image(b): image = b; bitmap = b
        case let .data(d, first): imageData = d; bitmap = first
        }
        swapLock.unlock()
        delegate?.multiplexImageNode(self, didUpdateImage: bitmap, identifier: identifier, previous: previous)
    }
}
