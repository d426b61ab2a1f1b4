import Foundation
import Testing
import SilkDemoServer
import SilkGeometry
import SilkRaster
import SilkRender
@testable import SilkNodes
@testable import SilkNetworkImage

/// A GIF from the network plays like a local one: the node gets the bytes, its display job shows
/// frame 0 and installs the player, the frame clock advances it, and leaving the visible range
/// pauses it.
@Suite(.serialized) struct AnimatedNetworkImageTests {
    let server = sharedServer

    @Test func aDownloadedGIFAnimates() throws {
        NodeScheduler.shared.synchronousDisplay = false
        let loader = makeLoader()
        let root = DisplayNode()
        let node = NetworkImageNode(loader: loader)
        node.frame = Rect(x: 0, y: 0, width: 80, height: 45)
        let delegate = RecordingDelegate()
        node.delegate = delegate
        node.url = server.url("/animated/3.gif?w=80&h=45&frames=8&delay=5&t=\(UUID().uuidString)")
        root.addSubnode(node)
        let host = Layer()
        host.frame = Rect(x: 0, y: 0, width: 80, height: 45)
        let pass = NodePass(rootNode: root, hostLayer: host, size: Size(width: 80, height: 45), scale: 1)
        let deadline = Date(timeIntervalSinceNow: 20)
        while node.animationStatistics == nil, Date() < deadline {
            pass.run(); pass.committer.commit(); usleep(2000)
        }
        #expect(delegate.calls.last == .loaded(.network, width: 80, height: 45))
        #expect(node.imageData != nil && node.image == nil)
        let source = try #require(node.layer?.contentsSource)
        let first = node.layer?.contents?.argb32(x: 2, y: 20)
        _ = source.contents(at: 100)
        #expect(waitUntil { (node.animationStatistics?.bufferedFrames ?? 0) > 0 })
        // 50 ms later the bar has moved: another frame, another pixel at the left edge.
        let next = try #require(source.contents(at: 100.05).bitmap)
        #expect(next.argb32(x: 2, y: 20) != first)
        #expect(node.animationStatistics?.currentFrame == 1)
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([.preload, .display, .measureLayout])
        #expect(node.animationStatistics?.isPaused == true)
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([])
    }
}
