import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
import SilkSystem

/// Where a node is relative to the screen, as Texture defines it. A node in a window without a
/// range controller has all four; containers (the containers issue) drive them by scroll position.
public struct InterfaceState: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The state bits: `measureLayout` 1, `preload` 2, `display` 4, `visible` 8.
    public let rawValue: UInt8
    /// Creates a state from its bits (see `rawValue`).
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Layout may be measured ahead of time.
    public static let measureLayout = InterfaceState(rawValue: 1)
    /// Data should be fetched (network images start downloading).
    public static let preload = InterfaceState(rawValue: 2)
    /// Content should be drawn (display jobs run; leaving cancels them).
    public static let display = InterfaceState(rawValue: 4)
    /// On screen: every node of a window's tree, and a container's item while its frame overlaps
    /// the viewport (start animations, count impressions).
    public static let visible = InterfaceState(rawValue: 8)
    /// Every state: what a node in a window without a range controller has, and what it leaves on
    /// `removeFromSupernode()`.
    public static let inHierarchy: InterfaceState = [.measureLayout, .preload, .display, .visible]
    /// The states joined by `|` ("measure|preload|display|visible"), for logs and range overlays.
    public var description: String {
        [(Self.measureLayout, "measure"), (.preload, "preload"), (.display, "display"), (.visible, "visible")]
            .filter { contains($0.0) }.map(\.1).joined(separator: "|")
    }
}

/// What a display job draws into: a canvas over a fresh bitmap of the node's bounds at `scale`.
public struct DrawContext {
    /// The canvas to draw with, in points: its transform already maps the node's bounds onto the
    /// bitmap's device pixels.
    public let canvas: Canvas
    /// The node's bounds in points (the canvas is already scaled to device pixels).
    public let bounds: Rect
    /// Device pixels per point of the bitmap (the window's scale): size images and hairlines by it.
    public let scale: Double
}

/// The base node: a thread-safe description of a rectangle of UI that lays itself out, draws
/// itself off the main thread and is shown through a `Layer` (Texture's ASDisplayNode).
///
/// **Threads.** Create and configure nodes on any thread: every property is guarded by the
/// node's one `lock` (subclasses use `lock.withLock` for their own state too; helpers that expect
/// it held are named `_locked…`). Setters only record state and mark the node dirty; the main
/// loop's node pass (`NodePass`) applies state to layers, lays out, and starts display jobs on
/// the display queues; the `TransactionCommitter` publishes their results. Layers are touched on
/// the main thread only.
///
/// **Drawing.** A subclass that draws overrides `drawParameters()` (main thread: capture an
/// immutable snapshot of what to draw) and the class method `draw(parameters:in:isCancelled:)`
/// (a display queue: draw from the parameters alone, never touching the node). This is
/// Texture's class-level draw: drawing cannot race with the node's mutation by construction.
///
/// **Layout.** Override `layoutSpecThatFits(_:)` (or set `layoutSpecBlock`) to arrange subnodes
/// with SilkLayout specs, or `calculateSizeThatFits(_:)` for a leaf that measures itself. Both
/// are called on any thread; results are cached per constrained size until `setNeedsLayout()`.
open class DisplayNode: LayoutElement, DebugNamedElement, @unchecked Sendable, CustomStringConvertible {
    /// The node's one lock: every property of the node reads and writes its state inside it.
    /// Subclasses keep their own state under it too (`lock.withLock { }`, helpers named
    /// `_locked…`), and never call out to other nodes or callbacks while holding it.
    public let lock = Lock()
    let displaySentinel = Sentinel()

    // MARK: State guarded by `lock`
    private var _name: String?
    private var _style = Style()
    private var _subnodes: [DisplayNode] = []
    private weak var _supernode: DisplayNode?
    private var _frame: Rect = .zero
    private var _boundsOrigin: Point = .zero
    private var _transform: SilkGeometry.AffineTransform = .identity
    private var _anchorPoint = Point(x: 0.5, y: 0.5)
    private var _pendingAnimations: [LayerAnimation] = []
    private var _backgroundColor: Color?
    private var _borderColor: Color?
    private var _borderWidth: Double = 0
    private var _cornerRadius: Double = 0
    private var _opacity: Double = 1
    private var _clipsToBounds = false
    private var _shadow: Shadow?
    private var _rendersAsGroup = false
    private var _cornerClipping: CornerClipping = .clip
    private var _isHidden = false
    private var _isOpaque = false
    private var _isUserInteractionEnabled = true
    private var _hitTestSlop: EdgeInsets = .zero
    private var _displaysAsynchronously = true
    private var _rasterizesSubtree = false
    private var _isTransactionContainer = false
    private var _placeholderEnabled = false
    private var _placeholderColor: Color? = Color(white: 0.9)
    private var _placeholderImage: Bitmap?
    private var _placeholderFadeDuration: Double = 0
    private var _neverShowPlaceholders = false
    private var _automaticallyManagesSubnodes = false
    private var _layoutSpecBlock: (@Sendable (DisplayNode, SizeRange) -> any LayoutElement)?
    private var _layoutVersion: UInt64 = 0
    private var _layoutCache: [(range: SizeRange, version: UInt64, direction: LayoutDirection, layout: Layout)] = []
    private var _layoutDirection = LayoutDirection.inherit   // inherit: not laid out yet
    private var _needsDisplay = true
    private var _interfaceState: InterfaceState = []
    private var _contentsScale: Double = 1
    private var _drawingPriority = 0
    private var _displayCompletions: [(after: UInt64, body: @Sendable () -> Void)] = []
    /// Accessibility properties (Accessibility/DisplayNode+Accessibility.swift).
    var _accessibility = AccessibilityStorage()
    /// Read under `lock` by the accessibility snapshot (AccessibilitySnapshot.swift).
    var _isHiddenForAccessibility: Bool { _isHidden }
    var _opacityForAccessibility: Double { _opacity }
    var frameSize: Size { _frame.size }

    /// Identifies the node to accessibility exporters: unique in the process and never reused,
    /// unlike the node's address. Any thread.
    public let accessibilityID: UInt64 = AccessibilityNotifications.idCounter.wrappingAdd(1, ordering: .relaxed).oldValue
    /// The theme set on this node (nil: inherited); read and written by `Theming.swift` under `lock`.
    var _themeOverride: Theme?

    // MARK: Main-thread state (the pass)
    /// The backing layer; created by the pass when the node is in a window. Main thread only.
    public private(set) var layer: Layer?
    var hasContents = false
    /// The pass that loaded `layer` (main thread).
    weak var loadedBy: NodePass?
    /// `didLoad()` ran (main thread): it runs once in the node's life.
    var didLoadRan = false
    /// Main thread: whether the node is in a window's tree, between `didEnterHierarchy()` and
    /// `didExitHierarchy()` (Texture's `isInHierarchy`).
    public internal(set) var isInHierarchy = false
    /// The sentinel value of the display job running on a display queue, until its result is
    /// applied (main thread; `recursivelyEnsureDisplaySynchronously` redraws such nodes).
    var displayJobInFlight: UInt64?
    /// Main thread: whether the node rasterized its subtree when the pass last applied it; a
    /// change makes the pass walk the whole subtree (its descendants' layers come or go).
    var walkedAsRasterizing = false

