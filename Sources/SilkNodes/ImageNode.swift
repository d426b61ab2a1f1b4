import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster

/// Shows an image, decoded and scaled off the main thread at the node's pixel size
/// (Texture's ASImageNode).
///
/// Give it a decoded `image`, or an `imagePath` that the display job decodes itself (JPEGs use
/// scaled decode to the node's pixel size, so a 4000-pixel photo in a 300-point cell costs a
/// fraction of a full decode). `imageModificationBlock` runs on the display queue after
/// scaling, with the job's `isCancelled` (the tutorial's cancellable blur).
open class ImageNode: DisplayNode, @unchecked Sendable {
    /// Turns a scaled image into what is shown (display queue). Throw or return early when
    /// `isCancelled()`.
    public typealias Modification = @Sendable (_ image: Bitmap, _ isCancelled: () -> Bool) throws -> Bitmap

    private var _image: Bitmap?
    private var _imagePath: String?
    private var _contentMode: ContentMode = .aspectFill
    private var _cropRect: Rect = ContentMode.defaultCropRect
    private var _forceUpscaling = false
    private var _modification: Modification?
    private var _modificationIdentifier: String?
    private var _lastError: RasterError?
    private var _imageData: Data?
    private var _imageDataSize: Size?
    private var _playsAnimations = true
    /// The player a display job prepared (display queue), installed when its result is applied.
    private var _stagedPlayer: AnimatedImagePlayer?
    /// The player driving the layer's frames (main thread).
    private var player: AnimatedImagePlayer?

    /// Decoded images of `imagePath`s by file (and its identity) and decode size, shared by every
    /// image node: a cell that enters the display range again, or another cell showing the same
    /// file at the same size, does not decode it again. 24 MiB by default; emptied and suspended
    /// while a collection is in low-memory mode (`RangeController.isInLowMemoryMode`). Any thread.
    public static let decodedImageCache = BitmapCache(byteBudget: 24 << 20)
    /// Modified images (`imageModificationBlock`'s results) by file, node pixel size, content mode,
    /// crop and `imageModificationIdentifier`; only nodes that name their modification use it.
    /// 16 MiB by default; low-memory mode as `decodedImageCache`. Any thread.
    public static let modifiedImageCache = BitmapCache(byteBudget: 16 << 20)

    /// Shows a scale label ("2.00x") on every image whose pixels differ from its node's device
    /// pixels (Texture's image-scaling debug overlay). Set before display. Main thread.
    nonisolated(unsafe) public static var showsScalingDebugOverlay = false

    /// Creates an empty image node with the placeholder on (light grey until the image is drawn).
    /// Any thread.
    public override init() {
        super.init()
        // An image is an element only once it has a label (the snapshot skips unlabelled ones).
        lock.withLock { _accessibility.isElement = true; _accessibility.role = .image }
        placeholderEnabled = true
    }

    /// True: image nodes draw in display jobs.
    open override class var drawsContent: Bool { true }

