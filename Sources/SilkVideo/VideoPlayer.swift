import CSilkGStreamer
import Foundation
import SilkGeometry
import SilkRaster
import SilkRender
import SilkSystem

/// One GStreamer pipeline (playbin → appsink) feeding a layer's frames: a ``LayerContentsSource``
/// whose bitmaps are made on GStreamer's streaming thread, so frames reach the render thread
/// without the main thread.
///
/// - **Frames.** GStreamer scales each decoded frame to the size it is drawn at in the node (the
///   appsink's caps filter follows the node's pixel size and content mode) and appsink delivers
///   it as BGRA on its streaming thread, synchronised to the pipeline clock. The callback copies it
///   into a bitmap from a small pool (``poolSize``; pixman places it by the content mode, or scales
///   it while GStreamer renegotiates a new size) and keeps it as the latest frame. A pooled bitmap
///   is written again only when nothing else holds it (the render thread and the compositor's
///   retained frame keep theirs), so a shown bitmap never changes. The render thread shows the
///   latest frame at each frame time; a frame replaced before it was shown counts as dropped.
/// - **Control.** State changes, seeks and bus events run on the player's serial control queue,
///   never on the main thread or a streaming thread (a flushing seek from a streaming thread could
///   deadlock). No GLib main loop: the bus is read by a sync handler that hands each message to
///   the control queue.
/// - **Failure.** An error message frees the pipeline and clears the frame, so the layer shows
///   its own contents (the poster); the app is told through `onEvent`.
///
/// Thread safety: state behind `lock`; the pipeline handle only on `queue`.
final class VideoPlayer: LayerContentsSource, @unchecked Sendable {
    enum Event: Sendable {
        case firstFrame(width: Int, height: Int)
        case playedToEnd
        case failed(VideoError)
    }

    struct Statistics: Sendable, Equatable {
        var decodedFrames = 0
        var shownFrames = 0
        var droppedFrames = 0
        var completedPlays = 0
        var isPlaying = false
        var hasEnded = false
        var sourceWidth = 0
        var sourceHeight = 0
        var frameWidth = 0
        var frameHeight = 0
        var bitmapsAllocated = 0
    }

