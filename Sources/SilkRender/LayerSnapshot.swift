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
    /// The layer's ``Layer/contentsSource`` at the commit, asked for contents at each frame's time.
    public let contentsSource: (any LayerContentsSource)?

    init(id: Layer.LayerID, position: Point, bounds: Rect, transform: AffineTransform, opacity: Double,
         isHidden: Bool, clipsToBounds: Bool, cornerRadius: Double, backgroundColor: Color?,
         borderColor: Color?, borderWidth: Double, contents: Bitmap?, contentsGravity: ContentMode,
         contentsScale: Double, isOpaque: Bool, animations: [LayerAnimation], sublayers: [LayerSnapshot],
         contentsSource: (any LayerContentsSource)? = nil) {
        self.contentsSource = contentsSource
        self.id = id; self.position = position; self.bounds = bounds; self.transform = transform
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

/// An animation of one layer property, evaluated by the render thread at each frame's time.
/// It starts at the first frame composited after the commit that carries it.
public struct LayerAnimation: Sendable, Hashable {
    /// The property an animation drives, with its start and end values.
    public enum Property: Sendable, Hashable {
        /// From `from` to `to` (nil: the layer's model opacity).
        case opacity(from: Double, to: Double?)
        /// From `from` to `to` (nil: the layer's model position).
        case position(from: Point, to: Point?)

        var key: Int {
            switch self {
            case .opacity: 0
            case .position: 1
            }
        }
    }

    /// The easing curve: `linear`, cubic `easeIn`, cubic `easeOut` (the default), or cubic
    /// `easeInOut`.
    public enum Timing: Sendable, Hashable {
        case linear, easeIn, easeOut, easeInOut
        /// Maps linear progress 0…1 to eased progress.
        public func callAsFunction(_ t: Double) -> Double {
            let t = min(1, max(0, t))
            switch self {
            case .linear: return t
            case .easeIn: return t * t * t
            case .easeOut: let u = 1 - t; return 1 - u * u * u
            case .easeInOut: return t < 0.5 ? 4 * t * t * t : 1 - pow(-2 * t + 2, 3) / 2
            }
        }
    }

    /// Identifies the animation (unique in the process); the compositor keys its start time by it.
    public let id: UInt64
    /// What is animated, from where to where.
    public var property: Property
    /// Seconds (> 0).
    public var duration: Double
    /// How progress is eased over ``duration``.
    public var timing: Timing

    nonisolated(unsafe) private static var counter: UInt64 = 0
    private static let lock = Lock()

    /// An animation of `property` over `duration` seconds (non-positive or non-finite values become
    /// 1 ms), eased by `timing`.
    public init(property: Property, duration: Double, timing: Timing = .easeOut) {
        id = LayerAnimation.lock.withLock { LayerAnimation.counter += 1; return LayerAnimation.counter }
        self.property = property
        self.duration = duration.isFinite && duration > 0 ? duration : 0.001
        self.timing = timing
    }
}

#if canImport(Glibc)
import Glibc
#endif