    /// A decoded image to show; setting it clears `imagePath`. The display job scales it to the
    /// node's device pixels with `contentMode`, so the bitmap may be any size; one already at the
    /// node's device pixels (and not modified) is shown as it is, so its pixels must not change
    /// once set (set a new bitmap instead). A replacement of the
    /// same pixel size redraws without a relayout (progressive refinements). Any thread.
    public var image: Bitmap? {
        get { lock.withLock { _image } }
        set {
            let sizeChanged = lock.withLock { () -> Bool in
                let old = _image
                _image = newValue; _imagePath = nil; _imageData = nil; _imageDataSize = nil
                return old?.width != newValue?.width || old?.height != newValue?.height
            }
            setNeedsDisplay()
            // Layout depends only on the natural size: a same-sized replacement (a progressive
            // refinement, a reloaded photo) must not relayout the whole tree.
            if sizeChanged { setNeedsLayout() }
        }
    }
    /// A PNG, JPEG, GIF, WebP, SVG or Lottie file decoded by the display job (an SVG or a Lottie
    /// animation is rendered at the node's pixel size, fitted by `contentMode`; see `SVGImage`,
    /// `LottieAnimation`; an animated GIF, WebP or Lottie file plays while the node is visible). Setting it clears `image` and `imageData`. Any thread.
    public var imagePath: String? {
        get { lock.withLock { _imagePath } }
        set { lock.withLock { _imagePath = newValue; _image = nil; _imageData = nil; _imageDataSize = nil }; setNeedsDisplay() }
    }
    /// Encoded image bytes (PNG, JPEG, GIF or WebP), decoded by the display job at the node's pixel
    /// size; an animated GIF or WebP plays while the node is visible (see `docs/images.md`).
    /// Setting it clears `image` and `imagePath`; the header's size becomes the natural size. Any
    /// thread.
    public var imageData: Data? {
        get { lock.withLock { _imageData } }
        set {
            let info = newValue.flatMap { try? ImageDecoder.probe(data: $0) }
            let size = info.map { Size(width: Double($0.uprightSize.width), height: Double($0.uprightSize.height)) }
            let sizeChanged = lock.withLock { () -> Bool in
                let old = _imageDataSize ?? _image.map { Size(width: Double($0.width), height: Double($0.height)) }
                _imageData = newValue; _imageDataSize = size; _image = nil; _imagePath = nil
                return old != size
            }
            setNeedsDisplay()
            if sizeChanged { setNeedsLayout() }
        }
    }
    /// Whether an animated GIF or WebP plays (default true); false shows its first frame. Any thread.
    public var playsAnimations: Bool {
        get { lock.withLock { _playsAnimations } }
        set { lock.withLock { _playsAnimations = newValue }; setNeedsDisplay() }
    }
    /// What the animation player is doing (nil when the node shows no animation): frames decoded
    /// and shown, frames waiting in the ring, pixel bytes held, completed plays. Any thread.
    public var animationStatistics: AnimationStatistics? {
        let p = lock.withLock { _installedPlayer }
        return p.map { AnimationStatistics($0.statistics, capacity: $0.capacity) }
    }
    private var _installedPlayer: AnimatedImagePlayer?

    /// A snapshot of an animated image's playback (``animationStatistics``).
    public struct AnimationStatistics: Sendable, Equatable {
        /// Frames decoded and drawn at the node's size so far (0 while paused: no work is done).
        public var decodedFrames: Int
        /// Frames the render thread has switched to.
        public var shownFrames: Int
        /// Decoded frames waiting in the ring (at most ``ringCapacity``).
        public var bufferedFrames: Int
        /// The ring's size.
        public var ringCapacity: Int
        /// Pixel bytes held: the ring, the frame on screen and the decoder's canvas.
        public var retainedBytes: Int
        /// Whole passes through the file played.
        public var completedPlays: Int
        /// Frames that showed more than 250 ms late (their decode was late).
        public var lateFrames: Int
        /// True while the node is not visible (or before it first is).
        public var isPaused: Bool
        /// True once the last play ended (the last frame stays).
        public var isFinished: Bool
        /// The file index of the frame on screen.
        public var currentFrame: Int

        init(_ s: AnimatedImagePlayer.Statistics, capacity: Int) {
            decodedFrames = s.decodedFrames; shownFrames = s.shownFrames; bufferedFrames = s.bufferedFrames
            ringCapacity = capacity; retainedBytes = s.retainedBytes; completedPlays = s.completedPlays
            lateFrames = s.lateFrames; isPaused = s.isPaused; isFinished = s.isFinished; currentFrame = s.currentIndex
        }
    }
    /// How the image fits the bounds (default `.aspectFill`: cover the node, cropping the excess).
    /// Any thread.
    public var contentMode: ContentMode {
        get { lock.withLock { _contentMode } }
        set { lock.withLock { _contentMode = newValue }; setNeedsDisplay() }
    }
    /// Unit rect of the image: with a zero size, the anchor `.aspectFill` keeps (default centre);
    /// otherwise only that part of the image is shown. Any thread.
    public var cropRect: Rect {
        get { lock.withLock { _cropRect } }
        set { lock.withLock { _cropRect = newValue }; setNeedsDisplay() }
    }
    /// By default an image smaller than the node is not enlarged beyond its own pixels by the
    /// fitting modes (it would only get blurry); set to enlarge it anyway. Any thread.
    public var forceUpscaling: Bool {
        get { lock.withLock { _forceUpscaling } }
        set { lock.withLock { _forceUpscaling = newValue }; setNeedsDisplay() }
    }
    /// Runs on the display queue after the image is scaled to the node's pixels, so a blur or a
    /// tint touches only what is shown (Texture's `imageModificationBlock`). Any thread.
    public var imageModificationBlock: Modification? {
        get { lock.withLock { _modification } }
        set { lock.withLock { _modification = newValue }; setNeedsDisplay() }
    }
    /// Names what `imageModificationBlock` does (for example `"blur r=30 tint=… sat=1.8"`), so that
    /// its result for an `imagePath` can be kept in `modifiedImageCache` and reused by any node
    /// showing the same file at the same pixel size with the same identifier. Nil (default): the
    /// block runs at every display. Two different blocks must never share an identifier. Any thread.
    public var imageModificationIdentifier: String? {
        get { lock.withLock { _modificationIdentifier } }
        set { lock.withLock { _modificationIdentifier = newValue }; setNeedsDisplay() }
    }
    /// The last decoding error (a missing or corrupt file shows the placeholder). Any thread.
    public var lastError: RasterError? { lock.withLock { _lastError } }
    func recordError(_ e: RasterError?) { lock.withLock { _lastError = e } }

