import SilkGeometry
import SilkRaster
import SilkSystem

/// A retained visual element, Core Animation's CALayer in miniature: a rectangle with a
/// background, border, corner radius, optional contents bitmap, opacity, transform and sublayers.
///
/// Layers belong to the main thread (the run loop's thread); they are never touched by display
/// queues or the render thread. What crosses threads is `snapshot()`: an immutable
/// `LayerSnapshot` tree the render thread composites. Snapshots are persistent — a layer whose
/// subtree did not change hands out the same snapshot object again, so snapshotting a large
/// tree after a scroll costs only the path from the scrolled layer to the root.
///
/// Geometry follows Core Animation: `position` is where the layer's anchor point (its centre)
/// sits in the superlayer's coordinate space, `bounds.size` is its size, and `bounds.origin`
/// scrolls the sublayers (a scroll container moves its bounds origin; contents never re-render).
public final class Layer: CustomStringConvertible {
    /// This layer's identity, unique in the process; its snapshots carry it.
    public let id: LayerID

    /// Identifies a layer across snapshots (the compositor diffs by it).
    public struct LayerID: Hashable, Sendable, CustomStringConvertible {
        /// The number, counting up from 1 in creation order.
        public let raw: UInt64
        public var description: String { "#\(raw)" }
    }
    nonisolated(unsafe) private static var nextID: UInt64 = 0
    private static let idLock = Lock()

    /// A layer with no size, no contents and no sublayers, at the origin. Main thread.
    public init() {
        id = Layer.idLock.withLock { Layer.nextID += 1; return LayerID(raw: Layer.nextID) }
    }

    deinit {
        // A layer that goes away ends its animations: their completions hear `false`.
        for a in animations { a.ending.end(finished: false)?(false) }
    }

    // MARK: Properties (each setter invalidates the cached snapshot up to the root)

