import SilkGeometry
import SilkRaster
import SilkSystem

/// The immutable state of one layer and its subtree at a commit: what the main thread hands the
/// render thread. Nothing in it can change after creation (contents bitmaps are immutable by
/// convention once published), so it is safe to read from any thread.
public final class LayerSnapshot: Sendable {
    public let id: Layer.LayerID
    public let position: Point
    public let bounds: Rect
    public let transform: AffineTransform
    public let opacity: Double
    public let isHidden: Bool
    public let clipsToBounds: Bool
    public let cornerRadius: Double
    public let backgroundColor: Color?
    public let borderColor: Color?
    public let borderWidth: Double
    public let contents: Bitmap?
    public let contentsGravity: ContentMode
    public let contentsScale: Double
    public let isOpaque: Bool
    public let animations: [LayerAnimation]
    public let sublayers: [LayerSnapshot]

    init(id: Layer.LayerID, position: Point, bounds: Rect, transform: AffineTransform, opacity: Double,
         isHidden: Bool, clipsToBounds: Bool, cornerRadius: Double, backgroundColor: Color?,
         borderColor: Color?, borderWidth: Double, contents: Bitmap?, contentsGravity: ContentMode,
         contentsScale: Double, isOpaque: Bool, animations: [LayerAnimation], sublayers: [LayerSnapshot]) {
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

    public let id: UInt64
    public var property: Property
    /// Seconds (> 0).
    public var duration: Double
    public var timing: Timing

    nonisolated(unsafe) private static var counter: UInt64 = 0
    private static let lock = Lock()

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
