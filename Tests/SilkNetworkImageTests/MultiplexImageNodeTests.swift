import Foundation
import Testing
import SilkDemoServer
import SilkGeometry
import SilkRaster
import SilkRender
import SilkSystem
@testable import SilkNodes
@testable import SilkNetworkImage

/// The multiplex node: the best cached version at once, better ones swapped in as the demo
/// server answers (each resolution delayed), never a worse one after a better one and never the
/// placeholder in between; leaving the preload range cancels.
@Suite(.serialized) struct MultiplexImageNodeTests {
    let server = sharedServer

    final class Recorder: MultiplexImageNodeDelegate, @unchecked Sendable {
        let log = Locked<[String]>([])
        func multiplexImageNode(_ node: MultiplexImageNode, didStartDownloadOf identifier: String) {
            log.withLock { $0.append("start \(Self.short(identifier))") }
        }
        func multiplexImageNode(_ node: MultiplexImageNode, didFinishDownloadOf identifier: String, error: NetworkImageError?) {
            log.withLock { $0.append("finish \(Self.short(identifier))\(error == nil ? "" : " failed")") }
        }
        func multiplexImageNode(_ node: MultiplexImageNode, didUpdateImage image: Bitmap, identifier: String, previous: String?) {
            log.withLock { $0.append("show \(Self.short(identifier))") }
        }
        /// "L", "M" or "S" from the test's URLs.
        static func short(_ id: String) -> String { id.contains("w=1200") ? "L" : id.contains("w=600") ? "M" : "S" }
    }

    /// Large (800 ms), medium (300 ms) and small versions of three different photos.
    func identifiers(_ tag: String) -> [String] {
        [server.url("/photo/7.jpg?w=1200&h=800&delay=800&t=\(tag)").absoluteString,
         server.url("/photo/8.jpg?w=600&h=400&delay=300&t=\(tag)").absoluteString,
         server.url("/photo/9.jpg?w=150&h=100&t=\(tag)").absoluteString]
    }

    /// Runs a pass over `node` until `done`, checking at every iteration that once contents
    /// appeared they never go away (no flicker to the placeholder).
    func run(_ node: MultiplexImageNode, pass: NodePass, until done: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 20)
        var sawContents = false
        while !done() {
            pass.run(); pass.committer.commit()
            let has = node.layer?.contents != nil
            if sawContents && !has { Issue.record("the node went back to no contents"); return false }
            sawContents = sawContents || has
            if Date() > deadline { return false }
            usleep(2000)
        }
        return true
    }

    func setUp(_ ids: [String], intermediate: Bool, loader: NetworkImageLoader) -> (MultiplexImageNode, Recorder, NodePass) {
        NodeScheduler.shared.synchronousDisplay = false
        let root = DisplayNode()
        let node = MultiplexImageNode(loader: loader)
        node.frame = Rect(x: 0, y: 0, width: 150, height: 100)
        let recorder = Recorder()
        node.delegate = recorder
        node.downloadsIntermediateImages = intermediate
        node.imageIdentifiers = ids
        root.addSubnode(node)
        let host = Layer()
        host.frame = Rect(x: 0, y: 0, width: 150, height: 100)
        return (node, recorder, NodePass(rootNode: root, hostLayer: host, size: Size(width: 150, height: 100), scale: 1))
    }

    /// The small version in the loader's memory cache, as an earlier screen would have left it.
    func cacheSmall(_ loader: NetworkImageLoader, _ ids: [String]) {
        let url = URL(string: ids[2])!
        guard case let .finished(data, _)? = loadAndWait(loader, url).outcome else { Issue.record("no small photo"); return }
        loader.store(data, for: url)
    }

    @Test func showsTheCachedVersionThenEachBetterOneAsItArrives() {
        let loader = makeLoader()
        let ids = identifiers(UUID().uuidString)
        cacheSmall(loader, ids)
        let (node, recorder, pass) = setUp(ids, intermediate: true, loader: loader)
        #expect(run(node, pass: pass, until: { node.loadedImageIdentifier == ids[0] && node.layer?.contents != nil && pass.isDisplayComplete
            && recorder.log.current.contains("finish L") }))
        #expect(recorder.log.current == ["show S", "start M", "show M", "finish M", "start L", "show L", "finish L"])
        node.setInterfaceState([])
    }

    @Test func withoutIntermediatesOnlyTheBestIsDownloaded() {
        let loader = makeLoader()
        let tag = UUID().uuidString
        let ids = identifiers(tag)
        cacheSmall(loader, ids)
        let (node, recorder, pass) = setUp(ids, intermediate: false, loader: loader)
        // (The swap is announced before the download's end: wait for both.)
        #expect(run(node, pass: pass, until: { node.loadedImageIdentifier == ids[0] && recorder.log.current.contains("finish L") }))
        #expect(recorder.log.current == ["show S", "start L", "show L", "finish L"])
        #expect(server.requestLog.filter { $0.contains(tag) && $0.contains("w=600") }.isEmpty)
        node.setInterfaceState([])
    }

    @Test func leavingThePreloadRangeCancelsAndComingBackShowsTheCacheAtOnce() {
        let loader = makeLoader()
        let ids = identifiers(UUID().uuidString)
        cacheSmall(loader, ids)
        let (node, recorder, pass) = setUp(ids, intermediate: false, loader: loader)
        #expect(run(node, pass: pass, until: { recorder.log.current.contains("start L") }))
        #expect(node.loadedImageIdentifier == ids[2])
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([])
        #expect(node.downloadingImageIdentifier == nil && node.loadedImageIdentifier == nil && node.image == nil)
        usleep(1_200_000)  // past the large version's 800 ms delay: its answer must be ignored
        #expect(!recorder.log.current.contains("show L") && !recorder.log.current.contains("finish L"))
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState(.inHierarchy)
        #expect(waitUntil { node.loadedImageIdentifier == ids[2] })
        node.setInterfaceState([])
    }
}
