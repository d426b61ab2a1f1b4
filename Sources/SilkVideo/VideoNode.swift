import CSilkGStreamer
import Foundation
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender
import SilkSystem

/// Told what a ``VideoNode``'s video does (Texture's `ASVideoNodeDelegate`). Called on the
/// video's control queue (not the main thread): hop to the main queue to touch nodes. All methods
/// have empty defaults.
public protocol VideoNodeDelegate: AnyObject, Sendable {
    /// The first frame was decoded (`width` × `height`: the stream's pixels); it replaces the poster.
    func videoNode(_ node: VideoNode, didLoadVideoOfWidth width: Int, height: Int)
    /// The video reached its end (with ``VideoNode/shouldAutorepeat``, once per pass).
    func videoNodeDidPlayToEnd(_ node: VideoNode)
    /// The video cannot be shown: a missing or unreadable file, a damaged stream, a missing plugin.
    /// The node shows its poster and stays usable (set another `url`).
    func videoNode(_ node: VideoNode, didFailWith error: VideoError)
}

extension VideoNodeDelegate {
    /// Does nothing.
    public func videoNode(_ node: VideoNode, didLoadVideoOfWidth width: Int, height: Int) {}
    /// Does nothing.
    public func videoNodeDidPlayToEnd(_ node: VideoNode) {}
    /// Does nothing.
    public func videoNode(_ node: VideoNode, didFailWith error: VideoError) {}
}

/// Plays a video file or http(s) stream with GStreamer (Texture's `ASVideoNode`).
///
/// - **Poster.** The node is an `ImageNode` (SilkNodes): its `image`, `imagePath` or `imageData` is the
///   poster, shown until the first frame and again after an error. `contentMode` fits both the
///   poster and the video (`.aspectFit` letterboxes, `.aspectFill` crops; default `.aspectFit`).
/// - **Frames** come from GStreamer's appsink on its streaming thread, scaled by GStreamer to the
///   size the node draws them at, copied into a small pool of bitmaps at the node's pixels, and
///   reach the render thread as the layer's `contentsSource`: the main thread never touches a
///   frame.
/// - **Ranges.** The pipeline is built when the node enters the preload range (the first frame is
///   decoded, paused), plays while the node is visible and ``isPlaying``, pauses when it leaves
///   the visible range, and is freed when it leaves the preload range.
/// - **Errors** (end of stream, damaged files, missing plugins, unreadable files) go to the
///   ``delegate`` and ``lastVideoError``; the node shows its poster and the app runs on.
///
/// Thread safety: properties any thread; `play()`, `pause()`, `seek(to:)` and the interface-state
/// hooks on the main thread.
open class VideoNode: ImageNode, @unchecked Sendable {
    /// A snapshot of playback (``videoStatistics``).
    public struct Statistics: Sendable, Equatable {
        /// Frames decoded (and scaled by GStreamer to the size the node draws them at).
        public var decodedFrames: Int
        /// Frames the render thread has shown.
        public var shownFrames: Int
        /// Decoded frames replaced by a newer one before the render thread showed them.
        public var droppedFrames: Int
        /// Passes played to the end.
        public var completedPlays: Int
        /// True while the pipeline was last asked to play (the node is visible and playing).
        public var isPlaying: Bool
        /// True after the end of a video that does not repeat.
        public var hasEnded: Bool
        /// The stream's pixel size (0 before the first frame).
        public var sourceWidth: Int
        /// The stream's pixel height (0 before the first frame).
        public var sourceHeight: Int
        /// The width GStreamer scaled the last frame to: the width the node draws it at (the
        /// stream's own width for content modes that do not scale; 0 before the first frame).
        public var frameWidth: Int
        /// The height GStreamer scaled the last frame to (0 before the first frame).
        public var frameHeight: Int
        /// Frame bitmaps allocated so far: the frames reuse a small pool, so this stays at a few
        /// however long the video plays (a change of the node's size allocates new ones).
        public var frameBitmapsAllocated: Int
    }

    private let videoLock = Lock()
    // Guarded by videoLock:
    private var _url: URL?
    private var _autoplay = true
    private var _autorepeat = false
    private var _muted = false
    private var _volume = 1.0
    private var _playing: Bool
    private var _lastError: VideoError?
    private weak var _delegate: (any VideoNodeDelegate)?
    private var _player: VideoPlayer?
    private var _loadTimeout = 15.0

    /// An empty video node: autoplay on, no repeat, sound on; the poster fitted (`.aspectFit`).
    /// Any thread.
    public override init() {
        _playing = true
        super.init()
        playsAnimations = false
        contentMode = .aspectFit
    }