    /// Where the layer's centre sits in its superlayer's coordinate space, in points.
    public var position: Point = .zero { didSet { if position != oldValue { invalidate() } } }
    /// The layer's size, and in its origin the scroll offset of its sublayers and contents.
    public var bounds: Rect = .zero { didSet { if bounds != oldValue { invalidate() } } }
    /// Applied around the anchor point (the centre by default), as CALayer's `affineTransform`:
    /// rotate, scale or translate the drawn layer without changing its frame.
    public var transform: AffineTransform = .identity { didSet { if transform != oldValue { invalidate() } } }
    /// The point of the bounds, in unit coordinates ((0, 0) top left, (1, 1) bottom right), that
    /// sits at ``position`` and that ``transform`` rotates and scales about. Default (0.5, 0.5),
    /// the centre. Changing it keeps ``position``, so the layer moves (as in Core Animation).
    public var anchorPoint = Point(x: 0.5, y: 0.5) { didSet { if anchorPoint != oldValue { invalidate() } } }
    /// 0…1, multiplied down the tree (per layer, not group opacity).
    public var opacity: Double = 1 { didSet { if opacity != oldValue { invalidate() } } }
    /// A hidden layer and its sublayers are not drawn (and take no hits).
    public var isHidden = false { didSet { if isHidden != oldValue { invalidate() } } }
    /// Clip sublayers and contents to the (rounded) bounds.
    public var clipsToBounds = false { didSet { if clipsToBounds != oldValue { invalidate() } } }
    /// Rounds the background, border and, with ``clipsToBounds``, the clip, in points.
    public var cornerRadius: Double = 0 { didSet { if cornerRadius != oldValue { invalidate() } } }
    /// Fills the bounds below the contents (nil: no fill).
    public var backgroundColor: Color? { didSet { if backgroundColor != oldValue { invalidate() } } }
    /// The border's colour (nil: no border).
    public var borderColor: Color? { didSet { if borderColor != oldValue { invalidate() } } }
    /// The border's width in points, drawn inside the bounds above the contents.
    public var borderWidth: Double = 0 { didSet { if borderWidth != oldValue { invalidate() } } }
    /// The layer's content, drawn into its bounds by `contentsGravity`. Set a new bitmap to change
    /// it (bitmaps are immutable once published). The first time contents arrive, a fade-in runs
    /// when `contentsFadeInDuration` > 0 (the tutorial's fading cards).
    public var contents: Bitmap? {
        didSet {
            guard contents !== oldValue else { return }
            if oldValue == nil, contents != nil, contentsFadeInDuration > 0 {
                add(LayerAnimation(property: .opacity(from: 0, to: nil), duration: contentsFadeInDuration))
            }
            invalidate()
        }
    }
    /// How ``contents`` is fitted into the bounds.
    public var contentsGravity: ContentMode = .scaleToFill { didSet { if contentsGravity != oldValue { invalidate() } } }
    /// Contents pixels per point (a 2× bitmap for a 2× screen).
    public var contentsScale: Double = 1 { didSet { if contentsScale != oldValue { invalidate() } } }
    /// Seconds the contents fade in from transparent when they first arrive (0: appear at once).
    public var contentsFadeInDuration: Double = 0
    /// A drop shadow below the layer's (rounded) bounds (nil: none).
    public var shadow: Shadow? { didSet { if shadow != oldValue { invalidate() } } }
    /// With an opacity below 1, the layer and its sublayers are composited offscreen and blended
    /// as one (Core Animation's `allowsGroupOpacity`): overlapping translucent sublayers do not
    /// show through each other. Off by default (opacity multiplies down the tree).
    public var rendersAsGroup = false { didSet { if rendersAsGroup != oldValue { invalidate() } } }
    /// How sublayers are rounded when ``clipsToBounds`` and ``cornerRadius`` are set.
    public var cornerClipping: CornerClipping = .clip { didSet { if cornerClipping != oldValue { invalidate() } } }
    /// Declares the layer fully opaque where it draws (opaque background or contents with no
    /// alpha, no rounded corners); the compositor then uses pixman's SRC fast path.
    public var isOpaque = false { didSet { if isOpaque != oldValue { invalidate() } } }
    /// A debugging name shown in descriptions.
    public var name: String?
    /// Frames chosen by the render thread at each frame's time (an animated image); while it
    /// answers nil, ``contents`` shows. Main thread, like every layer property.
    public var contentsSource: (any LayerContentsSource)? { didSet { if contentsSource !== oldValue { invalidate() } } }
    /// Makes the next commit reach the render thread even though no property changed, so it asks
    /// ``contentsSource`` again: a source that stopped animating (a paused video) and will have a
    /// new frame soon (it was seeked) calls this. Main thread.
    public func setNeedsContentsSourceFrame() { invalidate() }

    /// The child layers, back to front.
    public private(set) var sublayers: [Layer] = []
    /// The parent layer (weak: a parent owns its sublayers).
    public private(set) weak var superlayer: Layer?

    /// Frame in the superlayer's coordinate space (ignores `transform`): the bounds placed so
    /// that the anchor point sits at ``position``.
    public var frame: Rect {
        get {
            Rect(x: position.x - bounds.width * anchorPoint.x, y: position.y - bounds.height * anchorPoint.y,
                 width: bounds.width, height: bounds.height)
        }
        set {
            bounds.size = newValue.size
            position = Point(x: newValue.minX + newValue.width * anchorPoint.x, y: newValue.minY + newValue.height * anchorPoint.y)
        }
    }

    // MARK: Tree

    /// Adds `layer` on top of the other sublayers, removing it from its old superlayer first.
    public func addSublayer(_ layer: Layer) { insertSublayer(layer, at: sublayers.count) }

