import Foundation
import Testing
import SilkDemoServer
import SilkGeometry
import SilkNodes
import SilkRaster
@testable import SilkNetworkImage

/// The node: loads start on entering the preload state and stop on leaving it; sources,
/// progressive refinements, failures and the default image, as the delegate sees them.
///
/// The test thread is adopted as a pass thread right before each `setInterfaceState`, so the
/// node's preload hooks run at once (as the main loop's pass would). The suite is serialized:
/// adoption is process-wide (the latest caller wins), so two of its tests in parallel took the
/// role from each other and a hook queued for a pass that never came (seen under ASan in CI).
@Suite(.serialized) struct NetworkImageNodeTests {
    let server = sharedServer

    /// Moves `node` to `state` with this thread as the pass thread, so its hooks run now: other
    /// suites' passes (on their own threads) take the role while a test waits.
    func enter(_ node: DisplayNode, _ state: InterfaceState) {
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState(state)
    }

    func makeNode(_ loader: NetworkImageLoader, _ path: String, size: Size = Size(width: 150, height: 100)) -> (NetworkImageNode, RecordingDelegate) {
        let node = NetworkImageNode(loader: loader)
        node.frame = Rect(size: size)
        let delegate = RecordingDelegate()
        node.delegate = delegate
        node.url = server.url(path)
        return (node, delegate)
    }

    @Test func loadsWhenEnteringPreloadThenFromMemory() {
        let loader = makeLoader()
        let tag = UUID().uuidString
        let (node, delegate) = makeNode(loader, "/photo/21.jpg?w=600&h=400&t=\(tag)")
        #expect(node.loadState == .idle)
        #expect(server.requestLog.filter { $0.contains(tag) }.isEmpty)  // nothing before preload
        enter(node, .inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        #expect(delegate.calls.first == .started)
        // Decoded at the node's pixel size: 600 × 400 at 1/4 is exactly 150 × 100.
        #expect(delegate.calls.last == .loaded(.network, width: 150, height: 100))
        #expect(node.loadState == .loaded(.network))
        #expect(node.image?.width == 150)

        let (second, secondDelegate) = makeNode(loader, "/photo/21.jpg?w=600&h=400&t=\(tag)")
        enter(second, .inHierarchy)
        #expect(waitUntil { secondDelegate.isFinished })
        #expect(secondDelegate.calls == [.loaded(.memory, width: 150, height: 100)])
        #expect(server.requestLog.filter { $0.contains(tag) }.count == 1)
    }

    @Test func loadsFromDiskInANewProcess() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = "/photo/22.jpg?w=300&h=200&t=\(UUID().uuidString)"
        let first = makeLoader(directory: dir.path)
        let (node, delegate) = makeNode(first, path)
        enter(node, .inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        first.flush()
        let (again, againDelegate) = makeNode(makeLoader(directory: dir.path), path)
        enter(again, .inHierarchy)
        #expect(waitUntil { againDelegate.isFinished })
        #expect(againDelegate.calls == [.loaded(.disk, width: 150, height: 100)])
    }

    @Test func progressiveRefinementsArriveBeforeTheFinalImage() throws {
        let loader = makeLoader()
        // The server sends the first 6,000 bytes of the progressive photo (~12 KB, five scans in), then holds the rest until a
        // partial image has reached the delegate: however loaded the machine (ASan, other
        // suites), a prefix is decoded before the last byte arrives.
        let tag = UUID().uuidString
        let (node, delegate) = makeNode(loader, "/photo/24.jpg?w=600&h=400&progressive=1&hold=6000&t=\(tag)")
        enter(node, .inHierarchy)
        let sawPartial = waitUntil(timeout: 60) { delegate.calls.contains { if case .partial = $0 { return true }; return false } }
        server.release(containing: tag)
        #expect(sawPartial)
        #expect(waitUntil { delegate.isFinished })
        let calls = delegate.calls
        let partialScans = calls.compactMap { if case let .partial(s, w, h) = $0 { #expect(w == 150 && h == 100); return s }; return nil }
        #expect(!partialScans.isEmpty)
        #expect(zip(partialScans, partialScans.dropFirst()).allSatisfy { $0 < $1 })
        #expect(calls.last == .loaded(.network, width: 150, height: 100))
        let lastPartial = calls.lastIndex { if case .partial = $0 { return true }; return false }
        #expect(lastPartial.map { $0 < calls.count - 1 } == true)
    }

    @Test func progressiveRenderingCanBeTurnedOff() {
        let loader = makeLoader()
        let (node, delegate) = makeNode(loader, "/photo/26.jpg?w=600&h=400&progressive=1&chunk=1500&interval=10&t=\(UUID().uuidString)")
        node.shouldRenderProgressImages = false
        enter(node, .inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        #expect(delegate.calls == [.started, .loaded(.network, width: 150, height: 100)])
    }

    @Test func leavingThePreloadRangeCancelsASlowDownload() {
        // A long idle timeout: only the cancel can end the stalled connection within the wait.
        let loader = makeLoader { $0.timeout = 120 }
        let tag = UUID().uuidString
        let (node, delegate) = makeNode(loader, "/photo/27.jpg?w=600&h=400&stall=0&t=\(tag)")
        enter(node, .inHierarchy)
        #expect(waitUntil { server.openConnections(containing: tag) == 1 })  // the request is in flight
        enter(node, [])
        #expect(node.loadState == .idle)
        #expect(waitUntil { loader.downloader.activeDownloads == 0 })
        // The client closed its socket: the server's stalled response ended.
        #expect(waitUntil { server.openConnections(containing: tag) == 0 })
        // `.started` may or may not have been delivered before the cancel; nothing else is.
        #expect(delegate.calls.allSatisfy { $0 == .started })
        #expect(node.image == nil)
    }

    @Test func aMissingImageShowsTheDefaultImage() throws {
        let loader = makeLoader()
        let fallback = try Bitmap(width: 4, height: 4)
        let (node, delegate) = makeNode(loader, "/nothing-here.jpg")
        node.defaultImage = fallback
        #expect(node.image === fallback)
        enter(node, .inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        #expect(delegate.calls == [.started, .failed(.httpStatus(404))])
        #expect(node.loadState == .failed(.httpStatus(404)))
        #expect(node.image === fallback)
    }

    @Test func aTruncatedBodyFailsToDecodeAndIsNotCached() {
        // The server claims the full length but the status line says it is all there: a
        // garbage tail is what a broken proxy would deliver. Here: bytes that are not an image.
        let loader = makeLoader()
        let path = "/photo/28.jpg?w=600&h=400&garbage=1&t=\(UUID().uuidString)"
        let (node, delegate) = makeNode(loader, path)
        enter(node, .inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        guard case .failed(.decoding)? = delegate.calls.last else { Issue.record("\(delegate.calls)"); return }
        #expect(loader.cache.memoryData(for: server.url(path)) == nil)
    }

    @Test func changingTheURLCancelsTheOldLoad() {
        let loader = makeLoader { $0.timeout = 120 }
        let tag = UUID().uuidString
        let (node, delegate) = makeNode(loader, "/photo/29.jpg?w=600&h=400&stall=0&t=\(tag)")
        enter(node, .inHierarchy)
        #expect(waitUntil { server.openConnections(containing: tag) == 1 })
        node.url = server.url("/photo/30.jpg?w=600&h=400&t=\(tag)-b")
        #expect(waitUntil { delegate.isFinished })
        #expect(waitUntil { server.openConnections(containing: tag) == 0 })
        #expect(delegate.calls.last == .loaded(.network, width: 150, height: 100))
    }
}
