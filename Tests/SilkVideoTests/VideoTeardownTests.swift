import Foundation
import Testing
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender
import SilkSystem
@testable import SilkVideo

/// Pipelines released while GStreamer's threads are busy with them (issue 18: a playing video
/// could crash the process when it was released, or when the process was told to stop). The
/// players are released at random moments — while the pipeline is built, prerolling, playing,
/// delivering a frame, looping — by `close()`, by dropping the last reference without it, and by
/// a node leaving the preload range, while a reader stands in for the render thread.
///
/// Nested in VideoNodeTests so it runs serialized with it: the pipeline count is the process's,
/// and a pipeline another suite holds meanwhile would count as left over.
extension VideoNodeTests {
@Suite struct VideoTeardownTests {
    /// Iterations of the release stress (SILK_VIDEO_TEARDOWN_ITERATIONS; the default keeps the
    /// suite short, a stress run sets hundreds).
    static let iterations = ProcessInfo.processInfo.environment["SILK_VIDEO_TEARDOWN_ITERATIONS"].flatMap(Int.init) ?? 24

    /// Waits up to `seconds` for `condition`.
    func eventually(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(5000)
        }
        return true
    }

    /// The pipeline count once the earlier tests' pipelines are gone. GStreamer drops its last
    /// references to a closed pipeline on its own threads, so a pipeline of the test before can
    /// still be counted when this one starts and end in the middle of it: CI saw "pipelines
    /// left: -1". Every pipeline of the process is made by this serialized suite, so the count
    /// settles at 0 unless one leaked, and then `before` includes the leak instead of hiding
    /// this test's.
    func settledPipelineCount() -> Int {
        _ = eventually { VideoPlayer.livePipelines == 0 }
        return VideoPlayer.livePipelines
    }

    /// The render thread's part: reads the players' frames as fast as it can until stopped.
    final class Reader: @unchecked Sendable {
        private let lock = Lock()
        private var sources: [VideoPlayer] = []
        private var stopped = false
        private(set) var reads = 0
        private let done = DispatchSemaphore(value: 0)
        init() {
            Thread.detachNewThread { [self] in
                var t = 0.0
                while true {
                    let (list, stop) = lock.withLock { (sources, stopped) }
                    if stop { break }
                    for s in list { _ = s.contents(at: t) }
                    lock.withLock { reads += list.count }
                    t += 1.0 / 60
                    usleep(1000)
                }
                done.signal()
            }
        }
        func set(_ list: [VideoPlayer]) { lock.withLock { sources = list } }
        func stop() { lock.withLock { stopped = true }; done.wait() }
    }

    @Test func playersReleasedAtRandomMomentsEndTheirPipelines() throws {
        let clip = try #require(Clip.make(frames: 12, name: "short.webm"))
        let uri = "file://" + clip
        let reader = Reader()
        defer { reader.stop() }
        var rng = SplitMix64(seed: 18)
        let before = settledPipelineCount()
        var frames = 0
        for i in 0..<Self.iterations {
            // Three at once, so streaming threads of one run while another is freed.
            var players: [VideoPlayer] = (0..<3).map { k in
                let p = VideoPlayer(uri: uri, loadTimeout: 10) { _ in }
                p.setTarget(width: 56 + 8 * k, height: 32, contentMode: k == 1 ? .aspectFill : .aspectFit)
                p.start(playing: true, visible: true, loops: true, volume: 0, muted: true)
                return p
            }
            reader.set(players)
            // 0-250 ms: building, prerolling, the first frames, a loop's seek back to the start.
            // The last round waits for decoded frames instead, so at least one release happens
            // while frames stream even where decoding is slow (qemu-user on aarch64 rarely gets
            // a VP8 frame out within 250 ms).
            if i == Self.iterations - 1 {
                _ = eventually(seconds: 60) { players.contains { $0.statistics.decodedFrames > 0 } }
            } else {
                usleep(UInt32(rng.next() % 250_000))
            }
            frames += players.reduce(0) { $0 + $1.statistics.decodedFrames }
            reader.set([])
            switch i % 3 {
            case 0: players.forEach { $0.close() }
            case 1: players[0].close(); players[2].setVisible(false)
            default: break   // dropped while playing: deinit frees the pipeline
            }
            players.removeAll()
        }
        #expect(frames > 0, "the players decoded frames before they were released")
        // Every pipeline's C side is gone once GStreamer has dropped its last reference to it
        // (the bus handler, appsink's callbacks and the caps probe each hold one).
        #expect(eventually { VideoPlayer.livePipelines == before }, "pipelines left: \(VideoPlayer.livePipelines - before)")
    }

    @Test func aNodeLeavingThePreloadRangeWhilePlayingFreesItsPipeline() throws {
        let clip = try #require(Clip.make(frames: 12, name: "short.webm"))
        var rng = SplitMix64(seed: 1818)
        let before = settledPipelineCount()
        for _ in 0..<Self.iterations {
            // The node is shown by a pass of this thread, so its range hooks run here, inline.
            // A node no pass shows has its hooks run by "the" pass thread, which a parallel
            // suite's pass takes over: the hook that closes the pipeline then waited for a pass
            // that never came, and CI saw "pipelines left: 1".
            let node = VideoNode()
            node.shouldAutorepeat = true
            node.path = clip
            let size = Size(width: 56, height: 32)
            let host = Layer()
            host.frame = Rect(size: size)
            let pass = NodePass(rootNode: node, hostLayer: host, size: size, scale: 1)
            pass.run(); pass.committer.commit()
            #expect(node.currentPlayer != nil, "a node in the preload range has a player")
            usleep(UInt32(rng.next() % 200_000))
            _ = node.layer?.contentsSource?.contents(at: 0)
            node.setInterfaceState([])
            #expect(node.currentPlayer == nil, "a node out of the preload range has none")
            pass.detach()
        }
        #expect(eventually { VideoPlayer.livePipelines == before }, "pipelines left: \(VideoPlayer.livePipelines - before)")
    }
}
}
