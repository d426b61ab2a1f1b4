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
/// The test thread is adopted as a pass thread, so `setInterfaceState` calls the node's
/// preload hooks at once (as the main loop's pass would).
@Suite struct NetworkImageNodeTests {
    let server = sharedServer

    func makeNode(_ loader: NetworkImageLoader, _ path: String, size: Size = Size(width: 150, height: 100)) -> (NetworkImageNode, RecordingDelegate) {
        NodePass.adoptCurrentThreadAsPassThread()
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
        node.setInterfaceState(.inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        #expect(delegate.calls.first == .started)
        // Decoded at the node's pixel size: 600 × 400 at 1/4 is exactly 150 × 100.
        #expect(delegate.calls.last == .loaded(.network, width: 150, height: 100))
        #expect(node.loadState == .loaded(.network))
        #expect(node.image?.width == 150)

        let (second, secondDelegate) = makeNode(loader, "/photo/21.jpg?w=600&h=400&t=\(tag)")
        second.setInterfaceState(.inHierarchy)
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
        node.setInterfaceState(.inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        first.flush()
        let (again, againDelegate) = makeNode(makeLoader(directory: dir.path), path)
        again.setInterfaceState(.inHierarchy)
        #expect(waitUntil { againDelegate.isFinished })
        #expect(againDelegate.calls == [.loaded(.disk, width: 150, height: 100)])
    }

    @Test func progressiveRefinementsArriveBeforeTheFinalImage() throws {
        let loader = makeLoader()
        // Paced slowly (~2 s for the ~25 KB photo) so a display queue busy with other suites
        // on a loaded machine still decodes a prefix before the last byte arrives.
        let (node, delegate) = makeNode(loader, "/photo/24.jpg?w=600&h=400&progressive=1&chunk=800&interval=60&t=\(UUID().uuidString)")
        node.setInterfaceState(.inHierarchy)
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
        node.setInterfaceState(.inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        #expect(delegate.calls == [.started, .loaded(.network, width: 150, height: 100)])
    }

    @Test func leavingThePreloadRangeCancelsASlowDownload() {
        // A long idle timeout: only the cancel can end the stalled connection within the wait.
        let loader = makeLoader { $0.timeout = 120 }
        let tag = UUID().uuidString
        let (node, delegate) = makeNode(loader, "/photo/27.jpg?w=600&h=400&stall=0&t=\(tag)")
        node.setInterfaceState(.inHierarchy)
        #expect(waitUntil { server.openConnections(containing: tag) == 1 })  // the request is in flight
        // Lifecycle hooks run on the pass thread; other suites' passes (on their own threads)
        // took that role while this one waited on a loaded machine: take it back (seen in CI).
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([])
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
        node.setInterfaceState(.inHierarchy)
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
        node.setInterfaceState(.inHierarchy)
        #expect(waitUntil { delegate.isFinished })
        guard case .failed(.decoding)? = delegate.calls.last else { Issue.record("\(delegate.calls)"); return }
        #expect(loader.cache.memoryData(for: server.url(path)) == nil)
    }

    @Test func changingTheURLCancelsTheOldLoad() {
        let loader = makeLoader { $0.timeout = 120 }
        let tag = UUID().uuidString
        let (node, delegate) = makeNode(loader, "/photo/29.jpg?w=600&h=400&stall=0&t=\(tag)")
        node.setInterfaceState(.inHierarchy)
        #expect(waitUntil { server.openConnections(containing: tag) == 1 })
        node.url = server.url("/photo/30.jpg?w=600&h=400&t=\(tag)-b")
        #expect(waitUntil { delegate.isFinished })
        #expect(waitUntil { server.openConnections(containing: tag) == 0 })
        #expect(delegate.calls.last == .loaded(.network, width: 150, height: 100))
    }
}
