import Foundation
import Testing
import SilkDemoServer
import SilkSystem
@testable import SilkNetworkImage

/// Silk's libcurl client, alone: the order of a transfer's events, cancels that stop a body
/// where it is, refusals libcurl makes itself, and a thread that goes when idle.
@Suite struct HTTPClientTests {
    let server = sharedServer

    /// Records one client's events by transfer.
    final class Recorder: @unchecked Sendable {
        enum Kind: Equatable { case head(Int), data, completed(HTTPClient.Failure?) }
        private let events = Locked<[Int: [Kind]]>([:])
        private let bytes = Locked<[Int: Int]>([:])
        func add(_ id: Int, _ e: HTTPClient.Event) {
            let kind: Kind
            switch e {
            case let .head(status, _): kind = .head(status)
            case let .data(d): kind = .data; bytes.withLock { $0[id, default: 0] += d.count }
            case let .completed(f): kind = .completed(f)
            }
            events.withLock { $0[id, default: []].append(kind) }
        }
        func of(_ id: Int) -> [Kind] { events.current[id] ?? [] }
        func bytes(_ id: Int) -> Int { bytes.current[id] ?? 0 }
        func isDone(_ id: Int) -> Bool { of(id).contains { if case .completed = $0 { return true }; return false } }
    }

    @Test func aPhotoArrivesAsHeadDataThenOneCompletion() throws {
        let client = HTTPClient(maxConnectionsPerHost: 2)
        defer { client.invalidate() }
        let r = Recorder()
        let id = try #require(client.makeTransfer(.init(url: server.url("/photo/40.jpg?w=320&h=240").absoluteString)) { r.add($0, $1) })
        client.resume(id)
        #expect(waitUntil { r.isDone(id) })
        let events = r.of(id)
        #expect(events.first == .head(200))
        #expect(events.last == .completed(nil))
        #expect(events.dropFirst().dropLast().allSatisfy { $0 == .data })
        #expect(events.filter { if case .completed = $0 { return true }; return false }.count == 1)
        #expect(r.bytes(id) > 1000)
        #expect(client.isThreadRunning)
        // A 404 still reports its status, and completes (the downloader decides what it means).
        let missing = try #require(client.makeTransfer(.init(url: server.url("/nothing-here").absoluteString)) { r.add($0, $1) })
        client.resume(missing)
        #expect(waitUntil { r.isDone(missing) })
        #expect(r.of(missing).first == .head(404))
        // With nothing left to do the thread ends (after two idle seconds); a new transfer starts it again.
        #expect(waitUntil { !client.isThreadRunning })
        let again = try #require(client.makeTransfer(.init(url: server.url("/photo/40.jpg?w=32&h=24").absoluteString)) { r.add($0, $1) })
        client.resume(again)
        #expect(waitUntil { r.isDone(again) })
        #expect(r.of(again).last == .completed(nil))
    }

    @Test func aCancelStopsAnEndlessBodyWhereItIs() throws {
        let client = HTTPClient(maxConnectionsPerHost: 2)
        defer { client.invalidate() }
        let r = Recorder()
        let tag = UUID().uuidString
        let url = server.url("/photo/41.jpg?w=64&h=48&endless=1&cap=512000000&tag=\(tag)").absoluteString
        let id = try #require(client.makeTransfer(.init(url: url)) { r.add($0, $1) })
        client.resume(id)
        #expect(waitUntil { r.bytes(id) > 1 << 20 })
        client.cancel(id)
        client.cancel(id)  // idempotent
        #expect(waitUntil { r.isDone(id) })
        #expect(r.of(id).last == .completed(.cancelled))
        let atCancel = r.bytes(id)
        usleep(200_000)
        #expect(r.bytes(id) == atCancel)   // nothing after the completion
        // The server stopped sending soon after: what the sockets' buffers held (2.2 MB here),
        // not the 512 MB cap.
        #expect(waitUntil { server.openConnections(containing: tag) == 0 })
        #expect(server.bytesSent(containing: tag) < 16_000_000, "\(server.bytesSent(containing: tag)) bytes went out")
        #expect(client.transferCount == 0)
    }