    /// The image's natural size in points (at `imageScale` 1) when known, for layout.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let natural = lock.withLock { _image.map { Size(width: Double($0.width), height: Double($0.height)) } ?? _imageDataSize }
        guard let natural else { return .zero }
        return Size(width: min(natural.width, constrainedSize.width), height: min(natural.height, constrainedSize.height))
    }

    struct Parameters: @unchecked Sendable {
        let image: Bitmap?
        let path: String?
        let data: Data?
        let playsAnimations: Bool
        let contentMode: ContentMode
        let cropRect: Rect
        let forceUpscaling: Bool
        let modification: Modification?
        let modificationIdentifier: String?
        let debugOverlay: Bool
        weak var node: ImageNode?
    }

    /// Captures the image or path, content mode, crop, upscaling and modification for the display
    /// job.
    open override func drawParameters() -> (any Sendable)? {
        lock.withLock {
            Parameters(image: _image, path: _imagePath, data: _imageData, playsAnimations: _playsAnimations, contentMode: _contentMode, cropRect: _cropRect,
                       forceUpscaling: _forceUpscaling, modification: _modification,
                       modificationIdentifier: _modificationIdentifier,
                       debugOverlay: ImageNode.showsScalingDebugOverlay, node: self)
        }
    }

    /// Decodes (a path, at the node's pixel size), scales into the bitmap and runs the
    /// modification, checking `isCancelled()` between the steps. A failed decode records
    /// `lastError` and draws nothing, so the placeholder stays.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Parameters else { return }
        let devicePixels = (width: Int((context.bounds.width * context.scale).rounded(.up)),
                            height: Int((context.bounds.height * context.scale).rounded(.up)))
        // A modified image of a file, already made at this size: no decode, no modification.
        var stamp: BitmapCache.FileStamp?
        var modifiedKey: BitmapCache.Key?
        if p.image == nil, let path = p.path {
            stamp = BitmapCache.FileStamp(path: path)
            if let identifier = p.modificationIdentifier, p.modification != nil, let stamp {
                let key = BitmapCache.Key(source: path, stamp: stamp, width: devicePixels.width, height: devicePixels.height,
                                          variant: "\(p.contentMode) \(p.cropRect) \(p.forceUpscaling) \(context.scale) \(identifier)")
                if let done = modifiedImageCache.bitmap(for: key) {
                    p.node?.recordError(nil)
                    context.canvas.draw(done, in: context.bounds, contentMode: .scaleToFill, filter: .bilinear)
                    return
                }
                modifiedKey = key
            }
        }
        let decoded: Result<Bitmap, RasterError>
        var animation: (make: @Sendable () throws(RasterError) -> AnimatedImageDecoder, decoder: AnimatedImageDecoder, delay: Double)?
        if let image = p.image {
            decoded = .success(image)
        } else if p.path != nil || p.data != nil {
            do throws(RasterError) {
                let key = p.data == nil ? stamp.map { BitmapCache.Key(source: p.path!, stamp: $0, width: devicePixels.width, height: devicePixels.height) } : nil
                if p.data == nil, let path = p.path, SVGImage.isSVG(path: path) {
                    // Vectors: rendered at exactly the node's pixels (cached per size), so they
                    // are drawn 1:1 below and stay sharp at any scale.
                    decoded = .success(try SVGRenderCache.render(path: path, width: devicePixels.width, height: devicePixels.height,
                                                                 contentMode: p.contentMode))
                } else if let lottie = try lottieAnimation(p) {
                    // Lottie: frames rendered by rlottie at the fitted device pixel size (so
                    // drawn 1:1 below), frame 0 now; the player renders the rest on the frame clock.
                    let fitted = lottie.destinationRect(in: Rect(x: 0, y: 0, width: Double(devicePixels.width), height: Double(devicePixels.height)),
                                                        contentMode: p.contentMode)
                    let w = max(1, Int(fitted.width.rounded())), h = max(1, Int(fitted.height.rounded()))
                    guard w * h <= RasterLimits.defaultMaxImagePixels else {
                        throw RasterError.tooManyPixels(width: w, height: h, limit: RasterLimits.defaultMaxImagePixels)
                    }
                    let make: @Sendable () throws(RasterError) -> AnimatedImageDecoder = { () throws(RasterError) in
                        try AnimatedImageDecoder(lottie: lottie, width: w, height: h)
                    }
                    let decoder = try make()
                    guard let first = try decoder.nextFrame() else { throw RasterError.corrupt("no frame in the animation") }
                    decoded = .success(first.canvas)
                    if p.playsAnimations, lottie.frameCount > 1 { animation = (make, decoder, first.delay) }
                } else if let key, let cached = decodedImageCache.bitmap(for: key) {
                    decoded = .success(cached)
                } else {
                    let data: Data
                    if let d = p.data { data = d } else { data = try ImageDecoder.readFile(p.path!) }
                    if AnimatedImageDecoder.mayAnimate(data) {
                        // GIF/WebP: frame 0 now; the decoder, past it, goes on in the player.
                        let decoder = try AnimatedImageDecoder(data: data)
                        guard let first = try decoder.nextFrame() else { throw RasterError.corrupt("no frame in the image") }
                        decoded = .success(first.canvas)
                        if p.playsAnimations {
                            animation = ({ () throws(RasterError) in try AnimatedImageDecoder(data: data) }, decoder, first.delay)
                        }
                    } else {
                        let bitmap = try ImageDecoder.decode(data: data, targetSize: devicePixels).bitmap
                        // The source of a named modification is not kept when its result will be
                        // (modifiedImageCache): the decode would be reused only after that result
                        // was evicted, and two copies of every blurred photo filled both caches
                        // (the media benchmark's photo wall: 7 decodes of 1.6 MB beside their blurs).
                        if let key, modifiedKey == nil || !modifiedImageCache.accepts(width: devicePixels.width, height: devicePixels.height) {
                            decodedImageCache.insert(bitmap, for: key)
                        }
                        // Draw through a view: the cached bitmap's own pixman image stays untouched.
                        decoded = .success((try? Bitmap(wrapping: bitmap.data, width: bitmap.width, height: bitmap.height,
                                                        stride: bitmap.stride, format: bitmap.format, owner: bitmap)) ?? bitmap)
                    }
                }
            } catch {
                if let path = p.path, case let .io(_, reason) = error { decoded = .failure(.io(path: path, reason: reason)) }
                else { decoded = .failure(error) }
            }
        } else {
            p.node?.stagePlayer(nil)
            return
        }
        let errorNode = p.node
        let source: Bitmap
        switch decoded {
        case let .success(b): source = b; errorNode?.recordError(nil)
        case let .failure(e): errorNode?.recordError(e); errorNode?.stagePlayer(nil); return
        }
        if isCancelled() { throw RasterError.cancelled }
        try render(source, p, context, modifiedKey: modifiedKey, isCancelled: isCancelled)
        // The player draws later frames exactly as this one was drawn, into bitmaps of this size.
        if let animation, let node = p.node {
            let size = context.bounds.size, scale = context.scale
            let player = AnimatedImagePlayer(decoder: animation.decoder, firstDelay: animation.delay,
                                             maxPixels: RasterLimits.defaultMaxImagePixels, makeDecoder: animation.make) { canvas in
                let bitmap = try Bitmap(size: size, scale: scale)
                try render(canvas, p, DrawContext(canvas: Canvas(bitmap: bitmap, scale: scale), bounds: Rect(size: size), scale: scale),
                           isCancelled: { false })
                return bitmap
            }
            node.stagePlayer(player)
        } else {
            p.node?.stagePlayer(nil)
        }
    }

    /// The image itself (a view of its pixels) when drawing it would copy it unchanged: a given
    /// `image` of exactly the node's device pixels, with no modification, crop or debug overlay.
    /// Every content mode places such an image on the bounds 1:1, and corner rounding and
    /// clipping are the layer's, so the layer shows the same pixels without a second bitmap of
    /// them (a feed's photos, decoded at their cell's size, are held once, not twice). Anything
    /// else (a path or data to decode, another size, a fractional pixel size) is drawn.
    open override class func readyContents(parameters: (any Sendable)?, size: Size, scale: Double) -> Bitmap? {
        guard let p = parameters as? Parameters, let image = p.image, p.modification == nil, !p.debugOverlay,
              !(p.cropRect.width > 0 && p.cropRect.height > 0),
              image.format == .argb32 || image.format == .xrgb32 else { return nil }
        let w = size.width * scale, h = size.height * scale
        guard w == w.rounded(), h == h.rounded(), Double(image.width) == w, Double(image.height) == h else { return nil }
        // A view: the render thread sets transforms and filters on the bitmap's pixman image while
        // compositing, and a display job of another node may be drawing from this image meanwhile.
        guard let view = try? Bitmap(wrapping: image.data, width: image.width, height: image.height,
                                     stride: image.stride, format: image.format, owner: image) else { return nil }
        p.node?.recordError(nil)
        p.node?.stagePlayer(nil)
        return view
    }

    /// The Lottie animation a path or data holds (detected by content: a JSON object), else nil.
    private static func lottieAnimation(_ p: Parameters) throws(RasterError) -> LottieAnimation? {
        if let data = p.data { return LottieAnimation.isLottie(data) ? try LottieAnimation(data: data, name: "image data") : nil }
        guard let path = p.path, LottieAnimation.isLottie(path: path) else { return nil }
        return try LottieAnimation(contentsOf: path)
    }

    /// Draws a decoded image (or an animation frame's canvas) as the node shows it: content
    /// mode, crop, modification, debug overlay. `modifiedKey`: where to keep the modified image in
    /// `modifiedImageCache` (nil for animation frames, which are never cached).
    static func render(_ source: Bitmap, _ p: Parameters, _ context: DrawContext, modifiedKey: BitmapCache.Key? = nil,
                       isCancelled: () -> Bool) throws {
        var source = source
        let devicePixels = (width: Int((context.bounds.width * context.scale).rounded(.up)),
                            height: Int((context.bounds.height * context.scale).rounded(.up)))
        var mode = p.contentMode
        if !p.forceUpscaling, (mode == .aspectFit || mode == .aspectFill || mode == .scaleToFill),
           source.width <= devicePixels.width, source.height <= devicePixels.height, p.cropRect.size == .zero {
            mode = .center
        }
        if let modify = p.modification {
            // Scale first so the modification (a blur) runs on as few pixels as the node shows.
            let scaled = try Bitmap(width: devicePixels.width, height: devicePixels.height)
            Canvas(bitmap: scaled).draw(source, in: scaled.bounds, contentMode: mode, cropRect: p.cropRect,
                                        filter: .highQuality, imageScale: 1 / context.scale)
            if isCancelled() { throw RasterError.cancelled }
            source = try modify(scaled, isCancelled)
            if isCancelled() { throw RasterError.cancelled }
            if let modifiedKey {
                modifiedImageCache.insert(source, for: modifiedKey)
                source = (try? Bitmap(wrapping: source.data, width: source.width, height: source.height,
                                      stride: source.stride, format: source.format, owner: source)) ?? source
            }
            context.canvas.draw(source, in: context.bounds, contentMode: .scaleToFill, filter: .bilinear)
        } else {
            context.canvas.draw(source, in: context.bounds, contentMode: mode, cropRect: p.cropRect,
                                filter: .highQuality, imageScale: context.scale)
        }
        if p.debugOverlay {
            let drawn = mode.destinationRect(imageSize: Size(width: Double(source.width), height: Double(source.height)),
                                             in: context.bounds)
            let ratio = Double(source.width) / max(1, drawn.width * context.scale)
            if abs(ratio - 1) > 0.01 {
                let label = TextLayout(text: AttributedText(String(format: "%.2fx", ratio),
                                                            attributes: TextAttributes(fontSize: 11, fontWeight: .bold, color: .white)),
                                       constrainedTo: Size(width: 200, height: 40))
                let r = Rect(x: context.bounds.maxX - label.size.width - 8, y: context.bounds.maxY - label.size.height - 6,
                             width: label.size.width + 6, height: label.size.height + 2)
                context.canvas.fill(r, with: .color(Color(red: 0.8, green: 0, blue: 0, alpha: 0.8)))
                context.canvas.draw(label, at: Point(x: r.minX + 3, y: r.minY + 1))
            }
        }
    }

    // MARK: Animation (main thread, except stagePlayer)

    /// Display queue: the player the job just prepared (nil: the image does not animate).
    func stagePlayer(_ player: AnimatedImagePlayer?) {
        lock.withLock { _stagedPlayer = player }
    }

    /// Main thread: the display result is on the layer; the player prepared with it drives the
    /// layer's frames from now on (playing while the node is visible).
    override func didApplyDisplayResult() {
        let staged = lock.withLock { () -> AnimatedImagePlayer? in
            defer { _stagedPlayer = nil }
            return _stagedPlayer
        }
        installPlayer(staged)
    }

    private func installPlayer(_ new: AnimatedImagePlayer?) {
        guard new !== player else { return }
        player?.pause()
        player = new
        lock.withLock { _installedPlayer = new }
        layer?.contentsSource = new
        if interfaceState.contains(.visible) { new?.resume() }
    }

    /// Main thread: an animation plays from where it paused. Subclasses call `super`.
    open override func didEnterVisibleState() {
        super.didEnterVisibleState()
        player?.resume()
    }

    /// Main thread: an animation pauses and releases its decoded frames. Subclasses call `super`.
    open override func didExitVisibleState() {
        super.didExitVisibleState()
        player?.pause()
    }

    /// Main thread: the contents are gone; so is the player. Subclasses call `super`.
    open override func didExitDisplayState() {
        super.didExitDisplayState()
        installPlayer(nil)
    }

    // MARK: Helpers (Texture's ASImageNode+Helpers)

    /// A modification that rounds the corners (and optionally strokes a border).
    public static func roundedCornerModification(radius: Double, borderWidth: Double = 0,
                                                 borderColor: Color? = nil) -> Modification {
        { image, _ in
            let out = try Bitmap(width: image.width, height: image.height)
            let c = Canvas(bitmap: out)
            c.draw(image, in: out.bounds, cornerRadius: radius)
            if let borderColor, borderWidth > 0 {
                c.strokeRoundedRect(out.bounds.insetBy(dx: borderWidth / 2, dy: borderWidth / 2),
                                    cornerRadius: max(0, radius - borderWidth / 2), lineWidth: borderWidth, with: .color(borderColor))
            }
            return out
        }
    }

    /// A modification that tints the image's opaque pixels with `color` (for template icons).
    public static func tintModification(_ color: Color) -> Modification {
        { image, _ in
            let out = try Bitmap(width: image.width, height: image.height)
            for y in 0..<image.height {
                let src = (image.data + y * image.stride).assumingMemoryBound(to: UInt32.self)
                let dst = (out.data + y * out.stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<image.width {
                    let a = src[x] >> 24
                    dst[x] = Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * Double(a) / 255).premultipliedARGB32
                }
            }
            return out
        }
    }

    /// The blur of the Texture tutorial's cards, cancellable between row bands.
    public static func blurModification(radius: Double, tintColor: Color? = nil, saturationDeltaFactor: Double = 1) -> Modification {
        { image, isCancelled in
            try image.blurred(radius: radius, tintColor: tintColor, saturationDeltaFactor: saturationDeltaFactor,
                              isCancelled: isCancelled)
        }
    }
}
