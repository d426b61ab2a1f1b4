import SilkGeometry
import SilkLayout

// A feed-shaped tree for measuring layout: cells of about ten elements each (a cell node, an
// inset, nested stacks, an avatar and text-sized leaves), as a social feed's cells are.

/// Measured layout times of the feed tree (medians, in seconds).
public struct FeedBenchmarkResult: Sendable, CustomStringConvertible {
    public let cells: Int
    /// Layout elements in the tree (nodes and specs).
    public let elementCount: Int
    public let iterations: Int
    /// Every cache empty: the whole tree laid out.
    public let cold: Double
    /// The same constrained size again: the root's cached layout.
    public let cached: Double
    /// One cell's text changed: that cell and the root are laid out again, other cells come
    /// from their caches.
    public let oneCellInvalidated: Double
    /// The fastest cold run: on a shared machine, the best estimate of the uncontended cost.
    public let coldBest: Double

    /// The direction the tree was laid out in.
    public var direction: LayoutDirection = .ltr

    public var description: String {
        func ms(_ s: Double) -> String { String(Double(Int((s * 1e6).rounded())) / 1000) + " ms" }
        return "feed layout\(direction == .rtl ? " (right-to-left)" : ""): \(cells) cells, \(elementCount) elements, median of \(iterations) runs\n"
            + "  cold:                 \(ms(cold))  (fastest \(ms(coldBest)))\n"
            + "  cached:               \(ms(cached))\n"
            + "  one cell invalidated: \(ms(oneCellInvalidated))"
    }
}

/// A stand-in for shaped text: 7 points per character, 17-point lines, wrapping at the
/// offered width.
public func measureText(characters: Int, in range: SizeRange) -> Size {
    let natural = Double(characters) * 7
    let maxWidth = range.max.width
    if natural <= maxWidth { return Size(width: natural, height: 17) }
    let perLine = max(1, (maxWidth / 7).rounded(.down))
    let lines = (Double(characters) / perLine).rounded(.up)
    return Size(width: min(maxWidth, perLine * 7), height: lines * 17)
}

/// The feed: a root node whose spec is a vertical stack of `cells` cell nodes.
/// Returns the root and the text leaves (to invalidate them).
public func makeFeedTree(cells: Int = 100) -> (root: LayoutNode, leaves: [LayoutNode], elementCount: Int) {
    var leaves: [LayoutNode] = []
    var cellNodes: [LayoutNode] = []
    for i in 0..<cells {
        var avatarStyle = Style()
        avatarStyle.preferredSize = Size(width: 44, height: 44)
        let avatar = LayoutNode(name: "avatar", style: avatarStyle, intrinsicSize: Size(width: 44, height: 44))
        var titleStyle = Style()
        titleStyle.flexShrink = 1
        let titleLength = 12 + i % 9, bodyLength = 40 + (i * 37) % 160
        let title = LayoutNode(name: "title", style: titleStyle) { measureText(characters: titleLength, in: $0) }
        let body = LayoutNode(name: "body") { measureText(characters: bodyLength, in: $0) }
        let like = LayoutNode(name: "like") { measureText(characters: 4, in: $0) }
        let comment = LayoutNode(name: "comment") { measureText(characters: 7, in: $0) }
        let cellLeaves = [avatar, title, body, like, comment]
        leaves += cellLeaves
        let cell = LayoutNode(name: "cell", content: .layoutSpec { _ in
            var columnStyle = Style()
            columnStyle.flexGrow = 1
            columnStyle.flexShrink = 1
            let actions = StackLayoutSpec(direction: .horizontal, spacing: 16, alignItems: .start, children: [like, comment])
            let column = StackLayoutSpec(direction: .vertical, spacing: 4, alignItems: .start, style: columnStyle,
                                         children: [title, body, actions])
            let row = StackLayoutSpec(direction: .horizontal, spacing: 12, alignItems: .start, children: [avatar, column])
            return InsetLayoutSpec(insets: EdgeInsets(top: 12, left: 16, bottom: 12, right: 16), child: row)
        })
        for leaf in cellLeaves { cell.addSubnode(leaf) }
        cellNodes.append(cell)
    }
    let cellsCopy = cellNodes
    let root = LayoutNode(name: "feed", content: .layoutSpec { _ in
        StackLayoutSpec(direction: .vertical, alignItems: .stretch, children: cellsCopy)
    })
    for cell in cellNodes { root.addSubnode(cell) }
    // Per cell: the cell node, inset, row, column, actions stack and five leaves.
    return (root, leaves, 2 + cells * 10)
}

/// Lays out the feed at `width` many times and returns median times: cold (all caches
/// dropped before each run), cached, and after invalidating one cell's text. `direction`
/// lays the same tree out mirrored.
public func benchmarkFeedLayout(cells: Int = 100, width: Double = 375, iterations: Int = 200,
                                direction: LayoutDirection = .ltr) -> FeedBenchmarkResult {
    let (root, leaves, count) = makeFeedTree(cells: cells)
    let range = SizeRange(min: Size(width: width, height: 0), max: Size(width: width, height: .infinity))
    let clock = ContinuousClock()
    func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
    func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

    var cold: [Double] = [], cached: [Double] = [], partial: [Double] = []
    // Warm up code paths and the allocator.
    for _ in 0..<5 {
        for leaf in leaves { leaf.invalidateLayout() }
        _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction))
    }
    for i in 0..<iterations {
        for leaf in leaves { leaf.invalidateLayout() }
        var start = clock.now
        _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction))
        cold.append(seconds(clock.now - start))

        start = clock.now
        _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction))
        cached.append(seconds(clock.now - start))

        leaves[(i * 7 + 2) % leaves.count].invalidateLayout()
        start = clock.now
        _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction))
        partial.append(seconds(clock.now - start))
    }
    var result = FeedBenchmarkResult(cells: cells, elementCount: count, iterations: iterations,
                                     cold: median(cold), cached: median(cached), oneCellInvalidated: median(partial),
                                     coldBest: cold.min() ?? 0)
    result.direction = direction
    return result
}
