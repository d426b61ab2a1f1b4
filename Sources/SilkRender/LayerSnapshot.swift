import SilkGeometry
import SilkRaster
import SilkSystem

/// The immutable state of one layer and its subtree at a commit: what the main thread hands the
/// render thread. Nothing in it can change after creation (contents bitmaps are immutable by
/// convention once published), so it is safe to read from any thread.
public final class LayerSnapshot: Sendable {
    /// The layer this snapshot was taken from (the compositor diffs frames by it).
    public let id: Layer.LayerID
    /// The layer's ``Layer/position`` at the commit.
    public let position: Point
    /// The layer's ``Layer/bounds`` at the commit.
    public let bounds: Rect
    /// The layer's ``Layer/transform`` at the commit.
    public let transform: AffineTransform
    /// The layer's ``Layer/anchorPoint`` at the commit.
    public let anchorPoint: Point
    /// The layer's own ``Layer/opacity`` (not multiplied by its ancestors').
    public let opacity: Double
    /// The layer's ``Layer/isHidden`` at the commit.
    public let isHidden: Bool
    /// The layer's ``Layer/clipsToBounds`` at the commit.
    public let clipsToBounds: Bool
    /// The layer's ``Layer/cornerRadius`` at the commit.
    public let cornerRadius: Double
    /// The layer's ``Layer/backgroundColor`` at the commit.
    public let backgroundColor: Color?
    /// The layer's ``Layer/borderColor`` at the commit.
    public let borderColor: Color?
    /// The layer's ``Layer/borderWidth`` at the commit.
    public let borderWidth: Double
    /// The layer's ``Layer/contents`` at the commit (an immutable bitmap, shared, not copied).
    public let contents: Bitmap?
    /// The layer's ``Layer/contentsGravity`` at the commit.
    public let contentsGravity: ContentMode
    /// The layer's ``Layer/contentsScale`` at the commit.
    public let contentsScale: Double
    /// The layer's ``Layer/isOpaque`` at the commit.
    public let isOpaque: Bool
    /// The animations running on the layer, evaluated by the compositor at each frame's time.
    public let animations: [LayerAnimation]
    /// The sublayers' snapshots, back to front.
    public let sublayers: [LayerSnapshot]
    /// The layer's ``Layer/shadow`` at the commit.
    public let shadow: Shadow?
    /// The layer's ``Layer/rendersAsGroup`` at the commit.
    public let rendersAsGroup: Bool
    /// The layer's ``Layer/cornerClipping`` at the commit.
    public let cornerClipping: CornerClipping
    /// The layer's ``Layer/contentsSource`` at the commit, asked for contents at each frame's time.
    public let contentsSource: (any LayerContentsSource)?

    init(id: Layer.LayerID, position: Point, bounds: Rect, transform: AffineTransform, anchorPoint: Point, opacity: Double,
         isHidden: Bool, clipsToBounds: Bool, cornerRadius: Double, backgroundColor: Color?,
         borderColor: Color?, borderWidth: Double, contents: Bitmap?, contentsGravity: ContentMode,
         contentsScale: Double, isOpaque: Bool, animations: [LayerAnimation], sublayers: [LayerSnapshot],
         shadow: Shadow? = nil, rendersAsGroup: Bool = false, cornerClipping: CornerClipping = .clip,
         contentsSource: (any LayerContentsSource)? = nil) {
        self.shadow = shadow?.sanitized; self.rendersAsGroup = rendersAsGroup; self.cornerClipping = cornerClipping
        self.contentsSource = contentsSource
        self.id = id; self.position = position; self.bounds = bounds; self.transform = transform
        self.anchorPoint = anchorPoint
        self.opacity = opacity; self.isHidden = isHidden; self.clipsToBounds = clipsToBounds
        self.cornerRadius = cornerRadius; self.backgroundColor = backgroundColor
        self.borderColor = borderColor; self.borderWidth = borderWidth; self.contents = contents
        self.contentsGravity = contentsGravity; self.contentsScale = contentsScale
        self.isOpaque = isOpaque; self.animations = animations; self.sublayers = sublayers
    }

    /// Number of layers in this subtree (for statistics).
    public var layerCount: Int { 1 + sublayers.reduce(0) { $0 + $1.layerCount } }
    /// True when any layer in the subtree has an animation.
    public var hasAnimations: Bool { !animations.isEmpty || sublayers.contains { $0.hasAnimations } }
}
