import SilkGeometry

/// Anything that can be laid out: layout specs (immutable), and nodes (which a module above
/// this one makes conform: `DisplayNode` provides `style` and measures itself or returns a spec).
///
/// Conformers are `Sendable` because layout may run on any thread. A spec is immutable once
/// built; a node reads its own state under its lock inside `calculateLayoutThatFits`.
/// (Texture `ASLayoutElement`.)
public protocol LayoutElement: Sendable {
    /// The properties a parent spec reads: size constraints, flex factors, margins, position.
    var style: Style { get }

    /// The elements this one lays out itself (a spec's children). Nodes return `[]`: each node
    /// is a layout boundary whose subtree is its own business (and its own cache).
    var sublayoutElements: [any LayoutElement] { get }

    /// Computes this element's layout. `constrainedSize` already combines the parent's
    /// constraint with this element's `style` sizes and excludes its padding and border; the
    /// returned `Layout` should have a size inside it and `sublayouts` positioned in this content
    /// box. Leaves measure themselves here (a text node shapes its text for
    /// `constrainedSize.max.width`); a node with a layout spec returns
    /// `try spec.layoutThatFits(constrainedSize, context: context)`.
    ///
    /// Called on any thread, possibly several times per pass with different constraints;
    /// pass `context` on so nesting depth is tracked across node boundaries.
    func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout

    /// `StackLayoutSpec` returns itself, so the flexbox engine can take stacks into its pass
    /// without a dynamic cast on the hot path. Every other element keeps the default, `nil`.
    var stackLayoutSpec: StackLayoutSpec? { get }
}

extension LayoutElement {
    /// None: an element without sub-elements (a leaf) keeps this default.
    public var sublayoutElements: [any LayoutElement] { [] }
    /// Nil: only ``StackLayoutSpec`` returns itself.
    public var stackLayoutSpec: StackLayoutSpec? { nil }

    /// Lays out this element inside `constrainedSize`: resolves `style` (fractions against
    /// `parentSize`, NaN where unknown), then computes the layout. The returned layout's size
    /// lies inside `constrainedSize`; its position is zero (the parent places it).
    /// Throws `LayoutError.nestingTooDeep` for trees deeper than `context.maximumDepth`.
    public func layoutThatFits(_ constrainedSize: SizeRange,
                               parentSize: Size = Size(width: .nan, height: .nan)) throws(LayoutError) -> Layout {
        try layoutThatFits(constrainedSize, parentSize: parentSize, context: LayoutContext())
    }

    /// As `layoutThatFits(_:parentSize:)`, continuing an existing pass (use this from inside
    /// `calculateLayoutThatFits`).
    public func layoutThatFits(_ constrainedSize: SizeRange, parentSize: Size = Size(width: .nan, height: .nan),
                               context: LayoutContext) throws(LayoutError) -> Layout {
        try ElementLayout.layout(self, in: constrainedSize, parentSize: parentSize, context: context)
    }
}

/// Marks the built-in specs, so a `Layout` can be flattened to the elements that are not specs.
public protocol LayoutSpec: LayoutElement {}

/// Why a layout could not be computed.
public enum LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The element tree nests deeper than `LayoutContext.maximumDepth`; laying it out would risk
    /// overflowing a thread's stack.
    case nestingTooDeep(maximumDepth: Int)

    public var description: String {
        switch self {
        case .nestingTooDeep(let d): return "layout tree nests deeper than the maximum depth of \(d)"
        }
    }
}

/// State of one layout pass on one thread: nesting depth, checked against `maximumDepth`.
/// Create one per pass (the `layoutThatFits` overload without a context does), never share it
/// between threads.
public final class LayoutContext {
    /// 128 levels: real interfaces nest a few dozen deep, and a release build uses about
    /// 2.3 KiB of stack per level, so a 128-deep pass (about 300 KiB) fits a 512 KiB worker
    /// thread's stack. Debug builds use about four times as much (see `docs/layout.md`).
    public static let defaultMaximumDepth = 128
    /// The deepest nesting this pass lays out before throwing ``LayoutError/nestingTooDeep(maximumDepth:)``.
    public let maximumDepth: Int
    // `depth`, `direction` and `flexTrees` are read and written around every element laid out,
    // and dynamic exclusivity checks on them cost about 6 % of a cold feed layout. They are
    // unchecked because a context belongs to one pass on one thread and every access is a plain
    // read or write that never spans a call (save, set, restore), so no access can overlap.
    /// Nesting depth of the element being laid out now.
    @exclusivity(unchecked) public internal(set) var depth = 0
    /// The flexbox working tree of each stack laid out in this pass, with its measurement
    /// caches: a stack below a non-stack spec (an inset in a stack in an inset…) is laid out
    /// several times per pass, and without these caches the work would double at each level.
    @exclusivity(unchecked) var flexTrees: [ObjectIdentifier: FlexBox] = [:]
    /// The inline direction inherited by the element being laid out now (`ltr` or `rtl`):
    /// the pass's default direction at the root, then each element's resolved
    /// ``Style/direction`` for its children. A spec's `calculateLayoutThatFits` reads it to
    /// mirror; the engine sets it around every child it lays out.
    @exclusivity(unchecked) public internal(set) var direction: LayoutDirection
    /// Stacks reproduce Yoga where Yoga and the browser disagree (relative offsets on reversed
    /// axes, wrap-reverse padding, absolute children's percentage margins; docs/layout.md,
    /// "Deviations"), for apps ported from Yoga. Default false: the browser's behaviour.
    public let yogaCompatible: Bool

