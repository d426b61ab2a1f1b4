import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import SilkDemoServer
import SilkNodes
import SilkRaster
import SilkScenes
@testable import SilkNetworkImage

/// Bodies that never end, claim 10 GB, or inflate 160-fold, from the demo server's hostile
/// fault options (`length`, `endless`, `gzipbomb`): each load ends in one clear error as soon as
/// the bytes pass the limit, and libcurl never runs more than 64 chunks ahead of the delegate.
/// (When the transfer itself stops is up to FoundationNetworking: a cancel waits for libcurl,
/// which under load read on to the server's 1 GiB cap; see `BoundedDelegateQueue`.)
@Suite struct HostileServerTests {
    let server = sharedServer

    @Test func anOverLimitContentLengthIsRefusedAndTheTransferStops() {
        let tag = UUID().uuidString
        let loader = makeLoader { $0.maxBytes = 1 << 20; $0.maxRetries = 0 }
        let start = Date()
        let log = loadAndWait(loader, server.url("/photo/12.jpg?w=64&h=48&length=10000000000&tag=\(tag)"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .tooLarge(bytes: 10_000_000_000, limit: 1 << 20))
        // FoundationNetworking ignored the `.cancel` disposition: the refusal waited for the
        // whole body (here the server's 1 GiB cap; 10 GB from a real one).
        #expect(Date().timeIntervalSince(start) < 15)  // generous: other hostile transfers load the machine
        #expect(log.all.allSatisfy { if case .progress = $0 { return false }; return true })
        #expect(loader.downloader.peakQueuedDeliveries <= 64)
    }

    @Test func anEndlessBodyStopsAtTheLimit() {
        let tag = UUID().uuidString
        let loader = makeLoader { $0.maxBytes = 1 << 20; $0.maxRetries = 0 }
        let log = loadAndWait(loader, server.url("/photo/13.jpg?w=64&h=48&endless=1&tag=\(tag)"))
        guard case let .failed(.tooLarge(bytes, limit))? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(limit == 1 << 20 && bytes > limit)
        let delivered = log.all.compactMap { if case let .progress(_, n, _) = $0 { return n }; return nil }.max() ?? 0
        #expect(delivered <= 1 << 20)
        #expect(loader.downloader.peakQueuedDeliveries <= 64)
    }

    @Test func aCompressionBombIsBoundedByItsDecodedSize() {
        let tag = UUID().uuidString
        let loader = makeLoader { $0.maxBytes = 4 << 20; $0.maxRetries = 0 }
        let start = Date()
        // 8 MB on the wire inflate to 1.3 GB; the error comes as the inflated bytes pass 4 MiB.
        let log = loadAndWait(loader, server.url("/photo/14.jpg?w=64&h=48&gzipbomb=8000000&tag=\(tag)"))
        guard case let .failed(.tooLarge(bytes, limit))? = log.outcome else { Issue.record("\(log.all.count) events"); return }
        #expect(limit == 4 << 20 && bytes > limit)
        #expect(Date().timeIntervalSince(start) < 15)
        let delivered = log.all.compactMap { if case let .progress(_, n, _) = $0 { return n }; return nil }.max() ?? 0
        #expect(delivered <= 4 << 20)
        // libcurl waited for the delegate: at most 64 chunks (1 MiB) were ever queued. A plain
        // OperationQueue let 1.5 GB of inflated chunks queue up before the delegate saw 4 MiB.
        #expect(loader.downloader.peakQueuedDeliveries <= 64)
        // Images ask for no transfer compression at all (the bomb came anyway).
        #expect(server.requestHead(containing: tag)?.lowercased().contains("accept-encoding: identity") == true)
    }

    @Test func theBoundedDelegateQueueMakesTheProducerWait() {
        let queue = BoundedDelegateQueue(name: "test", capacity: 8)
        let ran = Locked(0)
        for _ in 0..<500 { queue.addOperation { usleep(50); ran.withLock { $0 += 1 } } }
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.current == 500)
        #expect(queue.peakPending <= 8)
    }

