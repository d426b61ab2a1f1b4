import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
import SilkSystem
import SilkTestSupport
@testable import SilkNodes

/// A Lottie file in `ImageNode`: frames rendered by rlottie at the node's pixel size on the
/// player's display queue, picked by the render thread's frame times at the file's rate (the
/// clock is driven by hand, as in AnimatedImageNodeTests), looping, paused and released when the
/// node leaves the visible state; a bad file leaves the placeholder and names the file.
@Suite(.serialized) struct LottieNodeTests {
    init() { NodeScheduler.shared.synchronousDisplay = false }

    static func spinner() throws -> String {
        try #require(Assets.directory).appendingPathComponent("lottie/spinner.json").path
    }

    func show(_ path: String, size: Double = 60) -> (ImageNode, Harness) {
        let root = DisplayNode()
        let node = ImageNode()
        node.frame = Rect(x: 0, y: 0, width: size, height: size)
        node.contentMode = .aspectFit
        node.imagePath = path
        root.addSubnode(node)
        let h = Harness(root: root, size: Size(width: size, height: size))
        #expect(h.iterate(until: { node.animationStatistics != nil }), "\(String(describing: node.lastError))")
        return (node, h)
    }

    @Test func playsAtTheFileRateLoopsAndPausesWhenHidden() throws {
        let (node, _) = show(try Self.spinner())
        let first = try #require(node.layer?.contents)
        // Rendered at the node's pixels (60×60 at scale 1), not the file's 120×120.
        #expect(first.width == 60 && first.height == 60)
        let source = try #require(node.layer?.contentsSource)
        // 30 fps: a new frame every 1/30 s of frame time.
        _ = source.contents(at: 10)
        var t = 10.0
        var indices: [Int] = []
        for _ in 0..<70 {
            guard waitFor("next frame", { (node.animationStatistics?.bufferedFrames ?? 0) > 0 }) else { return }
            t += 1.0 / 30
            let sample = source.contents(at: t)
            #expect(sample.isAnimating)
            indices.append(node.animationStatistics!.currentFrame)
        }
        // Frames 1…59, then the loop starts again at 0.
        #expect(Array(indices.prefix(59)) == Array(1...59))
        #expect(indices[59] == 0 && indices[60] == 1)
        let stats = try #require(node.animationStatistics)
        #expect(stats.completedPlays >= 1 && !stats.isFinished && stats.lateFrames == 0)
        // Frames differ: the arc turns.
        let shownA = try #require(source.contents(at: t).bitmap)
        #expect(shownA.width == 60)
        var differing = 0
        for y in 0..<60 { for x in 0..<60 where shownA.argb32(x: x, y: y) != first.argb32(x: x, y: y) { differing += 1 } }
        #expect(differing > 50, "frame \(stats.currentFrame) differs from frame 0 in \(differing) pixels")
        // Memory is the ring and the frame on screen (plus the decoder's canvas), each 60×60.
        #expect(stats.retainedBytes <= 5 * 60 * 60 * 4)
        // Hidden: paused, ring and rlottie renderer released; the clock running on does no work.
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([.preload, .display, .measureLayout])
        let paused = try #require(node.animationStatistics)
        #expect(paused.isPaused && paused.bufferedFrames == 0 && paused.retainedBytes == 60 * 60 * 4)
        usleep(100_000)
        for k in 0..<10 { _ = source.contents(at: t + Double(k)) }
        #expect(node.animationStatistics?.decodedFrames == paused.decodedFrames)
        // Visible again: rendering resumes after the frame that was showing.
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([.preload, .display, .visible, .measureLayout])
        _ = source.contents(at: 100)
        #expect(waitFor("resumed", { (node.animationStatistics?.bufferedFrames ?? 0) > 0 }))
        _ = source.contents(at: 100 + 1.0 / 30)
        #expect(node.animationStatistics?.currentFrame == paused.currentFrame + 1)
    }

    /// On a real render thread (headless presenter, its own frame clock): the animation reaches
    /// the screen frame after frame without a commit after the first (the dot's colour changes
    /// every frame of the file).
    @Test func aRenderThreadShowsTheAnimationMoving() throws {
        let (node, h) = show(try Self.spinner())
        #expect(h.iterate(until: { node.layer?.contentsSource != nil }))
        let presenter = try HeadlessPresenter(pixelWidth: 60, pixelHeight: 60)
        let thread = try RenderThread(presenter: presenter)
        let seen = Locked<[UInt32]>([])
        thread.onFrame { _ in
            guard let pixel = try? presenter.currentFrame().argb32(x: 30, y: 30) else { return }
            seen.withLock { if $0.last != pixel { $0.append(pixel) } }
        }
        thread.start()
        defer { thread.stop() }
        thread.commit(h.host.snapshot())
        #expect(waitFor("ten different frames on screen", { seen.current.count >= 10 }), "\(seen.current.count) frames")
        #expect(node.animationStatistics.map { $0.shownFrames >= 9 } == true)
    }

    @Test func aBadLottieFileLeavesThePlaceholderAndNamesTheFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("silk-bad-\(UUID().uuidString).json").path
        try Data(#"{"v":"5","fr":0,"ip":0,"op":10,"w":10,"h":10,"layers":[]}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let root = DisplayNode()
        let node = ImageNode()
        node.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        node.imagePath = path
        root.addSubnode(node)
        let h = Harness(root: root, size: Size(width: 20, height: 20))
        #expect(h.iterate(until: { node.lastError != nil }))
        #expect(node.lastError?.description.contains(path) == true)
        #expect(node.lastError?.description.contains("frame rate") == true)
        #expect(node.animationStatistics == nil)
    }
}