    /// A fresh pass at depth 0 that allows `maximumDepth` levels; `direction` is the default
    /// inline direction of the tree (the app's or the text locale's; `inherit` means `ltr`);
    /// `yogaCompatible` selects Yoga's behaviour where it differs from the browser's.
    public init(maximumDepth: Int = LayoutContext.defaultMaximumDepth, direction: LayoutDirection = .ltr,
                yogaCompatible: Bool = false) {
        self.maximumDepth = maximumDepth
        self.direction = direction == .inherit ? .ltr : direction
        self.yogaCompatible = yogaCompatible
    }

    @inline(__always)
    func checkDepth(_ d: Int) throws(LayoutError) {
        if d > maximumDepth { throw .nestingTooDeep(maximumDepth: maximumDepth) }
    }
}

/// The generic path of `layoutThatFits`: style resolution, padding and border around
/// `calculateLayoutThatFits`. Stacks go to the flexbox engine instead, which handles all of that.
enum ElementLayout {
    static func layout(_ element: some LayoutElement, in range: SizeRange, parentSize: Size,
                       context: LayoutContext) throws(LayoutError) -> Layout {
        let elementStyle = element.style
        if elementStyle.display == .none { return Layout(element: element, size: .zero) }
        if let stack = element.stackLayoutSpec {
            return try FlexBox.layoutRoot(stack, style: elementStyle, in: range, parentSize: parentSize, context: context)
        }
        let depth = context.depth + 1
        try context.checkDepth(depth)
        let savedDirection = context.direction
        let direction = elementStyle.direction.resolved(parent: savedDirection)
        context.depth = depth
        context.direction = direction
        defer { context.depth = depth - 1; context.direction = savedDirection }
        // The style is rewritten only when it has logical edges (a copy per element otherwise).
        if elementStyle.hasLogicalEdges {
            return try layoutBox(element, style: elementStyle.physical(for: direction), in: range,
                                 parentSize: parentSize, context: context)
        }
        return try layoutBox(element, style: elementStyle, in: range, parentSize: parentSize, context: context)
    }

    /// The box of a non-stack element with its physical `style`: size range, padding and border.
    private static func layoutBox(_ element: some LayoutElement, style: Style, in range: SizeRange, parentSize: Size,
                                  context: LayoutContext) throws(LayoutError) -> Layout {
        let resolved = style.sizeRange(parentSize: parentSize).intersection(range)
        let pw = parentSize.width
        let left = paddingAndBorder(style.padding.left, style.border.left, pw)
        let top = paddingAndBorder(style.padding.top, style.border.top, pw)
        let right = paddingAndBorder(style.padding.right, style.border.right, pw)
        let bottom = paddingAndBorder(style.padding.bottom, style.border.bottom, pw)
        if left == 0 && top == 0 && right == 0 && bottom == 0 {
            let content = try element.calculateLayoutThatFits(resolved, context: context)
            let size = resolved.clamp(content.size)
            // An inset spec or a `LayoutNode` (final classes) names itself in every layout it
            // returns, at position zero: when the clamp leaves the size as it is (to the bit),
            // that layout is already this one, and a copy would be an allocation per element.
            let type = ObjectIdentifier(type(of: element))
            if type == ObjectIdentifier(InsetLayoutSpec.self) || type == ObjectIdentifier(LayoutNode.self),
               size.width.bitPattern == content.size.width.bitPattern,
               size.height.bitPattern == content.size.height.bitPattern,
               content.position.x.bitPattern == 0 && content.position.y.bitPattern == 0 {
                return content
            }
            return Layout(element: element, size: size, sublayouts: content.sublayouts,
                          baselines: content.baselines)
        }
        let content = try element.calculateLayoutThatFits(resolved.shrunk(dx: left + right, dy: top + bottom),
                                                          context: context)
        let size = resolved.clamp(Size(width: content.size.width + left + right,
                                       height: content.size.height + top + bottom))
        return Layout(element: element, size: size,
                      sublayouts: content.sublayouts.map { $0.offsetBy(dx: left, dy: top) },
                      baselines: content.baselines.map { LayoutBaselines(first: $0.first + top, last: $0.last + top) })
    }

    @inline(__always)
    static func paddingAndBorder(_ padding: Dimension, _ border: Double, _ parentWidth: Double) -> Double {
        let p = padding.resolve(parentWidth) ?? 0
        return Swift.max(0, p) + Swift.max(0, border)
    }
}