    /// Creates an empty node with no layer: the layer is created by the node pass of the window the
    /// node's tree is shown in. Any thread.
    public init() {}

    // MARK: Identity & style

    /// A name for debugging: the layer's name and `debugName` use it (`recursiveDescription`,
    /// layout debug output). Any thread.
    public var name: String? {
        get { lock.withLock { _name } }
        set { lock.withLock { _name = newValue } }
    }
    /// `name`, or the node's type name when unnamed.
    public var debugName: String { name ?? String(describing: type(of: self)) }

    /// Layout properties the parent's spec reads (size, flex, margins, position …) (Texture's
    /// `style`). Setting it invalidates layout. Any thread.
    public var style: Style {
        get { lock.withLock { _style } }
        set { updateStyle { $0 = newValue } }
    }

    /// Edits `style` in place: one lock, and one layout invalidation when the style changed.
    /// Setting a style to what it already is invalidates nothing, so a spec that sets its
    /// children's sizes while it is laid out (a tile sizing its photo to the constrained size)
    /// does not ask for another layout — before, each layout asked for the next and the kiosk
    /// demo relaid out on every loop iteration at full CPU. `body` runs under the node's lock,
    /// so it must not touch other nodes. Any thread.
    public func updateStyle(_ body: (inout Style) -> Void) {
        let changed = lock.withLock { () -> Bool in
            let old = _style
            body(&_style)
            return _style != old
        }
        if changed { setNeedsLayout() }
    }

    // MARK: Tree

    /// The subnodes, back to front (later subnodes draw on top and are hit-tested first). A
    /// snapshot copied under the lock; any thread.
    public var subnodes: [DisplayNode] { lock.withLock { _subnodes } }
    /// The node this one is a subnode of, or nil for a root or a detached node. Weak: the supernode
    /// owns its subnodes, not the reverse. Any thread.
    public var supernode: DisplayNode? { lock.withLock { _supernode } }

    /// Adds `node` on top of the subnodes, removing it from its previous supernode first
    /// (`ASDisplayNode`'s `-addSubnode:`). The new subnode takes this node's interface state, and
    /// the layout is invalidated. Any thread; nodes with `automaticallyManagesSubnodes` manage
    /// their subnodes from the layout spec instead.
    public func addSubnode(_ node: DisplayNode) { insertSubnode(node, at: Int.max) }

    /// Inserts `node` at `index` (clamped) among the subnodes: later subnodes draw on top. Any
    /// thread.
    public func insertSubnode(_ node: DisplayNode, at index: Int) {
        precondition(node !== self, "a node cannot be its own subnode")
        node.removeFromSupernode()
        lock.withLock { _subnodes.insert(node, at: max(0, min(index, _subnodes.count))) }
        node.lock.withLock { node._supernode = self }
        let state = interfaceState
        node.enterInterfaceState(state)
        setNeedsLayout()
        markDirty()
        AccessibilityNotifications.post(.children, for: self)
    }

    /// Removes the node from its supernode: it leaves every interface state, its display jobs (and
    /// its subtree's) are cancelled, and its layers leave the window at the next pass. Any thread.
    public func removeFromSupernode() {
        guard let parent = supernode else { return }
        parent.lock.withLock { parent._subnodes.removeAll { $0 === self } }
        lock.withLock { _supernode = nil }
        exitInterfaceState(.inHierarchy)
        preventOrCancelDisplay(recursively: true)
        parent.setNeedsLayout()
        parent.markDirty()
        markDirty()
        AccessibilityNotifications.post(.children, for: parent)
    }

    /// Moves an existing subnode to `index` (z-order). Any thread.
    public func moveSubnode(_ node: DisplayNode, to index: Int) {
        lock.withLock {
            guard let i = _subnodes.firstIndex(where: { $0 === node }) else { return }
            _subnodes.remove(at: i)
            _subnodes.insert(node, at: max(0, min(index, _subnodes.count)))
        }
        markDirty()
    }

    /// Subnodes follow the layout: nodes in the spec are added in spec order, others removed, at
    /// each layout in the node pass (Texture's `automaticallyManagesSubnodes`). Any thread.
    public var automaticallyManagesSubnodes: Bool {
        get { lock.withLock { _automaticallyManagesSubnodes } }
        set { lock.withLock { _automaticallyManagesSubnodes = newValue }; setNeedsLayout() }
    }

    // MARK: Geometry

    /// Frame in the supernode's coordinate space (points). Layout sets it in the node pass; set it
    /// yourself only for nodes no spec places. A new size redraws the contents. Any thread.
    public var frame: Rect {
        get { lock.withLock { _frame } }
        set {
            let (changed, changedSize) = lock.withLock { () -> (Bool, Bool) in
                defer { _frame = newValue }
                return (_frame != newValue, _frame.size != newValue.size)
            }
            // Cached layouts are keyed by constrained size, so a new frame does not invalidate
            // them; it does make the drawn contents stale.
            if changedSize { setNeedsDisplay() }
            // Layout sets every frame it computes; only a new one is work for the pass, which
            // applies dirty nodes only.
            if changed { markDirty() }
        }
    }
    /// The size of the node at the origin (0, 0): its own coordinate space. See `boundsOrigin`.
    public var bounds: Rect { Rect(size: frame.size) }
    /// Shifts the subnodes' coordinate space (a scroll offset): subnode at y = 500 shows at the top
    /// when `boundsOrigin.y` is 500. Scrolling moves layers; nothing is redrawn. Any thread.
    public var boundsOrigin: Point {
        get { lock.withLock { _boundsOrigin } }
        set { lock.withLock { _boundsOrigin = newValue }; markDirty() }
    }
    /// The centre of `frame`, in the supernode's coordinates (points); setting it moves the frame
    /// and keeps its size. Any thread.
    public var position: Point {
        get { let f = frame; return Point(x: f.midX, y: f.midY) }
        set { let f = frame; frame = Rect(x: newValue.x - f.width / 2, y: newValue.y - f.height / 2, width: f.width, height: f.height) }
    }

    /// Rotates, scales or translates the node as drawn, about its ``anchorPoint`` (the centre by
    /// default), without changing its frame or its layout (CALayer's `affineTransform`). Hit
    /// testing and point conversion follow it: a rotated, scaled button takes touches where it
    /// is drawn. A singular transform (a zero scale) draws nothing and takes no touches. Not
    /// applied inside a rasterized subtree. Any thread.
    public var transform: SilkGeometry.AffineTransform {
        get { lock.withLock { _transform } }
        set {
            let ok = [newValue.a, newValue.b, newValue.c, newValue.d, newValue.tx, newValue.ty].allSatisfy(\.isFinite)
            lock.withLock { _transform = ok ? newValue : .identity }
            markDirty()
        }
    }
    /// The point, in unit coordinates of the bounds ((0, 0) top left, (1, 1) bottom right), that
    /// ``transform`` rotates and scales about. Default (0.5, 0.5); the frame stays put when it
    /// changes (unlike CALayer, whose position stays). Non-finite values become 0.5. Any thread.
    public var anchorPoint: Point {
        get { lock.withLock { _anchorPoint } }
        set {
            let p = Point(x: newValue.x.isFinite ? newValue.x : 0.5, y: newValue.y.isFinite ? newValue.y : 0.5)
            lock.withLock { _anchorPoint = p }
            markDirty()
        }
    }