    @Test func aTransferCancelledBeforeItStartsCompletesCancelled() throws {
        let client = HTTPClient(maxConnectionsPerHost: 1)
        defer { client.invalidate() }
        let r = Recorder()
        let id = try #require(client.makeTransfer(.init(url: server.url("/photo/42.jpg").absoluteString)) { r.add($0, $1) })
        client.cancel(id)
        #expect(waitUntil { r.isDone(id) })
        #expect(r.of(id) == [.completed(.cancelled)])
        client.resume(id)  // too late: nothing happens
        usleep(100_000)
        #expect(r.of(id) == [.completed(.cancelled)])
    }

    @Test func libcurlRefusesOtherProtocols() throws {
        let client = HTTPClient(maxConnectionsPerHost: 1)
        defer { client.invalidate() }
        let r = Recorder()
        for url in ["file:///etc/passwd", "ftp://127.0.0.1/x", "http://"] {
            guard let id = client.makeTransfer(.init(url: url), handler: { r.add($0, $1) }) else { continue }  // refused outright
            client.resume(id)
            #expect(waitUntil { r.isDone(id) })
            guard case .completed(.transport)? = r.of(id).last else { Issue.record("\(url): \(r.of(id))"); continue }
        }
    }

    /// The example of docs/network-images.md, against the demo server's feed.
    @Test func theDocumentedPatternFetchesAPage() {
        let client = HTTPClient(maxConnectionsPerHost: 2)
        defer { client.invalidate() }
        let body = Locked(Data())
        let outcome = Locked<String?>(nil)
        if let id = client.makeTransfer(.init(url: server.url("/feed?page=0&count=5").absoluteString, idleTimeout: 10), handler: { id, event in
            switch event {
            case let .head(status, _) where status != 200: client.cancel(id)
            case let .data(chunk):
                let size = body.withLock { $0.append(chunk); return $0.count }
                if size > 4 << 20 { client.cancel(id) }
            case let .completed(failure): outcome.withLock { $0 = failure.map { "\($0)" } ?? "\(body.current.count) bytes" }
            default: break
            }
        }) { client.resume(id) }
        #expect(waitUntil { outcome.current != nil })
        #expect(outcome.current == "\(body.current.count) bytes")
        #expect((try? JSONSerialization.jsonObject(with: body.current)) != nil)
    }

    @Test func absurdTimeoutsAreSanitized() {
        #expect(HTTPClient.sanitizedTimeout(.nan) == 15)
        #expect(HTTPClient.sanitizedTimeout(-1) == 15)
        #expect(HTTPClient.sanitizedTimeout(0) == 15)
        #expect(HTTPClient.sanitizedTimeout(.infinity) == 1_000_000)
        #expect(HTTPClient.sanitizedTimeout(0.25) == 0.25)
    }

    @Test func afterInvalidateNothingIsMadeAndTheThreadGoes() throws {
        let client = HTTPClient(maxConnectionsPerHost: 1)
        let r = Recorder()
        let id = try #require(client.makeTransfer(.init(url: server.url("/photo/43.jpg?w=600&h=400&chunk=64&interval=200").absoluteString)) { r.add($0, $1) })
        client.resume(id)
        #expect(waitUntil { !r.of(id).isEmpty })
        let neverResumed = client.makeTransfer(.init(url: server.url("/photo/45.jpg").absoluteString)) { r.add($0, $1) }
        #expect(neverResumed != nil)
        client.invalidate()
        client.invalidate()
        #expect(waitUntil { client.transferCount == 0 && !client.isThreadRunning })
        #expect(client.makeTransfer(.init(url: server.url("/photo/44.jpg").absoluteString)) { r.add($0, $1) } == nil)
    }
}
