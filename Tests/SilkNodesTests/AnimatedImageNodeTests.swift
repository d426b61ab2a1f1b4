import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
import SilkSystem
import SilkTestSupport
@testable import SilkNodes

/// Animated GIF/WebP in `ImageNode`: the render thread's frame times pick frames with each
/// frame's own delay, loops end as the file says, nothing is decoded while the node is hidden,
/// and memory is the ring's whatever the frame count. The frame clock is driven by hand here
/// (as the render thread calls `contents(at:)`), so timing is exact and the test is not timed.
@Suite(.serialized) struct AnimatedImageNodeTests {
    init() { NodeScheduler.shared.synchronousDisplay = false }

    /// Palette index n fills frame n (index 1 red, 2 blue, 3 green, 4 yellow, 5 white).
    static let colors: [UInt32] = [0xFF00_0000, 0xFFFF_0000, 0xFF00_00FF, 0xFF00_C800, 0xFFFF_FF00, 0xFFFF_FFFF]

    func gif(frames: Int, delays: [Int], loop: Int?, size: Int = 8) -> Data {
        GIFWriter(width: size, height: size, loopCount: loop).data((0..<frames).map {
            .init(width: size, height: size, index: UInt8($0 % 5 + 1), delay: delays[$0 % delays.count])
        })
    }

    /// A laid-out, displayed image node showing `data`, and its harness.
    func show(_ data: Data, size: Double = 8) throws -> (ImageNode, Harness) {
        let root = DisplayNode()
        let node = ImageNode()
        node.frame = Rect(x: 0, y: 0, width: size, height: size)
        node.imageData = data
        root.addSubnode(node)
        let h = Harness(root: root, size: Size(width: size, height: size))
        #expect(h.iterate(until: { node.animationStatistics != nil }), "\(node.interfaceState) \(String(describing: node.layer?.contents)) \(String(describing: node.lastError)) \(String(describing: node.lastDisplayError)) \(node.frame)")
        return (node, h)
    }

    /// The colour shown at time t: the source's frame, else the layer's own contents (frame 0).
    func shown(_ node: ImageNode, at t: Double) -> (UInt32?, Bool) {
        let sample = node.layer!.contentsSource!.contents(at: t)
        return ((sample.bitmap ?? node.layer?.contents)?.argb32(x: 4, y: 4), sample.isAnimating)
    }

    @Test func framesFollowTheirOwnDelaysOnTheFrameClockAndLoopAsTheFileSays() throws {
        // Delays 20, 40, 60, 0 (→ 100 ms) and 30 ms; NETSCAPE loop 1: plays twice.
        let (node, _) = try show(gif(frames: 5, delays: [2, 4, 6, 0, 3], loop: 1))
        let c = Self.colors
        // Frame time 10.0 anchors the first frame (the node's own contents).
        #expect(shown(node, at: 10.0).0 == c[1])
        var t = 10.0
        var expected: [(Double, UInt32)] = []
        for _ in 0..<2 {
            for (k, delay) in [0.02, 0.04, 0.06, 0.1, 0.03].enumerated() { expected.append((delay, c[k + 1])) }
        }
        for (n, (delay, color)) in expected.enumerated() where n > 0 {
            t += expected[n - 1].0
            guard waitFor("frame \(n) decoded", { (node.animationStatistics?.bufferedFrames ?? 0) > 0 }) else { return }
            #expect(shown(node, at: t - 0.001).0 == expected[n - 1].1, "frame \(n - 1) until its delay ends")
            #expect(shown(node, at: t).0 == color, "frame \(n) at \(t)")
            _ = delay
        }
        // After the second play the last frame stays and the source stops animating.
        t += expected.last!.0
        #expect(waitFor("end of stream", { node.animationStatistics?.bufferedFrames == 0 }))
        usleep(20_000)
        let end = shown(node, at: t + 1)
        #expect(end.0 == c[5] && end.1 == false)
        let stats = try #require(node.animationStatistics)
        #expect(stats.isFinished && stats.completedPlays == 2 && stats.shownFrames == 9)
    }

