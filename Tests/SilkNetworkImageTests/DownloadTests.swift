import Foundation
import Testing
import SilkDemoServer
import SilkRaster
@testable import SilkNetworkImage

/// The loader and downloader against the local demo server: success, retries, and every kind
/// of bad answer ending in one clear error.
@Suite struct DownloadTests {
    let server = sharedServer

    @Test func downloadsAPhotoThatDecodes() throws {
        let loader = makeLoader()
        let log = loadAndWait(loader, server.url("/photo/3.jpg?w=120&h=80&dl=ok"))
        guard case let .finished(data, source)? = log.outcome else { Issue.record("no data: \(log.all)"); return }
        #expect(source == .network)
        let image = try ImageDecoder.decode(data: data)
        #expect(image.originalSize == (120, 80))
    }

    @Test func notFoundFailsWithoutRetrying() {
        let loader = makeLoader()
        let path = "/photo/missing-\(UUID().uuidString).jpg"
        let log = loadAndWait(loader, server.url(path))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .httpStatus(404))
        #expect(server.requestCount(path: path) == 1)
        #expect(log.startedAttempts == 1)
    }

    @Test func serverErrorsAreRetriedWithBackoff() {
        let loader = makeLoader { $0.maxRetries = 3 }
        let path = "/photo/5.jpg"
        let query = "?w=40&h=30&fail=2&tag=\(UUID().uuidString)"
        let log = loadAndWait(loader, server.url(path + query))
        guard case .finished? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(log.startedAttempts == 3)  // two 503s, then the photo
        #expect(server.requestLog.filter { $0 == path + query }.count == 3)
    }

    @Test func retriesGiveUpAfterTheLimit() {
        let loader = makeLoader { $0.maxRetries = 1 }
        let log = loadAndWait(loader, server.url("/photo/5.jpg?status=503&tag=\(UUID().uuidString)"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .httpStatus(503))
        #expect(log.startedAttempts == 2)
    }

    @Test func garbageBytesAreRefusedFromTheirFirstBytes() {
        let loader = makeLoader()
        let log = loadAndWait(loader, server.url("/photo/7.jpg?garbage=1"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        guard case .decoding(.unsupportedFormat) = error else { Issue.record("\(error)"); return }
        #expect(!error.isTransient)
        #expect(log.startedAttempts == 1)
    }

    @Test func aHugeImageIsRefusedFromItsHeader() {
        let loader = makeLoader()
        // Sent slowly, so the refusal must come from the header, long before the body ends.
        let log = loadAndWait(loader, server.url("/photo/8.jpg?w=600&h=400&huge=1&chunk=1024&interval=200"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .decoding(.tooManyPixels(width: 30000, height: 30000, limit: RasterLimits.defaultMaxImagePixels)))
        let received = log.all.compactMap { if case let .progress(_, n, _) = $0 { return n }; return nil }.max() ?? 0
        #expect(received == 0)  // the header check runs before any progress is reported
    }

    @Test func aStalledServerTimesOut() {
        let loader = makeLoader { $0.timeout = 0.5; $0.maxRetries = 0 }
        let log = loadAndWait(loader, server.url("/photo/9.jpg?w=300&h=200&stall=500&tag=\(UUID().uuidString)"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .timedOut(seconds: 0.5))
        #expect(error.isTransient)
    }

    @Test func aConnectionClosedMidImageFailsAfterRetries() {
        let loader = makeLoader { $0.maxRetries = 1 }
        let log = loadAndWait(loader, server.url("/photo/10.jpg?w=300&h=200&close=700&tag=\(UUID().uuidString)"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        guard case .connection = error else { Issue.record("\(error)"); return }
        #expect(log.startedAttempts == 2)
    }

    @Test func unsupportedSchemesFailAtOnce() {
        let loader = makeLoader()
        let log = loadAndWait(loader, URL(string: "file:///etc/passwd")!)
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .unsupportedURL("file:///etc/passwd"))
    }

    @Test func aSecondLoadComesFromMemoryThenDisk() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let url = server.url("/photo/11.jpg?w=64&h=48&tag=\(UUID().uuidString)")
        let loader = makeLoader(directory: dir.path)
        guard case let .finished(data, .network)? = loadAndWait(loader, url).outcome else { Issue.record("no network load"); return }
        loader.store(data, for: url)
        loader.flush()
        guard case .finished(_, .memory)? = loadAndWait(loader, url).outcome else { Issue.record("no memory hit"); return }
        // A new process (a new loader on the same directory) finds it on disk.
        let second = makeLoader(directory: dir.path)
        guard case let .finished(diskData, .disk)? = loadAndWait(second, url).outcome else { Issue.record("no disk hit"); return }
        #expect(diskData == data)
        #expect(server.requestCount(path: "/photo/11.jpg") >= 1)
        #expect(server.requestLog.filter { $0.contains(url.query!) }.count == 1)
        #expect(loader.cache.statistics.memoryHits == 1)
        #expect(second.cache.statistics.diskHits == 1)
    }
}