    @Test func aLoadAfterInvalidateFailsCleanly() {
        let loader = makeLoader()
        loader.downloader.invalidate()
        // Used to trap in URLSession: "Fatal error: Session invalidated".
        let log = loadAndWait(loader, server.url("/photo/15.jpg?w=32&h=32&tag=\(UUID().uuidString)"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .invalidated)
        #expect(!error.isTransient)
        loader.downloader.invalidate()  // idempotent
    }

    @Test func aRetryDueAfterInvalidateDoesNotTrap() {
        let tag = UUID().uuidString
        let loader = makeLoader { $0.maxRetries = 3; $0.retryDelay = 0.3 }
        let log = EventLog()
        loader.load(server.url("/photo/16.jpg?status=503&tag=\(tag)")) { log.add($0) }
        #expect(waitUntil { server.requestCount(path: "/photo/16.jpg") >= 1 && server.openConnections(containing: tag) == 0 })
        loader.downloader.invalidate()
        usleep(600_000)  // the retry's timer fires on an invalidated downloader: nothing happens
        #expect(log.outcome == nil)
        #expect(server.requestLog.filter { $0.contains(tag) }.count == 1)
    }

    @Test func aTrickleEndsAtTheResourceTimeout() {
        let loader = makeLoader { $0.resourceTimeout = 1; $0.timeout = 10; $0.maxRetries = 0 }
        let start = Date()
        let log = loadAndWait(loader, server.url("/photo/17.jpg?w=600&h=400&chunk=64&interval=100&tag=\(UUID().uuidString)"))
        guard case let .failed(error)? = log.outcome else { Issue.record("\(log.all)"); return }
        #expect(error == .timedOut(seconds: 1))
        #expect(Date().timeIntervalSince(start) < 15)
    }
}

/// Numbers from the URL that used to trap the demo server get a clear 400 or 404, and the
/// server goes on answering.
@Suite struct DemoServerHostileRequestTests {
    func get(_ url: URL) -> (status: Int, body: String) {
        let box = Locked((0, ""))
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: url) { data, response, _ in
            box.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self)) }
            done.signal()
        }.resume()
        done.wait()
        return box.current
    }

    @Test func overflowingNumbersAreRefusedNotFatal() throws {
        let server = try DemoServer()
        defer { server.stop() }
        #expect(get(server.url("/avatar/9223372036854775807.png")).status == 404)
        #expect(get(server.url("/photo/9223372036854775807.jpg")).status == 404)
        let page = get(server.url("/feed?page=461168601842738790"))
        #expect(page.status == 400)
        #expect(page.body == "bad request: page 461168601842738790 is out of range\n")
        #expect(get(server.url("/feed?page=99999999999999999999")).status == 400)
        #expect(get(server.url("/feed?page=9223372036854775807&count=100")).status == 400)
        #expect(get(server.url("/photo/1.jpg?w=99999999999999999999")).status == 400)
        #expect(get(server.url("/feed?page=3&count=2")).status == 200)
        let health = get(server.url("/health"))
        #expect(health.status == 200 && health.body == "ok\n")
    }

    @Test func requestHeadsParse() {
        func parse(_ s: String) -> DemoServer.ParsedHead { DemoServer.parseRequestHead(Array(s.utf8)) }
        #expect(parse("GET /feed?page=1 HTTP/1.1\r\nHost: x\r\n\r\n") == .get("/feed?page=1"))
        #expect(parse("GET /feed HTTP/1.1\r\nHost: x\r\n") == .incomplete)
        #expect(parse("POST /feed HTTP/1.1\r\n\r\n") == .bad)
        #expect(parse("GET feed HTTP/1.1\r\n\r\n") == .bad)
        #expect(DemoServer.parseRequestHead([0xFF, 0xFE, 0x0D, 0x0A, 0x0D, 0x0A]) == .bad)
        #expect(DemoServer.parseRequestHead([0x47, 0xC3]) == .incomplete)  // a UTF-8 sequence cut by the read
    }
}