    /// The transform from this node's bounds coordinates into its supernode's subnode space:
    /// frame origin, then ``transform`` about the anchor point. Any thread.
    var transformToSupernode: SilkGeometry.AffineTransform {
        let (f, t, anchor) = lock.withLock { (_frame, _transform, _anchorPoint) }
        if t.isIdentity { return SilkGeometry.AffineTransform(translationX: f.minX, y: f.minY) }
        let ax = f.width * anchor.x, ay = f.height * anchor.y
        return SilkGeometry.AffineTransform(translationX: -ax, y: -ay).concatenating(t)
            .concatenating(SilkGeometry.AffineTransform(translationX: f.minX + ax, y: f.minY + ay))
    }

    // MARK: Animations

    /// Adds `animation` to the node's layer at the next node pass, after the node's state is
    /// copied to the layer (so a `to: nil` end means the node's new value). Replaces the
    /// node's pending or running animation of the same property (whose completion hears
    /// `false`). Any thread; the layer itself
    /// is touched on the main thread only.
    public func addAnimation(_ animation: LayerAnimation) {
        let replaced = lock.withLock { () -> [LayerAnimation] in
            let old = _pendingAnimations.filter { $0.property.key == animation.property.key }
            _pendingAnimations.removeAll { $0.property.key == animation.property.key }
            _pendingAnimations.append(animation)
            return old
        }
        // A pending animation replaced before it reached the layer ends unfinished.
        for old in replaced { old.completion.map { c in performOnPassThread { c(false) } } }
        markDirty()
    }

    /// Main thread (the node pass): hands the animations queued by `addAnimation` to the layer.
    func applyPendingAnimations() {
        guard let layer else { return }
        let pending = lock.withLock { () -> [LayerAnimation] in
            defer { _pendingAnimations = [] }
            return _pendingAnimations
        }
        for a in pending { layer.add(a) }
    }

    // MARK: Appearance (layer properties; not drawn unless the subtree is rasterized)

    /// Fills the bounds behind the node's contents (a layer property: changing it draws nothing,
    /// unless an ancestor rasterizes the subtree). Nil: transparent. Any thread.
    public var backgroundColor: Color? {
        get { lock.withLock { _backgroundColor } }
        set { lock.withLock { _backgroundColor = newValue }; markDirty(redrawIfRasterized: true) }
    }
    /// The colour of the border drawn inside the bounds, `borderWidth` wide; nil draws none. A
    /// layer property, like `backgroundColor`. Any thread.
    public var borderColor: Color? {
        get { lock.withLock { _borderColor } }
        set { lock.withLock { _borderColor = newValue }; markDirty(redrawIfRasterized: true) }
    }
    /// Width of the border in points (non-finite values become 0). Any thread.
    public var borderWidth: Double {
        get { lock.withLock { _borderWidth } }
        set { lock.withLock { _borderWidth = max(0, newValue.isFinite ? newValue : 0) }; markDirty(redrawIfRasterized: true) }
    }
    /// Radius of the rounded corners in points: the background and border are rounded, and with
    /// `clipsToBounds` the node's own contents and its subnodes too (see `cornerClipping`; under
    /// a rotation subnodes are clipped to the bounding box). Any thread.
    public var cornerRadius: Double {
        get { lock.withLock { _cornerRadius } }
        set { lock.withLock { _cornerRadius = max(0, newValue.isFinite ? newValue : 0) }; markDirty(redrawIfRasterized: true) }
    }
    /// Opacity from 0 to 1, multiplied with the ancestors' (per layer unless `rendersAsGroup`). Below
    /// 0.01 the node takes no touches. Any thread.
    public var opacity: Double {
        get { lock.withLock { _opacity } }
        set { lock.withLock { _opacity = min(1, max(0, newValue.isFinite ? newValue : 1)) }; markDirty(redrawIfRasterized: true) }
    }
    /// Whether the contents and subnodes are cut off at the (rounded, see `cornerClipping`)
    /// bounds. Hit testing follows the rectangle: nothing outside a clipping ancestor takes
    /// touches. Any thread.
    public var clipsToBounds: Bool {
        get { lock.withLock { _clipsToBounds } }
        set { lock.withLock { _clipsToBounds = newValue }; markDirty(redrawIfRasterized: true) }
    }
    /// A drop shadow under the node's (rounded) bounds, CSS's box-shadow: colour, offset, blur
    /// radius and spread (nil: none). Drawn by the compositor, so it costs no display job (not
    /// `TextNode.shadow`, which shadows the glyphs). Any thread.
    public var boxShadow: Shadow? {
        get { lock.withLock { _shadow } }
        set { lock.withLock { _shadow = newValue }; markDirty(redrawIfRasterized: true) }
    }
    /// With an opacity below 1, the node and its subnodes are blended as one picture (group
    /// opacity) instead of each at that opacity, so overlapping subnodes do not show through each
    /// other. Off by default. Any thread.
    public var rendersAsGroup: Bool {
        get { lock.withLock { _rendersAsGroup } }
        set { lock.withLock { _rendersAsGroup = newValue }; markDirty(redrawIfRasterized: true) }
    }
    /// How subnodes are rounded when `clipsToBounds` and `cornerRadius` are set (Texture's
    /// corner rounding types): `.clip` (default) masks them offscreen; `.precomposited(color)`
    /// paints the corners in the colour behind the node, cheaper but right only on that colour.
    /// Any thread.
    public var cornerClipping: CornerClipping {
        get { lock.withLock { _cornerClipping } }
        set { lock.withLock { _cornerClipping = newValue }; markDirty(redrawIfRasterized: true) }
    }
    /// Hides the node and its subtree; hidden nodes take no touches and leave the focus chain. The
    /// contents are kept, so showing it again costs nothing. Any thread.
    public var isHidden: Bool {
        get { lock.withLock { _isHidden } }
        set { lock.withLock { _isHidden = newValue }; markDirty(redrawIfRasterized: true) }
    }
    /// Declares that the node paints every pixel of its bounds opaquely, so the compositor skips
    /// repainting what is behind it. Set it only when true: a node that does not cover its bounds
    /// would show stale pixels there. Any thread.
    public var isOpaque: Bool {
        get { lock.withLock { _isOpaque } }
        set { lock.withLock { _isOpaque = newValue }; markDirty() }
    }
    /// Whether the node and its subtree take touches, scrolls and focus; when false, touches fall
    /// through to what is behind. Default true. Any thread.
    public var isUserInteractionEnabled: Bool {
        get { lock.withLock { _isUserInteractionEnabled } }
        set { lock.withLock { _isUserInteractionEnabled = newValue } }
    }
    /// Extends (negative insets) or shrinks (positive) the area that receives touches, in points
    /// (Texture's `hitTestSlop`). Any thread.
    public var hitTestSlop: EdgeInsets {
        get { lock.withLock { _hitTestSlop } }
        set { lock.withLock { _hitTestSlop = newValue } }
    }

