import Foundation
import SilkDemoServer
import SilkGeometry
import SilkNodes
import SilkRender
import SilkScenes
import SilkVideo

/// `media`: a 1280×720 30 fps video (VP8, made by GStreamer at the first run and kept in the
/// temporary directory) playing in a `VideoNode` beside four animated GIFs, while a photo wall
/// (rainforest cards) scrolls at 600 pt/s on the right. Frames reach the render thread from
/// GStreamer's streaming thread and the GIF players' display queues; the main thread only runs
/// the scroll. Reports the video's decoded, shown and dropped frames besides the usual figures.
public final class MediaBench: BenchScene {
    public static let name = "media"
    public static let summary = "1280×720 30 fps video + four animated GIFs while a photo wall scrolls at 600 pt/s"
    public static let supportsSync = true
    /// The figure is the async run (display work stays off the main thread).
    public static let modes: [BenchMode] = [.async]
    /// The looping video and GIFs animate for ever: on the virtual clock the render thread would
    /// composite frames back to back (a core of CPU, and a frame report per pass that grew the
    /// process by ~5 MiB/s); the video plays on GStreamer's real clock anyway.
    public static let presentsOnRealTimeClock = true
    let video = VideoNode()
    let list: RainforestListNode
    let warmup: Double
    private var startStatistics: VideoNode.Statistics?
    private var measuringStarted = false
    private var videoLine: String?

    /// Where the benchmark's clip is kept (made once per machine).
    static var clipPath: String { NSTemporaryDirectory() + "silk-bench-media-1280x720-30fps-v1.webm" }

    public init(stage: BenchStage) throws {
        guard RainforestCatalog.entries[0].photoPath != nil else { throw SceneError("media: assets/photos not found (set SILK_ASSETS)") }
        do {
            try VideoTestClip.make(path: Self.clipPath, width: 1280, height: 720, fps: 30, frames: 300, pattern: "smpte")
        } catch {
            throw SceneError("media: \(error)")
        }
        warmup = stage.warmupSeconds
        let size = stage.size
        let root = DisplayNode()
        root.backgroundColor = Color(rgb: 0x101418)
        let gap = 8.0
        let left = (size.width * 0.5).rounded(.down)
        video.frame = Rect(x: gap, y: gap, width: left - 2 * gap, height: ((left - 2 * gap) * 9 / 16).rounded())
        video.shouldAutoplay = true
        video.shouldAutorepeat = true
        video.isMuted = true
        video.backgroundColor = .black
        video.path = Self.clipPath
        root.addSubnode(video)
        let gifTop = video.frame.maxY + gap
        let gifWidth = ((left - 3 * gap) / 2).rounded(.down)
        let gifHeight = max(40, ((size.height - gifTop - 2 * gap) / 2).rounded(.down))
        for k in 0..<4 {
            let gif = ImageNode()
            gif.frame = Rect(x: gap + Double(k % 2) * (gifWidth + gap), y: gifTop + Double(k / 2) * (gifHeight + gap),
                             width: gifWidth, height: gifHeight)
            gif.contentMode = .scaleToFill
            gif.imageData = DemoGIF.make(id: k + 1, width: Int(gifWidth), height: Int(gifHeight), frames: 24,
                                         delayCentiseconds: 4 + k, loop: 0)
            root.addSubnode(gif)
        }
        list = RainforestScene.makeList(count: 120, viewport: Size(width: size.width - left, height: size.height), scale: stage.scale)
        list.frame = Rect(x: left, y: 0, width: size.width - left, height: size.height)
        root.addSubnode(list)
        stage.background = Color(rgb: 0x101418)
        stage.show(root)
    }

    /// Still during the warm-up, then the wall scrolls at 600 pt/s.
    public func update(time: Double) {
        list.scroll(to: time < warmup ? 0 : (time - warmup) * 600)
    }

    public func didPresent(_ frame: FrameObservation) {
        if frame.measuring, !measuringStarted {
            measuringStarted = true
            startStatistics = video.videoStatistics
        }
    }

    public func finish(into result: inout ModeResult, pass: NodePass?) {
        guard let end = video.videoStatistics else { return }
        let start = startStatistics
        result.videoFramesDecoded = end.decodedFrames - (start?.decodedFrames ?? 0)
        result.videoFramesShown = end.shownFrames - (start?.shownFrames ?? 0)
        result.videoFramesDropped = end.droppedFrames - (start?.droppedFrames ?? 0)
        videoLine = "media: video \(end.sourceWidth)×\(end.sourceHeight), measured window: \(result.videoFramesDecoded ?? 0) frames decoded, "
            + "\(result.videoFramesShown ?? 0) shown, \(result.videoFramesDropped ?? 0) dropped"
    }

    public var notes: [String] {
        var n = ["media: clip \(Self.clipPath)"]
        if let videoLine { n.append(videoLine) }
        if let e = video.lastVideoError { n.append("media: video failed: \(e)") }
        return n
    }
}