    /// Carries the player to GStreamer's callbacks; released only after the pipeline is freed.
    private final class Box: @unchecked Sendable {
        weak var player: VideoPlayer?
    }

    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer; let box: Unmanaged<Box> }

    let uri: String
    private let onEvent: @Sendable (Event) -> Void
    private let queue = DispatchQueue(label: "silk.video.control")
    private let lock = Lock()
    // The pipeline: only on `queue`.
    private var handle: Handle?
    // Guarded by lock:
    private var latest: Bitmap?
    /// Frame bitmaps to reuse (at most ``poolSize``); one is taken out while a frame is written.
    private var pool: [Bitmap] = []
    /// The decoded stream's size (square pixels); 0 until GStreamer knows it.
    private var sourceWidth = 0
    private var sourceHeight = 0
    private var latestSequence = 0
    private var shownSequence = 0
    private var targetWidth = 0
    private var targetHeight = 0
    private var contentMode: ContentMode = .aspectFit
    private var wantsPlaying = false
    private var visible = false
    private var loops = false
    private var ended = false
    private var failure: VideoError?
    private var requestedPlaying = false
    /// A frame is on its way (start or seek): the render thread keeps asking until it shows.
    private var awaitingFrame = true
    private var settledSequence: Int?
    private var prerolled = false
    private var pendingSeek: Double?
    private var closed = false
    private var stats = Statistics()
    private var volume = 1.0
    private var muted = false

    /// Seconds the pipeline may take to decode its first frame before it counts as failed.
    let loadTimeout: Double

    init(uri: String, loadTimeout: Double = 15, onEvent: @escaping @Sendable (Event) -> Void) {
        self.uri = uri
        self.loadTimeout = loadTimeout.isFinite && loadTimeout > 0 ? loadTimeout : 15
        self.onEvent = onEvent
        queue.setSpecific(key: Self.queueKey.key, value: ObjectIdentifier(self))
    }

    deinit {
        // Freeing waits for the streaming threads; never do it on one (the last reference may
        // be dropped inside a frame callback), so hand it to another thread.
        if let h = handle { DispatchQueue.global().async { Self.free(h) } }
    }

    /// Frees the pipeline, then the box its callbacks were given: silk_gst_player_free returns
    /// only once no callback runs or can start, so the box is not reachable any more.
    private static func free(_ h: Handle) {
        silk_gst_player_free(h.pointer)
        h.box.release()
    }

    /// Test seam: GStreamer pipelines built and not yet destroyed, in the whole process.
    static var livePipelines: Int { Int(silk_gst_live_pipelines()) }

    var statistics: Statistics {
        lock.withLock { var s = stats; s.isPlaying = requestedPlaying; s.hasEnded = ended; return s }
    }
    var error: VideoError? { lock.withLock { failure } }

    // MARK: Controls (any thread; the work runs on the control queue)

    /// Builds the pipeline and prerolls (the first frame arrives); plays if asked and visible.
    func start(playing: Bool, visible: Bool, loops: Bool, volume: Double, muted: Bool) {
        lock.withLock {
            wantsPlaying = playing; self.visible = visible; self.loops = loops
            self.volume = volume; self.muted = muted
        }
        queue.async { [self] in open() }
    }

    func setPlaying(_ playing: Bool) {
        let restart = lock.withLock { () -> Bool in
            wantsPlaying = playing
            if playing && ended { ended = false; return true }
            return false
        }
        queue.async { [self] in
            if restart { seekNow(0) }
            applyState()
        }
    }

    func setVisible(_ isVisible: Bool) {
        // Hidden: the spare frame bitmaps go (the frame on screen stays as `latest`).
        lock.withLock { visible = isVisible; if !isVisible { pool.removeAll() } }
        queue.async { [self] in applyState() }
    }

    func setLoops(_ l: Bool) { lock.withLock { loops = l } }

    func setVolume(_ v: Double, muted m: Bool) {
        lock.withLock { volume = v; muted = m }
        queue.async { [self] in
            guard let h = handle else { return }
            silk_gst_player_set_volume(h.pointer, v)
            silk_gst_player_set_mute(h.pointer, m ? 1 : 0)
        }
    }

    /// Seeks to `seconds` (clamped to ≥ 0; the exact frame, not the keyframe before it).
    func seek(to seconds: Double) {
        lock.withLock { ended = false; awaitingFrame = true; settledSequence = nil }
        queue.async { [self] in
            if lock.withLock({ prerolled }) { seekNow(seconds) } else { lock.withLock { pendingSeek = seconds } }
            applyState()
        }
    }

    /// Frame bitmaps kept for reuse: the latest frame, the one the compositor still shows and
    /// one being written.
    static let poolSize = 3

    /// The node's pixel size and content mode: later frames are drawn to it, and GStreamer is
    /// asked to scale to it.
    func setTarget(width: Int, height: Int, contentMode mode: ContentMode) {
        lock.withLock { targetWidth = width; targetHeight = height; contentMode = mode }
        queue.async { [self] in applySize() }
    }

    /// The size GStreamer should scale a `sw` × `sh` stream to for a `tw` × `th` node showing it
    /// with `mode`: the size the frame is drawn at, so the streaming thread only copies it. nil:
    /// the stream's own size (modes that do not scale, no size yet, or an aspect-fill of an
    /// extreme shape that would be much larger than both the node and the stream).
    static func scaledSize(source sw: Int, _ sh: Int, target tw: Int, _ th: Int, mode: ContentMode) -> (width: Int, height: Int)? {
        guard sw > 0, sh > 0, tw > 0, th > 0, tw <= 16384, th <= 16384 else { return nil }
        switch mode {
        case .scaleToFill:
            return (tw, th)
        case .aspectFit, .aspectFill:
            let r = mode.destinationRect(imageSize: Size(width: Double(sw), height: Double(sh)),
                                         in: Rect(x: 0, y: 0, width: Double(tw), height: Double(th)))
            guard r.width.isFinite, r.height.isFinite else { return nil }
            let w = max(1, Int(r.width.rounded())), h = max(1, Int(r.height.rounded()))
            if mode == .aspectFill, w * h > max(2 * tw * th, sw * sh) { return nil }
            return (min(w, 16384), min(h, 16384))
        default:
            return nil
        }
    }

    /// Asks GStreamer for frames at the size they are drawn at, after the node's size changed
    /// (control queue; a stream whose size is not known yet is asked in ``requestedSize(forSource:_:)``).
    private func applySize() {
        guard let h = handle else { return }
        let size = lock.withLock { () -> (width: Int, height: Int)?? in
            guard sourceWidth > 0 else { return .none }
            return .some(Self.scaledSize(source: sourceWidth, sourceHeight, target: targetWidth, targetHeight, mode: contentMode))
        }
        guard case let .some(size) = size else { return }
        silk_gst_player_set_size(h.pointer, Int32(size?.width ?? 0), Int32(size?.height ?? 0))
    }

    /// The stream is `width` × `height`: the size its frames should be scaled to (nil: its own).
    /// A streaming thread, before the stream's first frame.
    private func requestedSize(forSource width: Int, _ height: Int) -> (width: Int, height: Int)? {
        lock.withLock {
            sourceWidth = width; sourceHeight = height
            return Self.scaledSize(source: width, height, target: targetWidth, targetHeight, mode: contentMode)
        }
    }

    var position: Double? {
        onQueue { handle.map { silk_gst_player_position($0.pointer) }.flatMap { $0 >= 0 ? $0 : nil } }
    }
    /// The volume and mute the pipeline itself holds (playbin's properties), nil before it exists:
    /// what tests read to see the node's settings reach GStreamer.
    var pipelineVolume: (volume: Double, muted: Bool)? {
        onQueue {
            handle.map { h -> (volume: Double, muted: Bool) in
                var v = 0.0, m: Int32 = 0
                silk_gst_player_get_volume(h.pointer, &v, &m)
                return (v, m != 0)
            }
        }
    }
    var duration: Double? {
        onQueue { handle.map { silk_gst_player_duration($0.pointer) }.flatMap { $0 >= 0 ? $0 : nil } }
    }

    /// The control queue's tag, boxed: Swift 6.0's Dispatch (Debian trixie, Raspberry Pi OS 13)
    /// does not mark DispatchSpecificKey Sendable, newer ones do; the key is never mutated.
    private struct QueueKey: @unchecked Sendable { let key = DispatchSpecificKey<ObjectIdentifier>() }
    private static let queueKey = QueueKey()
    /// Runs `body` on the control queue: at once when already there (a delegate method asking
    /// for the position), else waiting for it.
    private func onQueue<T>(_ body: () -> T) -> T {
        DispatchQueue.getSpecific(key: Self.queueKey.key) == ObjectIdentifier(self) ? body() : queue.sync(execute: body)
    }

    /// Frees the pipeline; no frame or event follows. The frame on screen stays until the layer
    /// drops the source.
    func close() {
        lock.withLock { closed = true; requestedPlaying = false; awaitingFrame = false; pool.removeAll() }
        queue.async { [self] in
            if let h = handle { handle = nil; Self.free(h) }
        }
    }

    // MARK: Control queue

    private func open() {
        guard handle == nil, !lock.withLock({ closed }) else { return }
        let box = Box()
        box.player = self
        let unmanaged = Unmanaged.passRetained(box)
        var message = [CChar](repeating: 0, count: 512)
        let pointer = silk_gst_player_new(uri, unmanaged.toOpaque(), { context, frame in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            if let player = box.player { player.receive(frame) } else { silk_gst_frame_release(frame.handle) }
        }, { context, kind, text in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            box.player?.post(kind: kind, message: text.map { String(cString: $0) } ?? "")
        }, { context, sourceWidth, sourceHeight, width, height in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            guard let size = box.player?.requestedSize(forSource: Int(sourceWidth), Int(sourceHeight)) else { return }
            width?.pointee = Int32(size.width); height?.pointee = Int32(size.height)
        }, &message, message.count)
        guard let pointer else {
            unmanaged.release()
            fail(.unavailable(text(message)))
            return
        }
        handle = Handle(pointer: pointer, box: unmanaged)
        // A stream that neither prerolls nor fails (a stalled server; a damaged file whose demuxer
        // error GStreamer's decodebin sometimes swallows) must still end in the error event.
        queue.asyncAfter(deadline: .now() + loadTimeout) { [weak self] in
            guard let self, self.handle != nil else { return }
            let started = self.lock.withLock { self.prerolled || self.stats.decodedFrames > 0 }
            if !started { self.fail(.decodeFailed("no frame could be decoded from \(self.uri) within \(self.loadTimeout) s")) }
        }
        let (v, m) = lock.withLock { (volume, muted) }
        silk_gst_player_set_volume(pointer, v)
        silk_gst_player_set_mute(pointer, m ? 1 : 0)
        applyState()
    }

    private func applyState() {
        guard let h = handle else { return }
        let play = lock.withLock { () -> Bool in
            let p = wantsPlaying && visible && !ended && failure == nil && !closed
            requestedPlaying = p
            return p
        }
        if silk_gst_player_set_state(h.pointer, play ? 3 : 2) != 0 {
            fail(.unreadable("the pipeline for \(uri) cannot start"))
        }
    }

    private func seekNow(_ seconds: Double) {
        guard let h = handle else { return }
        _ = silk_gst_player_seek(h.pointer, seconds.isFinite ? max(0, seconds) : 0, 1)
    }

    private func fail(_ error: VideoError) {
        let first = lock.withLock { () -> Bool in
            guard failure == nil, !closed else { return false }
            failure = error
            latest = nil
            pool.removeAll()
            latestSequence += 1
            requestedPlaying = false
            awaitingFrame = false
            return true
        }
        if let h = handle { handle = nil; Self.free(h) }
        if first { onEvent(.failed(error)) }
    }

    /// A bus message (any GStreamer thread): handled on the control queue.
    private func post(kind: Int32, message: String) {
        queue.async { [self] in handle(kind: kind, message: message) }
    }

    private func handle(kind: Int32, message: String) {
        guard handle != nil else { return }
        switch kind {
        case Int32(SILK_GST_EVENT_ASYNC_DONE.rawValue):
            let seek = lock.withLock { () -> Double? in
                prerolled = true
                settledSequence = latestSequence
                defer { pendingSeek = nil }
                return pendingSeek
            }
            if let seek { seekNow(seek) }
        case Int32(SILK_GST_EVENT_EOS.rawValue):
            let again = lock.withLock { () -> Bool in
                stats.completedPlays += 1
                if loops { return true }
                ended = true
                awaitingFrame = false
                return false
            }
            if again { seekNow(0) } else { applyState() }
            onEvent(.playedToEnd)
        case Int32(SILK_GST_EVENT_MISSING_PLUGIN.rawValue):
            fail(.missingPlugin(message))
        case Int32(SILK_GST_EVENT_RESOURCE_ERROR.rawValue):
            fail(.unreadable(message))
        case Int32(SILK_GST_EVENT_ERROR.rawValue):
            fail(.decodeFailed(message))
        default:
            break
        }
    }

    // MARK: Streaming thread

    private func receive(_ frame: SilkGstFrame) {
        defer { silk_gst_frame_release(frame.handle) }
        let (sw, sh) = frame.source_width > 0 && frame.source_height > 0
            ? (Int(frame.source_width), Int(frame.source_height)) : (Int(frame.width), Int(frame.height))
        let (tw0, th0, mode, done) = lock.withLock { (targetWidth, targetHeight, contentMode, failure != nil || closed) }
        guard !done, let data = frame.data, frame.width > 0, frame.height > 0 else { return }
        let (fw, fh) = (Int(frame.width), Int(frame.height))
        let (tw, th) = tw0 > 0 && th0 > 0 ? (tw0, th0) : (fw, fh)
        guard let bitmap = takeBitmap(width: tw, height: th) else { return }
        do throws(RasterError) {
            let source = try Bitmap(wrapping: UnsafeMutableRawPointer(mutating: data), width: fw,
                                    height: fh, stride: Int(frame.stride), format: .argb32)
            if tw == fw, th == fh {
                for y in 0..<fh {
                    memcpy(bitmap.data + y * bitmap.stride, source.data + y * source.stride, fw * 4)
                }
            } else {
                // Placed by the content mode (already at its drawn size), or scaled while
                // GStreamer renegotiates; what it does not cover is transparent, as in a new bitmap.
                memset(bitmap.data, 0, bitmap.byteCount)
                Canvas(bitmap: bitmap).draw(source, in: bitmap.bounds, contentMode: mode, filter: .bilinear)
            }
        } catch {
            lock.withLock { returnToPool(bitmap) }
            return
        }
        let first = lock.withLock { () -> Bool in
            returnToPool(bitmap)
            guard failure == nil, !closed else { return false }
            if latest != nil, latestSequence != shownSequence { stats.droppedFrames += 1 }
            latest = bitmap
            latestSequence += 1
            stats.decodedFrames += 1
            let first = stats.sourceWidth == 0
            stats.sourceWidth = sw; stats.sourceHeight = sh
            stats.frameWidth = fw; stats.frameHeight = fh
            return first
        }
        // Told from the control queue, never from the streaming thread: a delegate that asks for
        // the position there must not wait for a queue that is waiting for this thread to stop.
        if first {
            queue.async { [self] in onEvent(.firstFrame(width: sw, height: sh)) }
        }
    }

    /// A bitmap to write the next frame into: a pooled one of this size that nothing else holds
    /// (not the latest frame, not one the render thread or the compositor keeps), else a new one.
    /// Taken out of the pool until ``returnToPool(_:)``. Streaming thread.
    private func takeBitmap(width: Int, height: Int) -> Bitmap? {
        let reused = lock.withLock { () -> Bitmap? in
            pool.removeAll { $0.width != width || $0.height != height }
            for i in pool.indices where pool[i] !== latest && isKnownUniquelyReferenced(&pool[i]) {
                return pool.remove(at: i)
            }
            return nil
        }
        if let reused { return reused }
        do throws(RasterError) {
            let bitmap = try Bitmap(width: width, height: height)
            lock.withLock { stats.bitmapsAllocated += 1 }
            return bitmap
        } catch {
            return nil
        }
    }

    /// Keeps `bitmap` for a later frame while the pool has room. Under `lock`.
    private func returnToPool(_ bitmap: Bitmap) {
        if !closed, failure == nil, pool.count < Self.poolSize, !pool.contains(where: { $0 === bitmap }) { pool.append(bitmap) }
    }

    // MARK: Render thread

    func contents(at time: Double) -> LayerContentsSample {
        lock.withLock {
            if failure != nil { return LayerContentsSample(bitmap: nil, isAnimating: false) }
            if latestSequence != shownSequence {
                shownSequence = latestSequence
                if latest != nil { stats.shownFrames += 1 }
            }
            if awaitingFrame, let settled = settledSequence, shownSequence >= settled, latest != nil { awaitingFrame = false }
            return LayerContentsSample(bitmap: latest, isAnimating: !closed && (requestedPlaying || awaitingFrame))
        }
    }
}

