import Foundation
import SilkDemoServer
import SilkRaster
@testable import SilkNetworkImage
import SilkSystem

/// A fresh private directory under /tmp, removed by `remove()`.
struct TempDirectory {
    let path: String
    init() {
        var template = Array("/tmp/silk-netimage-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// `SILK_TEST_TIMEOUT_SCALE` (a number, default 1) stretches every wait below: `make test-arm64`
/// sets 10 for its run under qemu-user, where the demo server and libcurl run 10-20 times slower
/// and a 20 s wait for one 404 ran out.
let timeoutScale = ProcessInfo.processInfo.environment["SILK_TEST_TIMEOUT_SCALE"].flatMap(Double.init).map { max(1, $0) } ?? 1

/// Waits on a condition other threads make true (no timing assertions: the timeout only keeps
/// a broken build from hanging).
func waitUntil(timeout: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout * timeoutScale)
    while !condition() {
        if Date() > deadline { return false }
        usleep(2000)
    }
    return true
}

/// Records a node's delegate calls in order.
final class RecordingDelegate: NetworkImageNodeDelegate, @unchecked Sendable {
    enum Call: Equatable {
        case started
        case partial(scans: Int, width: Int, height: Int)
        case loaded(ImageSource, width: Int, height: Int)
        case failed(NetworkImageError)
    }
    private let lock = Lock()
    private var _calls: [Call] = []
    var calls: [Call] { lock.lock(); defer { lock.unlock() }; return _calls }
    private func add(_ c: Call) { lock.lock(); _calls.append(c); lock.unlock() }
    func imageNodeDidStartFetchingData(_ node: NetworkImageNode) { add(.started) }
    func imageNode(_ node: NetworkImageNode, didLoadPartialImage image: Bitmap, completeScans: Int) {
        add(.partial(scans: completeScans, width: image.width, height: image.height))
    }
    func imageNode(_ node: NetworkImageNode, didLoadImage image: Bitmap, source: ImageSource) {
        add(.loaded(source, width: image.width, height: image.height))
    }
    func imageNode(_ node: NetworkImageNode, didFailWithError error: NetworkImageError) { add(.failed(error)) }

    var isFinished: Bool {
        calls.contains { if case .loaded = $0 { return true }; if case .failed = $0 { return true }; return false }
    }
}

/// Collects a loader's events.
final class EventLog: @unchecked Sendable {
    private let lock = Lock()
    private var events: [NetworkImageLoader.Event] = []
    func add(_ e: NetworkImageLoader.Event) { lock.lock(); events.append(e); lock.unlock() }
    var all: [NetworkImageLoader.Event] { lock.lock(); defer { lock.unlock() }; return events }
    var outcome: NetworkImageLoader.Event? {
        all.last { if case .finished = $0 { return true }; if case .failed = $0 { return true }; return false }
    }
    var startedAttempts: Int { all.filter { if case .started = $0 { return true }; return false }.count }
}

/// One server for the whole test process (its threads are cheap, its port private).
let sharedServer: DemoServer = try! DemoServer()

func makeLoader(directory: String? = nil, configure: (inout ImageDownloader.Configuration) -> Void = { _ in }) -> NetworkImageLoader {
    var config = ImageDownloader.Configuration()
    config.retryDelay = 0.05
    configure(&config)
    let downloader = ImageDownloader(configuration: config)
    testDownloaders.add(downloader)
    return NetworkImageLoader(cache: ImageCache(directory: directory, log: { _ in }), downloader: downloader)
}

/// Every downloader the tests made stays reachable for the whole run, as an app's shared one does:
/// a URLSession keeps its delegate (and its connections' buffers) until it is invalidated, and the
/// tests have no per-test teardown to invalidate theirs. Without this LeakSanitizer reports each
/// test's session cycle (`make test-asan`).
let testDownloaders = DownloaderRegistry()
final class DownloaderRegistry: @unchecked Sendable {
    private let lock = Lock()
    private var all: [ImageDownloader] = []
    func add(_ d: ImageDownloader) { lock.lock(); all.append(d); lock.unlock() }
}

/// Loads `url` and waits for the outcome.
func loadAndWait(_ loader: NetworkImageLoader, _ url: URL) -> EventLog {
    let log = EventLog()
    loader.load(url) { log.add($0) }
    _ = waitUntil { log.outcome != nil }
    return log
}