    /// The video: a file URL (or a path, see ``path``) or an http(s) URL. Setting it frees the
    /// current pipeline; the new one starts when the node is in the preload range. Main thread.
    public var url: URL? {
        get { videoLock.withLock { _url } }
        set {
            videoLock.withLock { _url = newValue; _lastError = nil }
            closePlayer()
            if interfaceState.contains(.preload) { openPlayer() }
        }
    }
    /// A video file's path (sets ``url`` to a file URL). Main thread.
    public var path: String? {
        get { url.flatMap { $0.isFileURL ? $0.path : nil } }
        set { url = newValue.map { URL(fileURLWithPath: $0) } }
    }
    /// Seconds a video may take to decode its first frame (opening, buffering, prerolling) before
    /// it fails with ``VideoError/decodeFailed(_:)`` (default 15; values that are not finite and
    /// positive are ignored). Applies to pipelines built after it is set. Any thread.
    public var loadTimeout: Double {
        get { videoLock.withLock { _loadTimeout } }
        set { guard newValue.isFinite, newValue > 0 else { return }; videoLock.withLock { _loadTimeout = newValue } }
    }
    /// Plays as soon as the node is visible (default true); false waits for `play()`. Set before
    /// the node is shown. Any thread.
    public var shouldAutoplay: Bool {
        get { videoLock.withLock { _autoplay } }
        set { videoLock.withLock { _autoplay = newValue; if _player == nil { _playing = newValue } } }
    }
    /// Starts again from the beginning at the end (default false). Any thread.
    public var shouldAutorepeat: Bool {
        get { videoLock.withLock { _autorepeat } }
        set { let p = videoLock.withLock { _autorepeat = newValue; return _player }; p?.setLoops(newValue) }
    }
    /// The player while the node is in the preload range (tests read its pipeline through it).
    var currentPlayer: VideoPlayer? { videoLock.withLock { _player } }
    /// Silences the sound (default false). Any thread.
    public var isMuted: Bool {
        get { videoLock.withLock { _muted } }
        set { let (p, v) = videoLock.withLock { _muted = newValue; return (_player, _volume) }; p?.setVolume(v, muted: newValue) }
    }
    /// The sound's volume, 0 (silent) to 1 (the stream's level); other values are clamped and NaN
    /// is ignored. Any thread.
    public var volume: Double {
        get { videoLock.withLock { _volume } }
        set {
            guard !newValue.isNaN else { return }
            let v = min(1, max(0, newValue))
            let (p, m) = videoLock.withLock { _volume = v; return (_player, _muted) }
            p?.setVolume(v, muted: m)
        }
    }
    /// True after `play()` (or autoplay) until `pause()`: the video plays whenever the node is
    /// visible. Any thread.
    public var isPlaying: Bool { videoLock.withLock { _playing } }
    /// Told about the first frame, the end and failures (weak). Any thread.
    public var delegate: (any VideoNodeDelegate)? {
        get { videoLock.withLock { _delegate } }
        set { videoLock.withLock { _delegate = newValue } }
    }
    /// Why the video cannot be shown (nil while it can). Any thread.
    public var lastVideoError: VideoError? { videoLock.withLock { _lastError } }
    /// What the pipeline did so far (nil when there is none: outside the preload range, no URL,
    /// or after a failure freed it). Any thread.
    public var videoStatistics: Statistics? {
        guard let s = videoLock.withLock({ _player })?.statistics else { return nil }
        return Statistics(decodedFrames: s.decodedFrames, shownFrames: s.shownFrames, droppedFrames: s.droppedFrames,
                          completedPlays: s.completedPlays, isPlaying: s.isPlaying, hasEnded: s.hasEnded,
                          sourceWidth: s.sourceWidth, sourceHeight: s.sourceHeight, frameWidth: s.frameWidth,
                          frameHeight: s.frameHeight, frameBitmapsAllocated: s.bitmapsAllocated)
    }
    /// The playback position in seconds (nil when unknown). Any thread but the main thread is best
    /// avoided while a pipeline is changing state (it waits for the control queue).
    public var currentTime: Double? { videoLock.withLock { _player }?.position }
    /// The video's length in seconds (nil when unknown: before preroll, a live stream).
    public var duration: Double? { videoLock.withLock { _player }?.duration }

    /// Plays (from the start after the end); the video runs while the node is visible. Main thread.
    public func play() {
        let p = videoLock.withLock { _playing = true; return _player }
        p?.setPlaying(true)
        layer?.setNeedsContentsSourceFrame()
    }