    // MARK: Display configuration

    /// Draw on a display queue (default) or synchronously on main during the node pass.
    public var displaysAsynchronously: Bool {
        get { lock.withLock { _displaysAsynchronously } }
        set { lock.withLock { _displaysAsynchronously = newValue } }
    }
    /// Draw this node and all its descendants into one bitmap in one job (Texture's
    /// `shouldRasterizeDescendants`): descendants get no layers of their own. Any thread.
    public var rasterizesSubtree: Bool {
        get { lock.withLock { _rasterizesSubtree } }
        set { lock.withLock { _rasterizesSubtree = newValue }; setNeedsDisplay(); markDirty() }
    }
    /// Gather the display results of this subtree into one transaction, so it appears in one frame.
    /// Any thread.
    public var isTransactionContainer: Bool {
        get { lock.withLock { _isTransactionContainer } }
        set { lock.withLock { _isTransactionContainer = newValue } }
    }
    /// While contents are pending, show `placeholderImage` or `placeholderColor` (Texture's
    /// `placeholderEnabled`). Any thread.
    public var placeholderEnabled: Bool {
        get { lock.withLock { _placeholderEnabled } }
        set { lock.withLock { _placeholderEnabled = newValue }; markDirty() }
    }
    /// The colour shown while `placeholderEnabled` and contents are pending (default light grey,
    /// white 0.9); nil shows nothing. Any thread.
    public var placeholderColor: Color? {
        get { lock.withLock { _placeholderColor } }
        set { lock.withLock { _placeholderColor = newValue }; markDirty() }
    }
    /// Shown (aspect-filled) instead of `placeholderColor` while contents are pending. Any thread.
    public var placeholderImage: Bitmap? {
        get { lock.withLock { _placeholderImage } }
        set { lock.withLock { _placeholderImage = newValue }; markDirty() }
    }
    /// Seconds the contents fade in over the placeholder when they arrive (0: at once). Any thread.
    public var placeholderFadeDuration: Double {
        get { lock.withLock { _placeholderFadeDuration } }
        set { lock.withLock { _placeholderFadeDuration = max(0, newValue.isFinite ? newValue : 0) } }
    }
    /// When this node's subtree starts displaying, the main thread waits for all of it
    /// (drawing concurrently on the display queues) instead of showing placeholders.
    public var neverShowPlaceholders: Bool {
        get { lock.withLock { _neverShowPlaceholders } }
        set { lock.withLock { _neverShowPlaceholders = newValue } }
    }

    // MARK: Subclass drawing API

    /// Whether instances draw content: override it to return true in a node that implements
    /// `draw(parameters:in:isCancelled:)`. Read on any thread.
    open class var drawsContent: Bool { false }

    /// Main thread: an immutable snapshot of what to draw. Read your properties here (they
    /// lock); the snapshot is handed to `draw(parameters:in:isCancelled:)` on a display queue.
    open func drawParameters() -> (any Sendable)? { nil }

    /// A display queue: draw `parameters` into `context`. Must not touch the node. Check
    /// `isCancelled()` between expensive steps and return early (or throw) when it is true.
    open class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {}

    /// A display queue, before a bitmap is allocated for `draw(parameters:in:isCancelled:)`: a
    /// bitmap that already holds exactly what `draw` would put into a transparent bitmap of `size`
    /// points at `scale`, for the layer to show as it is (nil, the default: draw). An image node
    /// whose image is at its pixel size answers with a view of that image, so the photo is not
    /// held twice. The bitmap's pixels must not change afterwards; it must not be one another
    /// thread may be drawing from (return a view: `Bitmap(wrapping:…owner:)`). Not asked for
    /// nodes inside a rasterized subtree. Must not touch the node.
    open class func readyContents(parameters: (any Sendable)?, size: Size, scale: Double) -> Bitmap? { nil }

    /// Marks the contents stale: a new display job starts at the next pass and the running one, if
    /// any, is cancelled (Texture's `-setNeedsDisplay`). Any thread.
    public func setNeedsDisplay() {
        lock.withLock { _needsDisplay = true }
        displaySentinel.increment()
        if let container = rasterizingAncestor() { container.setNeedsDisplay() }
        markDirty()
    }
    /// `setNeedsDisplay()`, then `completion` on the main (pass) thread once contents drawn after
    /// this call are on the node's layer — right after `displayDidFinish()`. A node that draws
    /// nothing itself (no `drawsContent`, not rasterizing) calls it at the next pass. A node
    /// outside the display range keeps the completion until it displays again; a display that
    /// fails still completes (see `lastDisplayError`). Any thread.
    public func setNeedsDisplay(completion: @escaping @Sendable () -> Void) {
        // Inside a rasterized subtree the rasterizing ancestor's job draws this node.
        let drawer = rasterizingAncestor() ?? self
        guard type(of: drawer).drawsContent || drawer.rasterizesSubtree else {
            setNeedsDisplay()
            NodeScheduler.shared.enqueueForNextPass(owner: self, completion)
            return
        }
        setNeedsDisplay()
        let generation = drawer.displaySentinel.increment()
        drawer.lock.withLock { drawer._displayCompletions.append((generation, completion)) }
    }

    /// Removes and returns the completions a result of the job started at `sentinelValue`
    /// satisfies (those registered before the job started). Main thread, the committer.
    func _takeDisplayCompletions(satisfiedBy sentinelValue: UInt64) -> [@Sendable () -> Void] {
        lock.withLock {
            guard !_displayCompletions.isEmpty else { return [] }
            let done = _displayCompletions.filter { $0.after < sentinelValue }.map(\.body)
            _displayCompletions.removeAll { $0.after < sentinelValue }
            return done
        }
    }

    /// The order display jobs start in when the display queues are busy: higher first; equal
    /// priorities keep the order the node pass started them in (tree order). Default 0;
    /// Texture's `drawingPriority` (text above images there: give a headline a higher number
    /// than its photo to see words first). Read by the node pass when it starts a job. Any thread.
    public var drawingPriority: Int {
        get { lock.withLock { _drawingPriority } }
        set { lock.withLock { _drawingPriority = newValue } }
    }

    var needsDisplay: Bool { lock.withLock { _needsDisplay } }
    func clearNeedsDisplay() { lock.withLock { _needsDisplay = false } }

