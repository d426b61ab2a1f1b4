import Foundation

/// One composited frame of an animation: the whole canvas as it looks while the frame shows.
public struct AnimatedImageFrame: @unchecked Sendable {
    /// The decoder's canvas (premultiplied ARGB32). It is reused: valid until the decoder's next
    /// `nextFrame()` or `rewind()`; copy or draw it before then.
    public let canvas: Bitmap
    /// The frame's position in the file, from 0.
    public let index: Int
    /// How long the frame shows, in seconds, after the browsers' clamp (`clampedDelay`).
    public let delay: Double

    /// The delay browsers use for a frame that asks for `seconds`: 10 ms or less (0 and 1
    /// centisecond in a GIF, which old encoders wrote for "as fast as possible") become 100 ms,
    /// as Chrome, Firefox and Safari do for GIF and WebP; a non-finite or negative delay too.
    public static func clampedDelay(_ seconds: Double) -> Double {
        guard seconds.isFinite, seconds > 0.010 else { return minimumDelayReplacement }
        return seconds
    }
    /// What a delay of 10 ms or less becomes: 0.1 s.
    public static let minimumDelayReplacement = 0.1
}

/// What a GIF or WebP frame decoder offers (internal seam for the two formats).
protocol AnimatedImageFrameSource: AnyObject {
    var canvas: Bitmap { get }
    var playCount: Int? { get }
    var retainedBytes: Int { get }
    func nextFrame() throws(RasterError) -> AnimatedImageFrame?
    func rewind() throws(RasterError)
}

/// Decodes an animated GIF or WebP one frame at a time, compositing each onto a canvas of the
/// file's logical size with the file's disposal and blending (GIF: disposal to background clears
/// the frame's rectangle to transparent, disposal to previous restores the canvas; WebP: alpha
/// blending or not, dispose to background). Memory is the canvas (and, for GIF disposal 3, one
/// copy; for WebP, libwebp's two canvases) whatever the frame count: frames are never held.
///
/// ```swift
/// let decoder = try AnimatedImageDecoder(data: data)      // header checks, pixel budget
/// while let frame = try decoder.nextFrame() { show(frame.canvas, for: frame.delay) }
/// try decoder.rewind()                                    // loop: decoder.playCount (nil = forever)
/// ```
///
/// Not thread-safe: use one decoder from one thread at a time (a display queue). A still image
/// (PNG, JPEG, or a one-frame GIF/WebP) gives one frame; PNG and JPEG are decoded whole.
public final class AnimatedImageDecoder: @unchecked Sendable {
    private let source: (any AnimatedImageFrameSource)?
    private var still: Bitmap?
    private var stillServed = false
    /// The encoding (GIF or WebP animate; others have one frame).
    public let format: ImageDecoder.Format
    /// The canvas size in pixels.
    public let width: Int
    /// The canvas height in pixels.
    public let height: Int

    /// Reads the header and prepares the first frame's decode. Throws the same typed errors as
    /// `ImageDecoder.decode` (`.tooManyPixels` before any allocation for a huge canvas). Any thread.
    public init(data: Data, maxPixels: Int = RasterLimits.defaultMaxImagePixels) throws(RasterError) {
        guard let format = ImageDecoder.detectFormat(data) else { throw ImageDecoder.unsupported(data) }
        self.format = format
        switch format {
        case .gif:
            let s = try GIFFrameDecoder(data, maxPixels: maxPixels)
            source = s; width = s.canvas.width; height = s.canvas.height
        case .webp:
            let s = try WebPFrameDecoder(data, maxPixels: maxPixels)
            source = s; width = s.canvas.width; height = s.canvas.height
        default:
            let image = try ImageDecoder.decode(data: data, maxPixels: maxPixels)
            source = nil; still = image.bitmap; width = image.bitmap.width; height = image.bitmap.height
        }
    }

    /// Plays a Lottie animation rendered at `width`×`height` pixels (the node's, already fitted):
    /// each `nextFrame()` renders the next frame with rlottie into the canvas. Frames advance at
    /// the file's rate, at most 60 per second (a 120 fps
    /// file shows every second frame, each for 1/60 s); it loops forever. Any thread.
    public init(lottie: LottieAnimation, width: Int, height: Int) throws(RasterError) {
        let s = try LottieFrameSource(lottie, width: width, height: height)
        source = s; format = .lottie; self.width = width; self.height = height
    }

    /// Moves a decoder that has not produced a frame yet so its next frame is `index` (a Lottie
    /// animation renders only that frame; other formats decode from the start and ignore it).
    public func skipAhead(to index: Int) {
        (source as? LottieFrameSource)?.skipAhead(to: index)
    }

    /// True for the formats that may hold several frames (GIF, WebP), judged by magic bytes.
    public static func mayAnimate(_ data: Data) -> Bool {
        guard let f = ImageDecoder.detectFormat(data) else { return false }
        return f == .gif || f == .webp
    }

    /// How many times the whole animation plays: nil forever. GIF as browsers read it (no
    /// NETSCAPE2.0 block: once; loop count 0: forever; n: n + 1 times) — known once the first
    /// frame was read; WebP's `loop_count` (0: forever; n: n times).
    public var playCount: Int? {
        guard let source else { return 1 }
        return source.playCount
    }

    /// The next frame composited onto the canvas, or nil after the last. A damaged frame throws
    /// a typed error (truncated LZW data, a bad chunk). Same thread as the other calls.
    public func nextFrame() throws(RasterError) -> AnimatedImageFrame? {
        if let source { return try source.nextFrame() }
        guard !stillServed, let still else { return nil }
        stillServed = true
        return AnimatedImageFrame(canvas: still, index: 0, delay: .infinity)
    }

    /// Goes back to the first frame with a clear canvas (to loop).
    public func rewind() throws(RasterError) {
        if let source { try source.rewind() } else { stillServed = false }
    }

    /// Pixel memory the decoder holds (its canvases), whatever the frame count.
    public var retainedBytes: Int { source?.retainedBytes ?? still.map { $0.byteCount } ?? 0 }
}

/// Lottie frames rendered by rlottie at a fixed pixel size (``AnimatedImageDecoder/init(lottie:width:height:)``).
final class LottieFrameSource: AnimatedImageFrameSource {
    /// Most frames shown per second: faster files skip frames rather than fall behind.
    static let maximumPlaybackRate = 60.0
    let canvas: Bitmap
    let playCount: Int? = nil
    var retainedBytes: Int { canvas.byteCount }
    private let renderer: LottieRenderer
    private let step: Int
    private let delay: Double
    private var next = 0

    init(_ lottie: LottieAnimation, width: Int, height: Int) throws(RasterError) {
        canvas = try Bitmap(width: width, height: height)
        renderer = try LottieRenderer(lottie)
        step = max(1, Int((lottie.frameRate / LottieFrameSource.maximumPlaybackRate).rounded(.up)))
        delay = Double(step) / lottie.frameRate
    }

    func skipAhead(to index: Int) {
        next = max(0, min(index, renderer.animation.frameCount - 1)) / step * step
    }

    func nextFrame() throws(RasterError) -> AnimatedImageFrame? {
        guard next < renderer.animation.frameCount else { return nil }
        memset(canvas.data, 0, canvas.stride * canvas.height)
        renderer.render(frame: next, into: canvas)
        defer { next += step }
        return AnimatedImageFrame(canvas: canvas, index: next, delay: delay)
    }

    func rewind() throws(RasterError) { next = 0 }
}
