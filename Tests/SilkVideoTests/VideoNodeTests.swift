import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster
import SilkRender
import SilkSystem
@testable import SilkVideo

/// Clips made at test time by GStreamer itself: `videotestsrc pattern=smpte horizontal-speed=2`
/// (seven bars 16 px wide, moving 2 px left per frame) encoded as VP8 in WebM, so frame n has a
/// known colour at known pixels.
enum Clip {
    static let width = 112, height = 64, fps = 30
    /// The seven bars left to right (RGB).
    static let bars: [(Int, Int, Int)] = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255)]
    static let directory: String = {
        let d = NSTemporaryDirectory() + "silk-video-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    /// Why clips cannot be made here (nil: they can).
    static let unavailableReason: String? = {
        let tool = "/usr/bin/gst-launch-1.0"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            return "gst-launch-1.0 is missing (install gstreamer1.0-tools; make test does)"
        }
        return make(frames: 1, name: "probe.webm") == nil ? "gst-launch-1.0 cannot encode VP8/WebM (install gstreamer1.0-plugins-good)" : nil
    }()

    /// Encodes `frames` frames; the file's path, or nil when GStreamer failed.
    static func make(frames: Int, name: String) -> String? {
        let path = directory + "/" + name
        if FileManager.default.fileExists(atPath: path) { return path }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        p.arguments = ["-q", "videotestsrc", "num-buffers=\(frames)", "pattern=smpte", "horizontal-speed=2", "!",
                       "video/x-raw,width=\(width),height=\(height),framerate=\(fps)/1", "!",
                       "vp8enc", "deadline=1", "target-bitrate=2000000", "!", "webmmux", "!", "filesink", "location=\(path)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 && FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The bar colour at pixel x of frame n.
    static func expected(x: Int, frame n: Int) -> (Int, Int, Int) {
        bars[((x + 2 * n) % width) / 16]
    }
}

/// Records a video node's delegate events (the control queue calls it).
final class Recorder: VideoNodeDelegate, @unchecked Sendable {
    private let lock = Lock()
    private var _errors: [VideoError] = []
    private var _ends = 0
    private var _loaded: (Int, Int)?
    var errors: [VideoError] { lock.withLock { _errors } }
    var ends: Int { lock.withLock { _ends } }
    var loaded: (Int, Int)? { lock.withLock { _loaded } }
    // Both ask the node for times on the control queue they are called on: that must not deadlock.
    func videoNode(_ node: VideoNode, didLoadVideoOfWidth width: Int, height: Int) {
        _ = node.duration
        lock.withLock { _loaded = (width, height) }
    }
    func videoNodeDidPlayToEnd(_ node: VideoNode) {
        _ = node.currentTime
        lock.withLock { _ends += 1 }
    }
    func videoNode(_ node: VideoNode, didFailWith error: VideoError) { lock.withLock { _errors.append(error) } }
}

// The reason as Comment(rawValue:), not an interpolated literal: Swift 6.0's type checker
// (Debian trixie) crashes on string interpolation inside the @Suite macro's arguments.
@Suite(.serialized, .enabled(if: Clip.unavailableReason == nil, Comment(rawValue: Clip.unavailableReason ?? "")))
struct VideoNodeTests {
    /// A video node laid out at the clip's size in a node pass (main-thread work on this thread),
    /// in the preload, display and visible ranges.
    final class Stage {
        let host = Layer()
        let pass: NodePass
        let node = VideoNode()
        let recorder = Recorder()
        init(path: String?, autoplay: Bool = false, repeats: Bool = false, poster: Bitmap? = nil,
             nodeSize: (width: Int, height: Int) = (Clip.width, Clip.height), contentMode: ContentMode = .aspectFit) {
            NodePass.adoptCurrentThreadAsPassThread()
            let root = DisplayNode()
            node.frame = Rect(x: 0, y: 0, width: Double(nodeSize.width), height: Double(nodeSize.height))
            node.contentMode = contentMode
            node.shouldAutoplay = autoplay
            node.shouldAutorepeat = repeats
            node.delegate = recorder
            node.image = poster
            root.addSubnode(node)
            let size = Size(width: Double(Clip.width), height: Double(Clip.height))
            host.frame = Rect(size: size)
            pass = NodePass(rootNode: root, hostLayer: host, size: size, scale: 1)
            _ = pass.run(); pass.committer.commit()
            node.path = path
        }
        func iterate() { _ = pass.run(); pass.committer.commit() }
        /// The render thread's view at frame time t: the source's frame, else the layer's contents.
        func shown(at t: Double = 0) -> Bitmap? {
            let sample = node.layer?.contentsSource?.contents(at: t)
            return sample?.bitmap ?? node.layer?.contents
        }
        func frame(at t: Double = 0) -> Bitmap? { node.layer?.contentsSource?.contents(at: t).bitmap }
        func setVisible(_ visible: Bool) {
            NodePass.adoptCurrentThreadAsPassThread()
            node.setInterfaceState(visible ? [.preload, .display, .visible, .measureLayout] : [.preload, .display, .measureLayout])
        }
    }

    func wait(_ what: String, seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { Issue.record("timed out waiting for \(what)"); return false }
            usleep(2000)
        }
        return true
    }

    /// Whether `bitmap` shows frame n's bars (colour tolerance for VP8's lossy 4:2:0 coding),
    /// the clip scaled down by `scale` and placed `dx` pixels from the left.
    func matches(_ bitmap: Bitmap, frame n: Int, scale: Int = 1, dx: Int = 0) -> Bool {
        for bar in 0..<7 {
            let x = bar * 16 + 8, y = Clip.height / 4
            // Skip samples near a bar edge in the moved pattern.
            if (x + 2 * n) % 16 < 4 || (x + 2 * n) % 16 > 12 { continue }
            let p = bitmap.argb32(x: dx + x / scale, y: y / scale)
            let (r, g, b) = (Int(p >> 16 & 0xff), Int(p >> 8 & 0xff), Int(p & 0xff))
            let e = Clip.expected(x: x, frame: n)
            if abs(r - e.0) > 48 || abs(g - e.1) > 48 || abs(b - e.2) > 48 { return false }
        }
        return true
    }

    @Test func theFirstFrameReplacesThePosterAndASeekShowsFrameN() throws {
        let clip = try #require(Clip.make(frames: 60, name: "two-seconds.webm"))
        let poster = try Bitmap(width: Clip.width, height: Clip.height)
        Canvas(bitmap: poster).fill(poster.bounds, with: .color(.black))
        let stage = Stage(path: clip, poster: poster)
        stage.setVisible(true)
        #expect(wait("the first frame", { stage.node.videoStatistics?.decodedFrames ?? 0 > 0 }))
        let first = try #require(stage.frame())
        #expect(first.width == Clip.width && first.height == Clip.height)
        #expect(matches(first, frame: 0), "frame 0 shows the bars in place")
        #expect(wait("the load event", { stage.recorder.loaded?.0 == Clip.width && stage.recorder.loaded?.1 == Clip.height }))
        #expect(stage.node.isPlaying == false && stage.node.videoStatistics?.isPlaying == false, "no autoplay")
        // Paused: seeking to 1 s shows frame 30 (bars moved 60 px left).
        stage.node.seek(to: 1.0)
        #expect(wait("frame 30", { stage.frame().map { matches($0, frame: 30) } ?? false }))
        let seeked = try #require(stage.frame())   // not nested in #expect: Swift 6.0 rejects that
        #expect(!matches(seeked, frame: 0))
        #expect(abs((stage.node.duration ?? 0) - 2.0) < 0.1, "duration \(String(describing: stage.node.duration))")
    }

    @Test func scaledSizeIsTheSizeTheNodeDrawsTheFrameAt() {
        let s = VideoPlayer.scaledSize
        #expect(s(1280, 720, 624, 351, .aspectFit)! == (624, 351))
        #expect(s(1280, 720, 400, 400, .aspectFit)! == (400, 225))
        #expect(s(1280, 720, 400, 400, .aspectFill)! == (711, 400))
        #expect(s(1280, 720, 300, 500, .scaleToFill)! == (300, 500))
        // Modes that do not scale, no size, absurd sizes: the stream's own size.
        #expect(s(1280, 720, 300, 500, .center) == nil && s(1280, 720, 300, 500, .topLeft) == nil)
        #expect(s(0, 720, 300, 500, .aspectFit) == nil && s(1280, 720, 0, 500, .aspectFit) == nil)
        #expect(s(1280, 720, -3, 500, .scaleToFill) == nil && s(1280, 720, 1 << 40, 500, .scaleToFill) == nil)
        // An aspect-fill of an extreme shape would be far larger than the node and the stream.
        #expect(s(1280, 720, 4000, 2, .aspectFill) == nil)
    }

    @Test func gstreamerScalesToTheNodeAndFramesComeFromAPool() throws {
        let clip = try #require(Clip.make(frames: 60, name: "two-seconds.webm"))
        let stage = Stage(path: clip, repeats: true, nodeSize: (Clip.width / 2, Clip.height / 2))
        stage.setVisible(true)
        #expect(wait("the first frame", { stage.node.videoStatistics?.decodedFrames ?? 0 > 0 }))
        let first = try #require(stage.frame())
        var s = try #require(stage.node.videoStatistics)
        #expect(s.sourceWidth == Clip.width && s.sourceHeight == Clip.height, "\(s)")
        #expect(s.frameWidth == Clip.width / 2 && s.frameHeight == Clip.height / 2, "GStreamer scaled it: \(s)")
        #expect(first.width == Clip.width / 2 && first.height == Clip.height / 2)
        #expect(matches(first, frame: 0, scale: 2), "frame 0, half size")
        #expect(wait("the load event", { stage.recorder.loaded?.0 == Clip.width && stage.recorder.loaded?.1 == Clip.height }),
                "the delegate hears the stream's size, not the node's")
        let pixels = (0..<first.height).flatMap { y in (0..<first.width).map { first.argb32(x: $0, y: y) } }
        stage.node.play()
        #expect(wait("30 frames", { stage.node.videoStatistics?.decodedFrames ?? 0 > 30 }))
        s = try #require(stage.node.videoStatistics)
        #expect(s.frameBitmapsAllocated <= VideoPlayer.poolSize, "frames reuse the pool: \(s)")
        // The frame this test still holds was never written again (a shown bitmap never changes).
        #expect(pixels == (0..<first.height).flatMap { y in (0..<first.width).map { first.argb32(x: $0, y: y) } })
        #expect(try #require(stage.frame()) !== first)
        // The node grows to the clip's size while playing (repeating: frames keep coming): the
        // caps filter is set again and GStreamer renegotiates mid-stream.
        NodePass.adoptCurrentThreadAsPassThread()
        stage.node.frame = Rect(x: 0, y: 0, width: Double(Clip.width), height: Double(Clip.height))
        stage.node.setNeedsDisplay()
        stage.iterate()
        #expect(wait("frames at the new size", {
            stage.iterate()
            let s = stage.node.videoStatistics
            return s?.frameWidth == Clip.width && stage.frame()?.width == Clip.width
        }), "\(String(describing: stage.node.videoStatistics))")
    }

    @Test func aNodeResizedByHandGetsFramesAtItsNewSizeWithoutARedraw() throws {
        let clip = try #require(Clip.make(frames: 60, name: "two-seconds.webm"))
        let stage = Stage(path: clip, autoplay: true, repeats: true, nodeSize: (Clip.width / 2, Clip.height / 2))
        stage.setVisible(true)
        #expect(wait("frames at half size", { stage.node.videoStatistics?.frameWidth == Clip.width / 2 }))
        // The frame set by hand (as a collection places a cell it does not lay out again), one
        // node pass and no commit: no layout and no display result reach the node, yet the
        // pass gives its layer the new size and the video follows.
        NodePass.adoptCurrentThreadAsPassThread()
        stage.node.frame = Rect(x: 0, y: 0, width: Double(Clip.width), height: Double(Clip.height))
        _ = stage.pass.run()
        #expect(wait("frames at the new size", {
            stage.node.videoStatistics?.frameWidth == Clip.width && stage.frame()?.width == Clip.width
        }), "\(String(describing: stage.node.videoStatistics))")
    }

    @Test func aNodeSizedByLayoutGetsFramesAtItsPixelSizeBeforeThePosterIsDrawn() throws {
        let clip = try #require(Clip.make(frames: 60, name: "two-seconds.webm"))
        NodePass.adoptCurrentThreadAsPassThread()
        // A 2× window whose layout alone sizes the node (inset from the root); nothing is
        // committed, so the layer's contentsScale is never set by a drawn poster.
        let inset = Locked(EdgeInsets(top: 16, left: 28, bottom: 16, right: 28))
        let node = VideoNode()
        node.shouldAutoplay = true
        node.shouldAutorepeat = true
        let root = DisplayNode()
        root.addSubnode(node)
        root.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: inset.withLock { $0 }, child: node) }
        let size = Size(width: Double(Clip.width), height: Double(Clip.height))
        let host = Layer()
        host.frame = Rect(size: size)
        let pass = NodePass(rootNode: root, hostLayer: host, size: size, scale: 2)
        _ = pass.run()
        node.path = clip
        node.setInterfaceState([.preload, .display, .visible, .measureLayout])
        defer { node.setInterfaceState([]) }
        // 56 × 32 points at 2×: the clip's own 112 × 64 pixels.
        #expect(wait("frames at the node's pixels", { node.videoStatistics?.frameWidth == Clip.width }),
                "\(String(describing: node.videoStatistics))")
        // The layout grows the node to 112 × 64 points: 224 × 128 pixels.
        inset.withLock { $0 = EdgeInsets(all: 0) }
        root.setNeedsLayout()
        _ = pass.run()
        #expect(node.frame.size == size)
        #expect(wait("frames at the new pixel size", { node.videoStatistics?.frameWidth == 2 * Clip.width }),
                "\(String(describing: node.videoStatistics))")
    }

    @Test func anAspectFitFrameIsScaledToItsFittedSizeAndLetterboxed() throws {
        let clip = try #require(Clip.make(frames: 60, name: "two-seconds.webm"))
        // A node twice as wide as the half-size clip: the frame is 56 × 32 in the middle.
        let stage = Stage(path: clip, nodeSize: (Clip.width, Clip.height / 2))
        stage.setVisible(true)
        #expect(wait("the first frame", { stage.node.videoStatistics?.decodedFrames ?? 0 > 0 }))
        let frame = try #require(stage.frame())
        let s = try #require(stage.node.videoStatistics)
        #expect(s.frameWidth == Clip.width / 2 && s.frameHeight == Clip.height / 2, "\(s)")
        #expect(frame.width == Clip.width && frame.height == Clip.height / 2)
        #expect(frame.argb32(x: 2, y: 16) == 0 && frame.argb32(x: Clip.width - 3, y: 16) == 0, "transparent bars")
        #expect(matches(frame, frame: 0, scale: 2, dx: Clip.width / 4))
    }

    @Test func playsToTheEndAndRepeats() throws {
        let clip = try #require(Clip.make(frames: 12, name: "short.webm"))
        let once = Stage(path: clip, autoplay: true)
        once.setVisible(true)
        #expect(wait("the end", { once.recorder.ends == 1 }))
        let s = try #require(once.node.videoStatistics)
        #expect(s.hasEnded && !s.isPlaying && s.decodedFrames >= 6, "\(s)")
        #expect(once.frame().map { matches($0, frame: 11) } ?? false, "the last frame stays")
        // play() after the end starts again from the beginning.
        once.node.play()
        #expect(wait("a second pass", { once.recorder.ends == 2 }))

        let looping = Stage(path: clip, autoplay: true, repeats: true)
        looping.setVisible(true)
        #expect(wait("three passes", { looping.recorder.ends >= 3 }))
        #expect(looping.node.videoStatistics?.hasEnded == false)
        #expect(looping.recorder.errors.isEmpty)
    }

    @Test func volumeAndMuteReachThePipelineClampedAndNaNIgnored() throws {
        let clip = try #require(Clip.make(frames: 60, name: "volume.webm"))
        let stage = Stage(path: clip, autoplay: true, repeats: true)
        // Set before the pipeline exists: applied when it starts.
        stage.node.volume = 0.25
        stage.node.isMuted = true
        stage.setVisible(true)
        #expect(wait("playing", { stage.node.videoStatistics?.decodedFrames ?? 0 > 2 }))
        let player = try #require(stage.node.currentPlayer)
        let near = { (a: Double, b: Double) in abs(a - b) < 1e-6 }
        #expect(wait("the start's volume", { player.pipelineVolume.map { near($0.volume, 0.25) && $0.muted } ?? false }), "\(String(describing: player.pipelineVolume))")
        // Changed while playing; out-of-range values clamp, NaN changes nothing.
        stage.node.volume = 7
        stage.node.isMuted = false
        #expect(wait("clamped to 1, unmuted", { player.pipelineVolume.map { near($0.volume, 1) && !$0.muted } ?? false }))
        stage.node.volume = -3
        #expect(wait("clamped to 0", { player.pipelineVolume.map { near($0.volume, 0) } ?? false }))
        stage.node.volume = 0.5
        stage.node.volume = .nan
        #expect(stage.node.volume == 0.5)
        #expect(wait("NaN ignored", { player.pipelineVolume.map { near($0.volume, 0.5) } ?? false }))
    }

    @Test func pauseAndLeavingTheVisibleRangeStopDecoding() throws {
        let clip = try #require(Clip.make(frames: 60, name: "two-seconds.webm"))
        let stage = Stage(path: clip, autoplay: true)
        stage.setVisible(true)
        #expect(wait("playing", { stage.node.videoStatistics?.decodedFrames ?? 0 > 5 }))
        // Off screen: paused, no frames decoded.
        stage.setVisible(false)
        usleep(150_000)
        let hidden = try #require(stage.node.videoStatistics)
        #expect(!hidden.isPlaying)
        usleep(300_000)
        #expect(stage.node.videoStatistics?.decodedFrames == hidden.decodedFrames, "no decoding while hidden")
        #expect(stage.node.layer?.contentsSource?.contents(at: 1).isAnimating == false, "the render thread may sleep")
        // Back on screen: it plays on.
        stage.setVisible(true)
        #expect(wait("playing again", { stage.node.videoStatistics?.decodedFrames ?? 0 > hidden.decodedFrames + 3 }))
        // pause() while visible stops too.
        stage.node.pause()
        usleep(150_000)
        let paused = try #require(stage.node.videoStatistics)
        usleep(300_000)
        #expect(stage.node.videoStatistics?.decodedFrames == paused.decodedFrames && !paused.isPlaying)
        // Leaving the preload range frees the pipeline; the poster (none here) shows.
        NodePass.adoptCurrentThreadAsPassThread()
        stage.node.setInterfaceState([])
        #expect(stage.node.videoStatistics == nil && stage.node.layer?.contentsSource == nil)
    }

    /// The error event names what failed; the poster stays; nothing crashes.
    func expectFailure(path: String?, url: URL? = nil, _ check: (VideoError) -> Bool) throws {
        let poster = try Bitmap(width: Clip.width, height: Clip.height)
        Canvas(bitmap: poster).fill(poster.bounds, with: .color(.green))
        let stage = Stage(path: nil, autoplay: true, poster: poster)
        stage.node.loadTimeout = 3
        if let url { stage.node.url = url } else { stage.node.path = path }
        stage.setVisible(true)
        #expect(wait("the error event", { !stage.recorder.errors.isEmpty }))
        let error = try #require(stage.recorder.errors.first)
        #expect(check(error), "\(error)")
        #expect(stage.node.lastVideoError == error)
        #expect(stage.frame() == nil, "no video frame after the error")
        #expect(wait("the poster", { stage.iterate(); return stage.shown()?.argb32(x: 5, y: 5) == Color.green.premultipliedARGB32 }))
    }

    @Test func truncatedGarbageAndMissingFilesGiveTheErrorEvent() throws {
        let clip = try #require(Clip.make(frames: 30, name: "one-second.webm"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let truncated = Clip.directory + "/truncated.webm"
        try bytes.prefix(200).write(to: URL(fileURLWithPath: truncated))
        try expectFailure(path: truncated) { if case .decodeFailed = $0 { return true }; if case .missingPlugin = $0 { return true }; return false }
        let garbage = Clip.directory + "/garbage.webm"
        var rng = SplitMix64(seed: 18)
        try Data((0..<20_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }).write(to: URL(fileURLWithPath: garbage))
        try expectFailure(path: garbage) { if case .decodeFailed = $0 { return true }; if case .missingPlugin = $0 { return true }; return false }
        try expectFailure(path: Clip.directory + "/no-such-video.webm") { if case .unreadable = $0 { return true }; return false }
        try expectFailure(path: nil, url: URL(string: "ftp://example.invalid/v.webm")) { if case .invalidSource = $0 { return true }; return false }
    }

    /// A local HTTP server (Python's http.server on a free port) serving the clips' directory.
    final class HTTPServer {
        let process = Process()
        let stdin = Pipe()
        let port: Int
        init?() {
            let out = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", """
                import http.server, os, sys, threading
                os.chdir(sys.argv[1])
                # Ends with the test process (its stdin pipe closes), even when that one crashes.
                threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
                class Quiet(http.server.SimpleHTTPRequestHandler):
                    def log_message(self, *args): pass
                s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
                print(s.server_address[1], flush=True)
                s.serve_forever()
                """, Clip.directory]
            process.standardOutput = out
            process.standardInput = stdin
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            guard let p = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                process.terminate(); return nil
            }
            port = p
        }
        // SIGKILL, no wait: Foundation reaps the child (its waitUntilExit hung here once).
        deinit { kill(process.processIdentifier, SIGKILL) }
    }

    @Test func playsOverHTTPAndAMissingURLIsAnError() throws {
        let clip = try #require(Clip.make(frames: 60, name: "two-seconds.webm"))
        let server = try #require(HTTPServer(), "python3's http.server did not start")
        let stage = Stage(path: nil)
        stage.node.url = URL(string: "http://127.0.0.1:\(server.port)/\((clip as NSString).lastPathComponent)")
        stage.setVisible(true)
        #expect(wait("the first frame over HTTP", { stage.frame().map { matches($0, frame: 0) } ?? false }))
        #expect(stage.recorder.errors.isEmpty)
        try expectFailure(path: nil, url: URL(string: "http://127.0.0.1:\(server.port)/no-such-clip.webm")) {
            if case let .unreadable(m) = $0 { return m.lowercased().contains("not found") }
            return false
        }
    }

    @Test func aMissingDecoderIsAMissingPluginEvent() throws {
        let clip = try #require(Clip.make(frames: 30, name: "one-second.webm"))
        // As on a system without the VP8 decoders: decodebin may not choose them.
        #expect(GStreamerRegistry.setRank("vp8dec", 0))
        let libav = GStreamerRegistry.setRank("avdec_vp8", 0)
        defer {
            _ = GStreamerRegistry.setRank("vp8dec", 256)
            if libav { _ = GStreamerRegistry.setRank("avdec_vp8", 64) }
        }
        try expectFailure(path: clip) { error in
            guard case let .missingPlugin(m) = error else { return false }
            return m.contains("VP8")
        }
    }
}