    @Test func hiddenNodesDecodeNothingAndReleaseTheirRing() throws {
        let (node, _) = try show(gif(frames: 20, delays: [5], loop: 0))
        _ = shown(node, at: 1)
        #expect(waitFor("ring filled", { node.animationStatistics?.bufferedFrames == 3 }))
        #expect(shown(node, at: 1.05).0 == Self.colors[2])
        let before = try #require(node.animationStatistics)
        // Off screen (still in the display range): paused, ring and decoder released.
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([.preload, .display, .measureLayout])
        let paused = try #require(node.animationStatistics)
        #expect(paused.isPaused && paused.bufferedFrames == 0)
        #expect(paused.retainedBytes == 8 * 8 * 4)  // only the frame on screen
        usleep(150_000)
        for k in 0..<20 { _ = shown(node, at: 2 + Double(k) * 0.05) }  // the clock runs on: no work
        #expect(node.animationStatistics?.decodedFrames == paused.decodedFrames)
        #expect(paused.decodedFrames >= before.decodedFrames)
        // Back on screen: decoding resumes after the frame that was showing (frame 1).
        NodePass.adoptCurrentThreadAsPassThread()
        node.setInterfaceState([.preload, .display, .visible, .measureLayout])
        _ = shown(node, at: 5)
        #expect(waitFor("ring refilled", { (node.animationStatistics?.bufferedFrames ?? 0) > 0 }))
        #expect(shown(node, at: 5.05).0 == Self.colors[3])
        #expect(node.animationStatistics?.currentFrame == 2)
    }

    @Test func aLongAnimationCostsItsRingNotItsFrameCount() throws {
        func steadyBytes(_ frames: Int) throws -> Int {
            let (node, _) = try show(gif(frames: frames, delays: [4], loop: 0, size: 64), size: 64)
            _ = shown(node, at: 0)
            var t = 0.0
            for _ in 0..<10 {
                _ = waitFor("frame", { (node.animationStatistics?.bufferedFrames ?? 0) > 0 })
                t += 0.04
                _ = shown(node, at: t)
            }
            _ = waitFor("ring full", { node.animationStatistics?.bufferedFrames == 3 })
            let s = try #require(node.animationStatistics)
            #expect(s.bufferedFrames <= s.ringCapacity)
            NodePass.adoptCurrentThreadAsPassThread()
            node.setInterfaceState([])
            return s.retainedBytes
        }
        let short = try steadyBytes(5), long = try steadyBytes(500)
        #expect(long == short, "500 frames hold \(long) bytes, 5 frames \(short)")
        // Ring (3) + the frame on screen, 64×64×4 each, plus the decoder's one canvas.
        #expect(long <= 5 * 64 * 64 * 4)
    }

    @Test func aStillGIFDoesNotKeepTheClockRunning() throws {
        let (node, _) = try show(gif(frames: 1, delays: [0], loop: 0))
        _ = shown(node, at: 0)
        #expect(waitFor("end", { shown(node, at: 1).1 == false }))
        #expect(node.animationStatistics?.decodedFrames == 0)
    }

    /// End to end on a real render thread (headless presenter, virtual 60 Hz clock): every frame
    /// of a play-once GIF reaches the screen in order, without a commit after the first, and the
    /// render thread goes idle once the last frame has shown.
    @Test func aRenderThreadPlaysEveryFrameInOrderAndThenIdles() throws {
        let (node, h) = try show(gif(frames: 4, delays: [5], loop: nil))
        #expect(h.iterate(until: { node.layer?.contentsSource != nil }))
        let presenter = try HeadlessPresenter(pixelWidth: 8, pixelHeight: 8)
        let thread = try RenderThread(presenter: presenter)
        let seen = Locked<[UInt32]>([])
        thread.onFrame { _ in
            guard let pixel = try? presenter.currentFrame().argb32(x: 4, y: 4) else { return }
            seen.withLock { if $0.last != pixel { $0.append(pixel) } }
        }
        thread.start()
        defer { thread.stop() }
        thread.commit(h.host.snapshot())
        #expect(thread.waitUntilPresented(timeout: 20, includingAnimations: true))
        #expect(seen.current == Array(Self.colors[1...4]))
        #expect(node.animationStatistics?.isFinished == true)
        // Clearing the image drops the player and, with it, the file's bytes.
        node.imageData = nil
        #expect(h.iterate(until: { node.layer?.contentsSource == nil }))
    }
}