    /// Pauses; the frame on screen stays. Main thread.
    public func pause() {
        let p = videoLock.withLock { _playing = false; return _player }
        p?.setPlaying(false)
    }

    /// Shows the frame at `seconds` (clamped to the video; NaN and infinities mean 0), paused or
    /// playing. Main thread.
    public func seek(to seconds: Double) {
        guard let p = videoLock.withLock({ _player }) else { return }
        p.seek(to: seconds.isFinite ? max(0, seconds) : 0)
        layer?.setNeedsContentsSourceFrame()
    }

    // MARK: Pipeline life (main thread)

    private func openPlayer() {
        guard videoLock.withLock({ _player == nil }), let url = self.url else { return }
        let uri: String
        switch url.scheme?.lowercased() {
        case "file":
            guard FileManager.default.fileExists(atPath: url.path) else {
                report(.unreadable("no such file: \(url.path)")); return
            }
            guard let u = silk_gst_filename_to_uri(url.path) else { report(.invalidSource(url.path)); return }
            uri = String(cString: u)
            silk_gst_free(u)
        case "http", "https":
            uri = url.absoluteString
        default:
            report(.invalidSource("\(url.absoluteString) is not a file or an http(s) URL")); return
        }
        let player = VideoPlayer(uri: uri, loadTimeout: loadTimeout) { [weak self] event in self?.handle(event) }
        let (playing, loops, volume, muted) = videoLock.withLock { () -> (Bool, Bool, Double, Bool) in
            _player = player
            return (_playing, _autorepeat, _volume, _muted)
        }
        updateTarget(player)
        player.start(playing: playing, visible: interfaceState.contains(.visible), loops: loops, volume: volume, muted: muted)
        layer?.contentsSource = player
    }

    private func closePlayer() {
        let p = videoLock.withLock { () -> VideoPlayer? in defer { _player = nil }; return _player }
        guard let p else { return }
        p.close()
        if layer?.contentsSource === p { layer?.contentsSource = nil }
    }

    private func report(_ error: VideoError) {
        let d = videoLock.withLock { _lastError = error; return _delegate }
        d?.videoNode(self, didFailWith: error)
    }

    private func handle(_ event: VideoPlayer.Event) {
        switch event {
        case let .firstFrame(w, h): delegate?.videoNode(self, didLoadVideoOfWidth: w, height: h)
        case .playedToEnd: delegate?.videoNodeDidPlayToEnd(self)
        case let .failed(e): report(e)
        }
    }

    private func updateTarget(_ player: VideoPlayer?) {
        guard let player else { return }
        // The window's scale, not the layer's contentsScale: that is the last drawn poster's,
        // which is 1 until a first display result arrives.
        let scale = displayScale
        let b = bounds
        guard b.size.isValidExtent, !b.isEmpty, scale.isFinite, scale > 0 else { return }
        player.setTarget(width: Int((b.width * scale).rounded(.up)), height: Int((b.height * scale).rounded(.up)),
                         contentMode: contentMode)
    }

    /// Main thread, in the node pass: the player follows the node's pixel size at once, however
    /// the size changed (a layout, a container, a frame set by hand), without waiting for the
    /// poster's redraw. Subclasses call `super`.
    open override func sizeDidChange() {
        super.sizeDidChange()
        updateTarget(videoLock.withLock { _player })
    }

    /// Main thread: the poster was drawn (a new window scale or content mode). Subclasses call `super`.
    open override func displayDidFinish() {
        super.displayDidFinish()
        updateTarget(videoLock.withLock { _player })
    }

    /// Main thread: the layer exists; it shows the player's frames. Subclasses call `super`.
    open override func didLoad() {
        super.didLoad()
        if let p = videoLock.withLock({ _player }) { layer?.contentsSource = p }
    }

    /// Main thread: the pipeline is built and the first frame decoded. Subclasses call `super`.
    open override func didEnterPreloadState() {
        super.didEnterPreloadState()
        openPlayer()
    }

    /// Main thread: the pipeline is freed; the poster shows again. Subclasses call `super`.
    open override func didExitPreloadState() {
        super.didExitPreloadState()
        closePlayer()
    }

    /// Main thread: the video plays (if playing). Subclasses call `super`.
    open override func didEnterVisibleState() {
        super.didEnterVisibleState()
        videoLock.withLock { _player }?.setVisible(true)
    }

    /// Main thread: the video pauses. Subclasses call `super`.
    open override func didExitVisibleState() {
        super.didExitVisibleState()
        videoLock.withLock { _player }?.setVisible(false)
    }
}