    /// Inserts `layer` at `index` in back-to-front order (clamped), removing it from its old
    /// superlayer first.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        precondition(layer !== self, "a layer cannot be its own sublayer")
        layer.removeFromSuperlayer()
        sublayers.insert(layer, at: max(0, min(index, sublayers.count)))
        layer.superlayer = self
        invalidate()
    }

    /// Detaches the layer from its superlayer; nothing happens when it has none.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.sublayers.removeAll { $0 === self }
        superlayer = nil
        parent.invalidate()
    }

    /// Replaces all sublayers at once (one invalidation).
    public func setSublayers(_ layers: [Layer]) {
        for l in sublayers where !layers.contains(where: { $0 === l }) { l.superlayer = nil }
        for l in layers where l.superlayer !== self { l.removeFromSuperlayer(); l.superlayer = self }
        sublayers = layers
        invalidate()
    }

    // MARK: Animations

    /// The animations attached to the layer, at most one per property key, in the order added.
    /// Main thread.
    public private(set) var animations: [LayerAnimation] = []

    /// Adds an animation; it starts at the first frame composited after the next commit and
    /// replaces the layer's animation of the same property (whose completion then hears
    /// `false`). Animations are evaluated on the render thread from the snapshot, so they run
    /// smoothly even while the main thread is busy. An animation whose values are not finite
    /// (a NaN target) is refused: it is logged, and its completion hears `false`. Main thread.
    public func add(_ animation: LayerAnimation) {
        guard animation.property.hasFiniteValues else {
            logger.error("layer \(name ?? id.description): refused an animation of \(animation.property.key) with non-finite values")
            animation.ending.end(finished: false)?(false)
            return
        }
        let replaced = animations.filter { $0.property.key == animation.property.key && $0.id != animation.id }
        animations.removeAll { $0.property.key == animation.property.key }
        animations.append(animation)
        invalidate()
        for old in replaced { old.ending.end(finished: false)?(false) }
    }

    /// Removes the animation of `key`, if any; the model value shows from the next frame and its
    /// completion hears `false` unless it had already finished. Main thread.
    public func removeAnimation(for key: LayerAnimation.Key) {
        let removed = animations.filter { $0.property.key == key }
        guard !removed.isEmpty else { return }
        animations.removeAll { $0.property.key == key }
        invalidate()
        for old in removed { old.ending.end(finished: false)?(false) }
    }

    /// Stops every animation of this layer; the model values show from the next frame, and the
    /// completions of those that had not finished hear `false`. Main thread.
    public func removeAllAnimations() {
        guard !animations.isEmpty else { return }
        let removed = animations
        animations = []
        invalidate()
        for old in removed { old.ending.end(finished: false)?(false) }
    }

    // MARK: Snapshots

    private var cachedSnapshot: LayerSnapshot?

    private func invalidate() {
        var layer: Layer? = self
        while let l = layer, l.cachedSnapshot != nil {
            l.cachedSnapshot = nil
            layer = l.superlayer
        }
    }

    /// The immutable state of this layer and its sublayers, to hand to the render thread.
    public func snapshot() -> LayerSnapshot {
        if let s = cachedSnapshot { return s }
        let s = LayerSnapshot(
            id: id, position: position, bounds: bounds, transform: transform, anchorPoint: anchorPoint, opacity: opacity,
            isHidden: isHidden, clipsToBounds: clipsToBounds, cornerRadius: cornerRadius,
            backgroundColor: backgroundColor, borderColor: borderColor, borderWidth: borderWidth,
            contents: contents, contentsGravity: contentsGravity, contentsScale: contentsScale,
            isOpaque: isOpaque, animations: animations, sublayers: sublayers.map { $0.snapshot() },
            shadow: shadow, rendersAsGroup: rendersAsGroup, cornerClipping: cornerClipping,
            contentsSource: contentsSource)
        cachedSnapshot = s
        return s
    }

    public var description: String {
        "Layer(\(name ?? id.description) frame: \(frame)\(sublayers.isEmpty ? "" : ", \(sublayers.count) sublayers"))"
    }
}