/// Test seam: GStreamer's plugin registry.
enum GStreamerRegistry {
    /// Sets a plugin feature's rank (0: decodebin never chooses it); false when there is no such
    /// feature. Any thread.
    static func setRank(_ feature: String, _ rank: Int) -> Bool { silk_gst_set_feature_rank(feature, Int32(rank)) == 0 }
}

/// Test clips made by GStreamer in this process (`videotestsrc` encoded as VP8 in WebM), for
/// demos and benchmarks that need a video without shipping one. Needs gstreamer1.0-plugins-good
/// (vp8enc, webmmux). Any thread; it blocks while encoding.
public enum VideoTestClip {
    /// Writes (or reuses) a clip of `frames` frames at `width` × `height` and `fps` showing
    /// `pattern` (a videotestsrc pattern name: "smpte", "ball", "pinwheel" …) to `path`. A file
    /// already at `path` is reused as it is (callers name their clips by their parameters); the
    /// clip is written to `path.partial-PID` and renamed, so `path` never holds a partial clip.
    public static func make(path: String, width: Int, height: Int, fps: Int, frames: Int,
                            pattern: String = "smpte") throws(VideoError) {
        guard (16...4096).contains(width), (16...4096).contains(height), (1...120).contains(fps), (1...100_000).contains(frames),
              pattern.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw .invalidSource("a test clip of \(width)×\(height) at \(fps) fps, \(frames) frames, pattern \(pattern)")
        }
        if FileManager.default.fileExists(atPath: path) { return }
        let partial = path + ".partial-\(getpid())"
        let quoted = partial.replacingOccurrences(of: "\"", with: "\\\"")
        let description = "videotestsrc num-buffers=\(frames) pattern=\(pattern) horizontal-speed=2 ! "
            + "video/x-raw,width=\(width),height=\(height),framerate=\(fps)/1 ! "
            + "vp8enc deadline=1 cpu-used=8 target-bitrate=\(max(200_000, width * height * 2)) ! webmmux ! filesink location=\"\(quoted)\""
        var message = [CChar](repeating: 0, count: 512)
        guard silk_gst_run_pipeline(description, 300, &message, message.count) == 0 else {
            unlink(partial)
            throw .missingPlugin("cannot encode a test clip (vp8enc and webmmux are in gstreamer1.0-plugins-good): \(text(message))")
        }
        guard rename(partial, path) == 0 else {
            unlink(partial)
            throw .unreadable("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// The NUL-terminated text in a C message buffer.
func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

