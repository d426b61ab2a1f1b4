
import SilkGeometry
import SilkSystem

/// A mutable, thread-safe layout element with a cache: the minimal model of a display node.
/// A leaf measures itself with a closure (text: shape for the offered width); a container
/// returns a layout spec for a constrained size (Texture `layoutSpecThatFits:`), whose leaves
/// are usually its subnodes. Changing `style`, or calling `invalidateLayout()`, bumps the
/// version of this node and of every supernode up to the root, so their cached layouts are
/// recomputed while untouched siblings keep theirs.
///
/// `DisplayNode` (a module above) follows the same pattern: one lock for its state, a
/// `LayoutCache` consulted in `calculateLayoutThatFits`, invalidation walking up.
public final class LayoutNode: LayoutElement, DebugNamedElement {
    /// What decides the node's size.
    public enum Content: Sendable {
        /// A leaf: its content size for the offered range (the result is clamped into it).
        case measure(@Sendable (SizeRange) -> Size)
        /// A container: the spec to lay out for the offered range.
        case layoutSpec(@Sendable (SizeRange) -> any LayoutElement)
    }

    private struct State: Sendable {
        var style: Style
        var version: UInt64 = 0
        weak var supernode: LayoutNode?
        var subnodes: [LayoutNode] = []
        /// Cached layouts, under the same lock as the version they belong to.
        var cache = LayoutCacheEntries()
    }

    /// A name for debug output (``debugName``).
    public let name: String
    /// How the node is sized: measured as a leaf, or laid out from its subnodes.
    public let content: Content
    private let state: Locked<State>

    /// A node named `name` with `style` and `content`. Any thread.
    public init(name: String = "node", style: Style = Style(), content: Content) {
        self.name = name; self.content = content
        state = Locked(State(style: style))
    }
    /// A leaf measured by `measure`.
    public convenience init(name: String = "leaf", style: Style = Style(),
                            measure: @escaping @Sendable (SizeRange) -> Size) {
        self.init(name: name, style: style, content: .measure(measure))
    }
    /// A leaf of a fixed intrinsic size.
    public convenience init(name: String = "leaf", style: Style = Style(), intrinsicSize: Size) {
        self.init(name: name, style: style, content: .measure { _ in intrinsicSize })
    }

    /// Read and written under the node's lock; setting it invalidates the layout.
    public var style: Style {
        get { state.withLock { $0.style } }
        set {
            state.withLock { $0.style = newValue }
            invalidateLayout()
        }
    }

    /// Incremented by every invalidation of this node or a subnode.
    public var layoutVersion: UInt64 { state.withLock { $0.version } }
    /// The node this one was added to (weak), or nil.
    public var supernode: LayoutNode? { state.withLock { $0.supernode } }
    /// The nodes added with ``addSubnode(_:)``, in order.
    public var subnodes: [LayoutNode] { state.withLock { $0.subnodes } }

    /// Makes `node` a subnode, so its invalidations reach this node.
    public func addSubnode(_ node: LayoutNode) {
        node.state.withLock { $0.supernode = self }
        state.withLock { $0.subnodes.append(node) }
        invalidateLayout()
    }

    /// Drops the cached layouts of this node and its supernodes, up to the root (each lock is
    /// taken on its own, child before parent, so no two are ever held together).
    public func invalidateLayout() {
        var node: LayoutNode? = self
        while let n = node {
            node = n.state.withLock { s in
                s.version &+= 1
                s.cache.removeAll()
                return s.supernode
            }
        }
    }

    /// Number of cached layouts (for tests and diagnostics).
    public var cachedLayoutCount: Int { state.withLock { $0.cache.count } }

    /// Called on any thread. Returns the cached layout for this range and version, else
    /// measures or lays out the spec and caches the result.
    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        // A layout is cached per direction too (the low bit of the key): the same node mirrors.
        let rtl: UInt64 = context.direction == .rtl ? 1 : 0
        let (version, hit) = state.withLock { s in
            (s.version, s.cache.layout(for: constrainedSize, version: s.version &* 2 &+ rtl, attachedTo: self))
        }
        if let hit { return hit }
        let layout: Layout
        switch content {
        case .measure(let measure):
            layout = Layout(element: self, size: constrainedSize.clamp(measure(constrainedSize)))
        case .layoutSpec(let makeSpec):
            let spec = makeSpec(constrainedSize)
            let sub = try spec.layoutThatFits(constrainedSize, parentSize: constrainedSize.max, context: context)
            layout = Layout(element: self, size: sub.size, sublayouts: [sub])
        }
        // Stored only if no invalidation happened meanwhile (the entry would be stale).
        state.withLock { s in
            if s.version == version {
                // The cache keeps the layout's parts, not the layout naming this node.
                s.cache.store(layout, for: constrainedSize, version: version &* 2 &+ rtl)
            }
        }
        return layout
    }

    /// The node's ``name``.
    public var debugName: String { name }
}