    /// Cancels the running display job (and, `recursively`, those of the subtree); the node draws
    /// again at its next pass. Any thread.
    public func preventOrCancelDisplay(recursively: Bool = false) {
        displaySentinel.increment()
        lock.withLock { _needsDisplay = true }
        if recursively { for n in subnodes { n.preventOrCancelDisplay(recursively: true) } }
    }

    // MARK: Layout

    /// Builds a layout spec for `constrainedSize`. Called on any thread; read state through the
    /// locked properties. Default: `layoutSpecBlock`, or nil (a leaf).
    open func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        lock.withLock { _layoutSpecBlock }.map { $0(self, constrainedSize) }
    }

    /// Set instead of subclassing to provide a layout spec (Texture's `layoutSpecBlock`). Called on
    /// any thread, like `layoutSpecThatFits(_:)`, with the node itself: use that rather than
    /// capturing the node, which would keep it alive.
    public var layoutSpecBlock: (@Sendable (DisplayNode, SizeRange) -> any LayoutElement)? {
        get { lock.withLock { _layoutSpecBlock } }
        set { lock.withLock { _layoutSpecBlock = newValue }; setNeedsLayout() }
    }

    /// A leaf's own size for `constrainedSize` (any thread). Default: zero (the style sizes apply).
    open func calculateSizeThatFits(_ constrainedSize: Size) -> Size { .zero }

    // MARK: Layout transitions (LayoutTransition.swift)

    /// Main thread: the transition whose animation is running, until it completes.
    var activeLayoutTransition: LayoutTransitionContext?
    /// Main thread: the node is a removed subnode of a running layout transition; layout keeps it
    /// until the transition completes (it fades out meanwhile).
    var isLeavingInTransition = false
    /// Counts `transitionLayout` calls, so a measurement that a newer call overtook is dropped.
    var transitionGeneration: Locked<UInt64> { _transitionGeneration }
    private let _transitionGeneration = Locked<UInt64>(0)

    /// Main thread: animates a layout transition of this node's subnodes (Texture's
    /// `-animateLayoutTransition:`). `context` gives each subnode's initial and final frame and
    /// the inserted and removed subnodes; the new frames are already set (as model values) and
    /// inserted subnodes added, removed ones still present. Call
    /// `context.completeTransition(didComplete:)` when done, which removes the removed subnodes.
    /// The default fades inserted subnodes in, removed ones out, and moves and resizes the rest
    /// from where they are on screen, over `context.duration` with `context.timing`.
    open func animateLayoutTransition(_ context: LayoutTransitionContext) {
        context.runDefaultAnimation()
    }

    /// Main thread: a layout transition of this node completed (`didComplete` false when it was
    /// interrupted by another or not animated to the end); removed subnodes are gone. Default:
    /// nothing (Texture's `-didCompleteLayoutTransition:`).
    open func didCompleteLayoutTransition(_ context: LayoutTransitionContext) {}

    /// Main thread, during the node pass: the layout gave this node its frame and placed the
    /// subnodes its spec arranges. A node that places subnodes by hand (outside its spec — an
    /// editor's caret and scrolled text) does it here (Texture's `-layout`). Default: nothing.
    open func layoutDidFinish() {}

    /// Main thread, in the node pass: the node's layer took a new size (also its first) — the
    /// frame changed by a layout, by a container placing the node (a collection's cell), or set
    /// by hand — before the contents are redrawn at it. Work that follows the size and must not
    /// wait for the redraw goes here (a video asks its decoder for frames at the new size).
    /// Read `bounds` and `displayScale`. Default: nothing.
    open func sizeDidChange() {}

    /// Lays the node out in `constrainedSize` (points): its layout spec's layout, or its own size
    /// from `calculateSizeThatFits(_:)`, clamped to the range. Results are cached per constrained
    /// size until `setNeedsLayout()`. Any thread; the node pass calls it for the window's root, and
    /// parent specs for their children. Override `layoutSpecThatFits(_:)` or
    /// `calculateSizeThatFits(_:)` instead of this.
    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let direction = context.direction
        // The node's resolved direction is kept for what it measures and draws (text's natural
        // alignment); contents drawn in the other direction are stale.
        let (version, previousDirection) = lock.withLock { () -> (UInt64, LayoutDirection) in
            let old = _layoutDirection; _layoutDirection = direction; return (_layoutVersion, old)
        }
        if previousDirection != .inherit && previousDirection != direction && type(of: self).drawsContent { setNeedsDisplay() }
        if let hit = lock.withLock({ _layoutCache.first { $0.range == constrainedSize && $0.version == version && $0.direction == direction } }) {
            return hit.layout.attached(to: self)
        }
        let layout: Layout
        if let spec = layoutSpecThatFits(constrainedSize) {
            let inner = try spec.layoutThatFits(constrainedSize, parentSize: constrainedSize.max, context: context)
            layout = Layout(element: self, size: constrainedSize.clamp(inner.size), sublayouts: [inner])
        } else {
            layout = Layout(element: self, size: constrainedSize.clamp(calculateSizeThatFits(constrainedSize.max)),
                            baselines: layoutBaselines(forWidth: constrainedSize.max.width))
        }
        lock.withLock {
            if _layoutVersion == version {
                if _layoutCache.count >= 4 { _layoutCache.removeFirst() }
                // Detached: a cached layout naming this node would keep it alive forever.
                _layoutCache.append((constrainedSize, version, direction, layout.detachedFromElement))
            }
        }
        return layout
    }

    /// The inline direction this node was last laid out in: its `style.direction` resolved against
    /// its parent's (or the pass's default, `LayoutDirection.applicationDefault` for a window's
    /// tree), `.ltr` or `.rtl`. Before its first layout, its own `style.direction` resolved
    /// against the application default. Text nodes align `natural` paragraphs by it. Any thread.
    public var layoutDirection: LayoutDirection {
        let d = lock.withLock { _layoutDirection }
        return d != .inherit ? d : style.direction.resolved(parent: .applicationDefault)
    }

    /// The first and last text baselines of this node measured at `width` (after
    /// `calculateSizeThatFits`), for stacks aligning `baselineFirst`/`baselineLast`. Default: nil
    /// (no text: stacks use the bottom edge or `style.ascender`). Any thread.
    open func layoutBaselines(forWidth width: Double) -> LayoutBaselines? { nil }

    /// Invalidates this node's cached layouts and its ancestors' (their layout depends on this
    /// node's size), and asks for a pass (Texture's `-setNeedsLayout`). Any thread.
    public func setNeedsLayout() {
        var node: DisplayNode? = self
        while let n = node {
            n.lock.withLock { n._layoutVersion &+= 1; n._layoutCache.removeAll() }
            node = n.supernode
        }
        NodeScheduler.shared.setNeedsLayout(root: rootNode)
        markDirty()
    }

    var layoutVersion: UInt64 { lock.withLock { _layoutVersion } }

    var rootNode: DisplayNode {
        var n = self
        while let p = n.supernode { n = p }
        return n
    }

    // MARK: Interface state

    /// Where the node is relative to the screen: set by its window (all four states) or a
    /// container's range controller, with the transitions' hooks called on the main thread. Any
    /// thread.
    public var interfaceState: InterfaceState { lock.withLock { _interfaceState } }

    /// Sets the node's (and its subtree's) interface state; called by windows and range
    /// controllers, and by tests that show a node without a window. The hooks of the states entered
    /// and left run on the main thread. Any thread.
    public func setInterfaceState(_ new: InterfaceState, recursively: Bool = true) {
        let old = lock.withLock { () -> InterfaceState in let o = _interfaceState; _interfaceState = new; return o }
        if old != new { interfaceStateDidChange(from: old, to: new) }
        if recursively { for n in subnodes { n.setInterfaceState(new, recursively: true) } }
    }

    func enterInterfaceState(_ s: InterfaceState) { setInterfaceState(s) }
    func exitInterfaceState(_ s: InterfaceState) { setInterfaceState(interfaceState.subtracting(s)) }

    private func interfaceStateDidChange(from old: InterfaceState, to new: InterfaceState) {
        let entered = new.subtracting(old), exited = old.subtracting(new)
        performOnPassThread { [self] in
            if entered.contains(.preload) { didEnterPreloadState() }
            if entered.contains(.display) { didEnterDisplayState(); setNeedsDisplayIfNoContents() }
            if entered.contains(.visible) { didEnterVisibleState() }
            if exited.contains(.visible) { didExitVisibleState() }
            if exited.contains(.display) { displaySentinel.increment(); clearContents(); didExitDisplayState() }
            if exited.contains(.preload) { didExitPreloadState() }
        }
    }

    /// Releases the drawn contents (main thread): a node that leaves the display range keeps no
    /// bitmap; it redraws when it enters the range again (Texture's `clearContents`). The
    /// placeholder shows meanwhile.
    func clearContents() {
        guard Self.drawsContent || rasterizesSubtree else { return }
        lock.withLock { _needsDisplay = true }
        guard let layer, hasContents || layer.contents != nil else { return }
        hasContents = false
        layer.contents = nil
        layer.removeAllAnimations()
        applyStateToLayer()
    }

    /// Main thread, called by the node pass after it applied `layout` to this node's subnodes
    /// (containers position their items here).
    func layoutDidApply(_ layout: Layout) {}

    // MARK: Container attachment (main thread)

    /// Adds `node` as a subnode already in `state`, without invalidating this node's layout:
    /// containers attach items they position themselves.
    func attachItem(_ node: DisplayNode, state: InterfaceState) {
        if node.supernode !== self { node.removeFromSupernode() }
        lock.withLock { if !_subnodes.contains(where: { $0 === node }) { _subnodes.append(node) } }
        node.lock.withLock { node._supernode = self }
        node.setInterfaceState(state)
        node.markDirty()
        markDirty()
    }

    /// Inserts `node` at `index` (clamped) in the display state of this node, without
    /// invalidating this node's layout: a layout transition adds the subnodes of a layout it has
    /// already measured. Main thread.
    func insertSubnodeKeepingLayout(_ node: DisplayNode, at index: Int) {
        if node.supernode !== self { node.removeFromSupernode() }
        lock.withLock {
            _subnodes.removeAll { $0 === node }
            _subnodes.insert(node, at: max(0, min(index, _subnodes.count)))
        }
        node.lock.withLock { node._supernode = self }
        node.setInterfaceState(interfaceState)
        node.markDirty()
        markDirty()
    }

    /// Bumps the layout version of this node and its ancestors (their cached layouts hold this
    /// node's) without asking the pass for a layout: a layout transition measures and applies
    /// the new layout itself. Any thread.
    func invalidateLayoutCachesWithoutLayout() {
        var node: DisplayNode? = self
        while let n = node {
            n.lock.withLock { n._layoutVersion &+= 1; n._layoutCache.removeAll() }
            node = n.supernode
        }
    }

    /// Removes an item attached with `attachItem`: it leaves every interface state (its display
    /// jobs are cancelled and its contents released) without invalidating the container's layout.
    func detachItem(_ node: DisplayNode) {
        guard node.supernode === self else { return }
        lock.withLock { _subnodes.removeAll { $0 === node } }
        node.lock.withLock { node._supernode = nil }
        node.setInterfaceState([])
        node.preventOrCancelDisplay(recursively: true)
        node.markDirty()
        markDirty()
    }

    /// Entering the display range: a node with nothing drawn (or a redraw asked for while it was
    /// out of range) is dirty, so the pass — which visits dirty nodes only — starts its job.
    private func setNeedsDisplayIfNoContents() {
        guard Self.drawsContent || rasterizesSubtree else { return }
        if !hasContents { lock.withLock { _needsDisplay = true }; markDirty() }
        else if needsDisplay { markDirty() }
    }

    /// Main thread: device pixels per point of the window (pass) showing this node's tree, 1
    /// when it is in none. Nodes that prepare content ahead of display (a network image
    /// decoding at its pixel size) read it when they enter the preload state.
    public var displayScale: Double { rootNode.loadedBy?.scale ?? 1 }

    /// Main thread. Override points (call super is not required). Range controllers drive
    /// them through `setInterfaceState`; a node in a window without one gets all four on
    /// entering the tree and leaves them all on `removeFromSupernode`. A network image starts
    /// its download in `didEnterPreloadState` and cancels it in `didExitPreloadState`.
    open func didEnterPreloadState() {}
    /// Main thread: the node left the preload range (cancel downloads, drop prefetched data).
    /// Texture's `-didExitPreloadState`.
    open func didExitPreloadState() {}
    /// Main thread: the node entered the display range; a display job follows if it has no
    /// contents. Texture's `-didEnterDisplayState`.
    open func didEnterDisplayState() {}
    /// Main thread: the node left the display range; its display job was cancelled and its contents
    /// released before this is called. Texture's `-didExitDisplayState`.
    open func didExitDisplayState() {}
    /// Main thread: the node came on screen (start animations, count an impression). Texture's
    /// `-didEnterVisibleState`.
    open func didEnterVisibleState() {}
    /// Main thread: the node went off screen. Texture's `-didExitVisibleState`.
    open func didExitVisibleState() {}

    // MARK: Dirty tracking

    func markDirty(redrawIfRasterized: Bool = false) {
        if redrawIfRasterized, let r = rasterizingAncestor() { r.setNeedsDisplay() }
        NodeScheduler.shared.markDirty(self)
    }

    /// The nearest ancestor (not self) that rasterizes its subtree, if any.
    func rasterizingAncestor() -> DisplayNode? {
        var n = supernode
        while let p = n {
            if p.rasterizesSubtree { return p }
            n = p.supernode
        }
        return nil
    }

    // MARK: Main-thread application (called by NodePass)

    /// Creates the backing layer if needed (main thread).
    func loadLayer() -> Layer {
        if let layer { return layer }
        let l = Layer()
        l.name = debugName
        layer = l
        if !didLoadRan {
            didLoadRan = true
            didLoad()
        }
        return l
    }

    /// Drops the layer (node left the window).
    func unloadLayer() {
        layer?.removeFromSuperlayer()
        layer = nil
        loadedBy = nil
        hasContents = false
        displayJobInFlight = nil
        // The contents went with the layer: a layer made again (an ancestor stopped rasterizing,
        // the node came back to a window) is drawn again.
        if Self.drawsContent || rasterizesSubtree { lock.withLock { _needsDisplay = true } }
    }

    /// Main thread, from the node pass: the node joined (`entering`) or left a window's tree.
    func setInHierarchy(_ entering: Bool) {
        guard isInHierarchy != entering else { return }
        isInHierarchy = entering
        if entering { didEnterHierarchy() } else { didExitHierarchy() }
    }

    // MARK: Lifecycle hooks (Texture's ASDisplayNode+Subclasses)

    /// Main thread, once in the node's life: its layer was just created (Texture's `-didLoad`),
    /// by the node pass of the window its tree is shown in, before `didEnterHierarchy()`.
    /// Set up what needs the layer here (`layer` is non-nil). Default: nothing.
    open func didLoad() {}
    /// Main thread: the node joined a window's tree — the node pass reached it for the first time
    /// since it was added (Texture's `-didEnterHierarchy`). Default: nothing.
    open func didEnterHierarchy() {}
    /// Main thread: the node left its window's tree — removed from its supernode, or its window's
    /// root was replaced — at the pass after the removal (Texture's `-didExitHierarchy`).
    /// Default: nothing.
    open func didExitHierarchy() {}
    /// Main thread: a display job for this node is about to start (on a display queue, or right
    /// here when drawing synchronously); `drawParameters()` is read right after (Texture's
    /// `-displayWillStartAsynchronously:`). Default: nothing.
    open func displayWillStart() {}
    /// Main thread: the committer put a display job's contents on this node's layer (or
    /// recorded its failure) (Texture's `-displayDidFinish`). Completions passed to
    /// `setNeedsDisplay(completion:)` run right after. Default: nothing.
    open func displayDidFinish() {}
    /// Main thread: every display job of this transaction container's subtree started in one pass
    /// finished, and their contents appeared together (Texture's `-hierarchyDisplayDidFinish`).
    /// Called on nodes with `isTransactionContainer` or `neverShowPlaceholders` only. Default:
    /// nothing.
    open func hierarchyDisplayDidFinish() {}

    /// Draws this node's subtree now, on the calling (main) thread, and puts the contents on the
    /// layers before returning (Texture's `-recursivelyEnsureDisplaySynchronously:`): for a
    /// screenshot, or before a transition shows a screen that must not flash placeholders. Lays
    /// the tree out first if that is pending. Nodes whose job is running on a display queue are
    /// drawn again here (the queue's result is then dropped as stale); nodes outside the display
    /// range are left alone. Does nothing for a node in no window's tree. Costs the whole
    /// subtree's drawing time on the main thread: use it sparingly. Main thread.
    public func recursivelyEnsureDisplaySynchronously() {
        guard let pass = rootNode.loadedBy else { return }
        pass.displaySynchronously(self)
    }

    /// Copies node state to the layer (main thread).
    func applyStateToLayer() {
        guard let layer else { return }
        let s = lock.withLock { (frame: _frame, origin: _boundsOrigin, transform: _transform, anchor: _anchorPoint, bg: _backgroundColor, bc: _borderColor, bw: _borderWidth, cr: _cornerRadius,
                                 op: _opacity, clip: _clipsToBounds, hidden: _isHidden, opaque: _isOpaque,
                                 placeholder: _placeholderEnabled ? _placeholderColor : nil,
                                 placeholderImage: _placeholderEnabled ? _placeholderImage : nil, raster: _rasterizesSubtree,
                                 shadow: _shadow, group: _rendersAsGroup, corners: _cornerClipping) }
        layer.anchorPoint = s.anchor
        layer.shadow = s.shadow
        layer.rendersAsGroup = s.group
        layer.cornerClipping = s.corners
        // Told once the layer holds all of the node's state.
        let resized = layer.frame.size != s.frame.size
        defer { if resized { sizeDidChange() } }
        layer.frame = s.frame
        layer.bounds.origin = s.origin
        layer.transform = s.transform
        layer.opacity = s.op
        layer.isHidden = s.hidden
        layer.clipsToBounds = s.clip
        layer.cornerRadius = s.cr
        if s.raster {
            // Background, border and corners are drawn into the rasterized bitmap.
            layer.backgroundColor = hasContents ? nil : s.placeholder
            layer.borderColor = nil
            layer.borderWidth = 0
        } else {
            layer.backgroundColor = s.bg ?? (hasContents || !Self.drawsContent ? nil : s.placeholder)
            layer.borderColor = s.bc
            layer.borderWidth = s.bw
        }
        // Input: keyboard focus is drawn as a border over the node's own (FocusRing.swift).
        if showsFocusRing { layer.borderColor = focusRingColor; layer.borderWidth = FocusRing.width }
        layer.isOpaque = s.opaque
        // A placeholder image stands in for the contents until they arrive.
        if !hasContents, type(of: self).drawsContent || s.raster {
            if let image = s.placeholderImage {
                if layer.contents !== image {
                    layer.contents = image
                    layer.contentsGravity = .aspectFill
                    layer.contentsScale = 1
                }
            } else if layer.contents != nil {
                layer.contents = nil
            }
        }
    }

    /// Why the last display job produced nothing (its `draw` threw, or its bitmap could not
    /// be allocated); nil after a successful draw. The node shows nothing or its placeholder.
    public var lastDisplayError: String? { lock.withLock { _lastDisplayError } }
    private var _lastDisplayError: String?

    /// Records a display job's outcome (main thread, the committer). A new failure is reported
    /// on stderr once — a kiosk's log must not fill with the same line every frame. Returns
    /// whether the job failed.
    func _recordDisplayError(_ error: String?) -> Bool {
        let isNew = lock.withLock { () -> Bool in
            defer { _lastDisplayError = error }
            return error != nil && error != _lastDisplayError
        }
        if isNew, let error {
            logger.error("display of \(debugName) failed: \(error)")
        }
        return error != nil
    }

    /// Publishes a display result (main thread, from the committer).
    func _applyDisplayResult(_ contents: Bitmap?, scale: Double) {
        displayJobInFlight = nil
        guard let layer else { return }
        let fade = placeholderEnabled ? placeholderFadeDuration : 0
        layer.contentsFadeInDuration = hasContents ? 0 : fade
        layer.contentsScale = scale
        layer.contentsGravity = .scaleToFill
        hasContents = contents != nil
        layer.contents = contents
        applyStateToLayer()
        didApplyDisplayResult()
    }

    /// Main thread, after a display result reached the layer (an image node installs the
    /// animation player its job prepared).
    func didApplyDisplayResult() {}

    // MARK: - Input (added with the input model: Sources/SilkNodes/Input, docs/input.md)
    //
    // The override points the window's `InputDispatcher` calls, all on the main thread, and the
    // little state it keeps on nodes. The defaults decline, so events go on to the supernode.

    private var _isFocusable = false
    private var _trapsFocus = false
    private var _gestureRecognizers: [GestureRecognizer] = []
    /// Main thread: the dispatcher shows keyboard focus as this node's layer border.
    var showsFocusRing = false
    /// Main thread: the dispatcher whose root node this is (the latest made for it), so nodes
    /// and controllers in the tree can move the focus (`inputDispatcher`).
    weak var hostingDispatcher: InputDispatcher?

    /// Whether keyboard focus stays inside this node while it is shown (a modal dialog): Tab and
    /// Shift-Tab cycle through its focusable nodes only, and keys pressed while the focus is
    /// outside it go to it. With several shown, the last in tree order (the frontmost) traps.
    /// `RootController` sets it on each modal while it is presented. Default false. Any thread.
    public var trapsFocus: Bool {
        get { lock.withLock { _trapsFocus } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _trapsFocus = newValue }; return _trapsFocus != newValue }
            // The dispatcher looks traps up on every key press: from this list, not the tree.
            if changed { FocusTraps.update(self, trapping: newValue) }
        }
    }

    /// Whether keyboard focus (Tab / Shift-Tab) can rest on this node. Default false; controls set
    /// it, and `ControlNode` also requires `isEnabled`. Read on the main thread by the dispatcher;
    /// set from any thread.
    open var isFocusable: Bool {
        get { lock.withLock { _isFocusable } }
        set { lock.withLock { _isFocusable = newValue } }
    }

    /// Whether a touch inside this node leaves keyboard focus where it is, instead of moving it to
    /// the touched focusable node or clearing it (an on-screen keyboard). Default false. Read on
    /// the main thread.
    open var touchesKeepFocus: Bool { false }

    /// Recognizers that watch touches beginning on this node or its subnodes (see
    /// `GestureRecognizer`). Any thread.
    public var gestureRecognizers: [GestureRecognizer] { lock.withLock { _gestureRecognizers } }
    /// Attaches `recognizer` to this node: it watches touches that begin on the node or its
    /// subnodes. Adding one twice does nothing. Any thread.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.attach(to: self)
        lock.withLock { if !_gestureRecognizers.contains(where: { $0 === recognizer }) { _gestureRecognizers.append(recognizer) } }
    }
    /// Detaches `recognizer`; touches beginning afterwards no longer reach it. Any thread.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        lock.withLock { _gestureRecognizers.removeAll { $0 === recognizer } }
    }

    /// Main thread. A touch began on this node, or on a subnode that declined it. Return true to
    /// take the touch: its moves, end or cancellation then come to this node alone. Default:
    /// false (the dispatcher offers it to the supernode).
    open func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool { false }
    /// Main thread. A touch this node took moved.
    open func touchesMoved(_ touches: [Touch], with event: InputEvent) {}
    /// Main thread. A touch this node took ended.
    open func touchesEnded(_ touches: [Touch], with event: InputEvent) {}
    /// Main thread. A touch this node took was cancelled (by the system, by a gesture recognizer
    /// that recognized, or because the node left the tree); `event` is nil when no event caused it.
    open func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {}
    /// Main thread. A scroll at `location` (node coordinates) over this node or a subnode that
    /// declined it. Return true to consume it. Default: false.
    open func scrollWheel(_ delta: ScrollDelta, at location: Point, with event: InputEvent) -> Bool { false }
    /// Main thread. A key went down while this node (or a subnode that declined it) had focus.
    /// Return true to consume it; unconsumed Tab and Shift-Tab move the focus.
    open func keyDown(_ key: KeyInput) -> Bool { false }
    /// Main thread. The key-up counterpart of `keyDown(_:)`.
    open func keyUp(_ key: KeyInput) -> Bool { false }
    /// Main thread. Keyboard focus arrived at this node (Tab, a touch, or
    /// `InputDispatcher.focus(_:showsRing:)`).
    open func didBecomeFocused() {}
    /// Main thread. Keyboard focus left this node (Tab, a touch elsewhere, `focus(nil)`, or the
    /// node left the chain).
    open func didResignFocus() {}

    /// Whether `point` (node coordinates) is in the area that takes touches. Default: the bounds
    /// grown (or shrunk) by `hitTestSlop`. Override for other shapes. Main thread.
    open func pointInside(_ point: Point) -> Bool { bounds.inset(by: hitTestSlop).contains(point) }

    /// Converts a point in this node's coordinates into the space its subnodes' frames are in.
    /// Default: the same space. A scrolling container adds its content offset (its bounds
    /// origin) here, and undoes it in `convertFromSubnodeSpace(_:)`; hit testing, touch
    /// locations and focus geometry go through these two. Main thread.
    open func convertToSubnodeSpace(_ point: Point) -> Point { point }
    /// Converts a point in the space the subnodes' frames are in back into this node's coordinates:
    /// the inverse of `convertToSubnodeSpace(_:)`. Main thread.
    open func convertFromSubnodeSpace(_ point: Point) -> Point { point }

    // MARK: Accessibility (the properties are in Accessibility/DisplayNode+Accessibility.swift)

    /// Carries out `action`, asked for by an assistive technology (AT-SPI2's Action and Value
    /// interfaces, talk-back's double tap). Returns whether it was done. Default: false;
    /// `ControlNode` activates. Override to handle increments, scrolling, dismissal or custom
    /// actions. Main thread.
    open func performAccessibilityAction(_ action: AccessibilityAction) -> Bool { false }

    // MARK: Debugging

    /// The node's debug name and frame, and how many subnodes it has.
    open var description: String {
        "<\(debugName) frame: \(frame)\(subnodes.isEmpty ? "" : " subnodes: \(subnodes.count)")>"
    }

    /// The node tree, one line per node, indented. Any thread.
    public var recursiveDescription: String {
        var lines: [String] = []
        func walk(_ n: DisplayNode, _ depth: Int) {
            lines.append(String(repeating: "  ", count: depth) + n.description)
            for c in n.subnodes { walk(c, depth + 1) }
        }
        walk(self, 0)
        return lines.joined(separator: "\n")
    }
}

/// Runs `body` on the pass thread (in an app, the main loop's thread): now if already there,
/// else at the start of the next node pass. For work on no node (a node's own work goes through
/// `DisplayNode.performOnPassThread`, which runs it on the thread of the pass showing the node).
func onPassThread(_ body: @escaping @Sendable () -> Void) {
    NodeScheduler.shared.performOnPassThread(body)
}

extension DisplayNode {
    /// Runs `body` on the pass thread — in an app, the main loop's thread — now when called
    /// there, else at the start of the next node pass: a data source inserting the items a
    /// background fetch brought, say. With two passes on two threads, "the pass thread" is the
    /// thread of the pass showing this node's tree. Any thread.
    public func performOnPassThread(_ body: @escaping @Sendable () -> Void) {
        NodeScheduler.shared.performOnPassThread(owner: self, body)
    }
}
