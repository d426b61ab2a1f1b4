import SilkGeometry

/// Distances from an element's top edge to its first and last text baselines, in points.
public struct LayoutBaselines: Hashable, Sendable {
    /// The first line's baseline, from the top.
    public var first: Double
    /// The last line's baseline, from the top.
    public var last: Double
    /// Baselines at `first` and `last` points from the top.
    public init(first: Double, last: Double) { self.first = first; self.last = last }
}

/// The computed layout of one element: its size, its position in its parent's layout, and the
/// layouts of its sub-elements. An immutable value, safe to hand to any thread.
/// (Texture `ASLayout`.)
public struct Layout: Sendable {
    /// The element, size and sublayouts live in one immutable object, so copying a `Layout`
    /// (which positioning does a lot) is a single retain rather than an existential copy.
    private final class Storage: Sendable {
        let element: any LayoutElement
        let size: Size
        let sublayouts: [Layout]
        let baselines: LayoutBaselines?
        init(element: any LayoutElement, size: Size, sublayouts: [Layout], baselines: LayoutBaselines? = nil) {
            self.element = element; self.size = size; self.sublayouts = sublayouts; self.baselines = baselines
        }
    }
    private let storage: Storage
    /// Top-left corner in the parent layout's coordinates.
    public let position: Point

    /// The element this layout is of (a node or a spec).
    public var element: any LayoutElement { storage.element }
    /// The element's size in points, inside the range it was laid out in.
    public var size: Size { storage.size }
    /// The layouts of the element's sub-elements, positioned in this layout's coordinates.
    public var sublayouts: [Layout] { storage.sublayouts }
    /// The element's first and last text baselines, when it has text (a text node reports them);
    /// stacks align `baselineFirst`/`baselineLast` children by them.
    public var baselines: LayoutBaselines? { storage.baselines }

    /// A layout of `element` at `size`, placed at `position` in its parent, with `sublayouts`
    /// (what a custom ``LayoutElement`` returns from `calculateLayoutThatFits`).
    public init(element: any LayoutElement, size: Size, position: Point = .zero, sublayouts: [Layout] = [],
                baselines: LayoutBaselines? = nil) {
        storage = Storage(element: element, size: size, sublayouts: sublayouts, baselines: baselines)
        self.position = position
    }
    private init(storage: Storage, position: Point) { self.storage = storage; self.position = position }

    /// ``position`` and ``size`` as a rectangle in the parent layout's coordinates.
    public var frame: Rect { Rect(origin: position, size: size) }

    /// The same layout placed at `position`.
    public func positioned(at position: Point) -> Layout {
        Layout(storage: storage, position: position)
    }
    func offsetBy(dx: Double, dy: Double) -> Layout {
        positioned(at: Point(x: position.x + dx, y: position.y + dy))
    }

    /// The layouts of the elements that are not layout specs (nodes, leaves), positioned in this
    /// layout's coordinates, in depth-first order: what a node applies to its subnodes.
    /// A spec with no sublayouts counts as a leaf too. (Texture `filteredNodeLayoutTree`.)
    public func flattened() -> [Layout] {
        var out: [Layout] = []
        for sub in sublayouts { sub.flatten(into: &out, origin: .zero) }
        return out
    }
    private func flatten(into out: inout [Layout], origin: Point) {
        let p = origin + position
        if !(element is any LayoutSpec) || sublayouts.isEmpty {
            out.append(Layout(element: element, size: size, position: p, sublayouts: sublayouts))
            return
        }
        for sub in sublayouts { sub.flatten(into: &out, origin: p) }
    }

    /// Snaps every frame to the device pixel grid the way Yoga does with a point scale factor:
    /// edges are rounded in absolute (root) coordinates, so adjacent frames stay adjacent and a
    /// frame's size is `round(absolute right) − round(absolute left)`; positions are rounded
    /// relative to the parent. A 0.5 fraction rounds up.
    public func roundedToPixelGrid(scale: Double = 1) -> Layout {
        guard scale > 0, scale.isFinite else { return self }
        return rounded(scale: scale, absoluteX: 0, absoluteY: 0)
    }
    private func rounded(scale: Double, absoluteX: Double, absoluteY: Double) -> Layout {
        let absLeft = absoluteX + position.x, absTop = absoluteY + position.y
        let x = roundToPixel(position.x, scale), y = roundToPixel(position.y, scale)
        let w = roundToPixel(absLeft + size.width, scale) - roundToPixel(absLeft, scale)
        let h = roundToPixel(absTop + size.height, scale) - roundToPixel(absTop, scale)
        return Layout(element: element, size: Size(width: w, height: h), position: Point(x: x, y: y),
                      sublayouts: sublayouts.map { $0.rounded(scale: scale, absoluteX: absLeft, absoluteY: absTop) },
                      baselines: baselines)
    }

    /// One line per layout, indented by depth: element name, frame.
    public var recursiveDescription: String {
        var s = ""
        describe(into: &s, indent: 0)
        return s
    }
    private func describe(into s: inout String, indent: Int) {
        s += String(repeating: "  ", count: indent)
        s += "\(elementName(element)) {\(formatPoints(position.x)), \(formatPoints(position.y)), "
        s += "\(formatPoints(size.width))×\(formatPoints(size.height))}\n"
        for sub in sublayouts { sub.describe(into: &s, indent: indent + 1) }
    }
}

/// Yoga's rounding: values within 0.0001 of a pixel edge snap to it, others round half up.
@inline(__always)
func roundToPixel(_ value: Double, _ scale: Double) -> Double {
    let scaled = value * scale
    var fraction = scaled.truncatingRemainder(dividingBy: 1)
    if fraction < 0 { fraction += 1 }
    let base = scaled - fraction
    let r: Double
    if abs(fraction) < 0.0001 { r = base }
    else if abs(fraction - 1) < 0.0001 { r = base + 1 }
    else { r = base + (fraction > 0.5 || abs(fraction - 0.5) < 0.0001 ? 1 : 0) }
    return r / scale
}

/// A short type name for debugging output ("StackLayoutSpec", "LayoutNode").
func elementName(_ element: any LayoutElement) -> String {
    if let named = element as? any DebugNamedElement { return named.debugName }
    return String(describing: type(of: element))
}

/// Elements that describe themselves in ASCII art and layout descriptions.
public protocol DebugNamedElement {
    /// A short name with the interesting properties, e.g. `Stack(row, spacing 8)`.
    var debugName: String { get }
}

// MARK: Caching a layout inside the element it belongs to

extension Layout {
    /// This layout with its root element replaced by a placeholder: what an element keeps in
    /// its own layout cache. A node whose cached layout named the node itself would own itself
    /// (node → cache → layout → node), so no node that was ever laid out could be freed —
    /// found by LeakSanitizer (`make test-asan`, docs/reliability.md). Sublayouts name the
    /// children, which the element owns anyway.
    public var detachedFromElement: Layout {
        Layout(element: DetachedLayoutRoot(), size: size, position: position, sublayouts: sublayouts, baselines: baselines)
    }

    /// A cached (detached) layout given back its element.
    public func attached(to element: any LayoutElement) -> Layout {
        Layout(element: element, size: size, position: position, sublayouts: sublayouts, baselines: baselines)
    }
}

/// Stands in for the element of a cached layout (see `Layout.detachedFromElement`).
struct DetachedLayoutRoot: LayoutElement {
    var style: Style { Style() }
    func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        Layout(element: self, size: .zero)
    }
}
