import SilkGeometry
import SilkLayout

// A kiosk dashboard for measuring grid layout: tiles in a 12-column grid (some spanning two
// columns or rows), each tile an inset around a vertical stack of a title, a value and a
// sparkline, about 1,000 layout elements in all.

/// Measured layout times of the grid dashboard (medians, in seconds).
public struct GridBenchmarkResult: Sendable, CustomStringConvertible {
    public let tiles: Int
    /// Layout elements in the tree (nodes and specs).
    public let elementCount: Int
    public let iterations: Int
    /// Every cache empty: the whole grid laid out.
    public let cold: Double
    /// The fastest cold run.
    public let coldBest: Double

    public var description: String {
        func ms(_ s: Double) -> String { String(Double(Int((s * 1e6).rounded())) / 1000) + " ms" }
        return "grid dashboard: \(tiles) tiles, \(elementCount) elements, median of \(iterations) runs\n"
            + "  cold:                 \(ms(cold))  (fastest \(ms(coldBest)))"
    }
}

/// The dashboard: a root node whose spec is a 12-column grid of `tiles` tile nodes.
public func makeGridDashboard(tiles: Int = 166) -> (root: LayoutNode, leaves: [LayoutNode], elementCount: Int) {
    var leaves: [LayoutNode] = []
    var items: [GridItem] = []
    var tileNodes: [LayoutNode] = []
    for i in 0..<tiles {
        let title = LayoutNode(name: "title") { measureText(characters: 8 + i % 7, in: $0) }
        let value = LayoutNode(name: "value") { measureText(characters: 4, in: $0) }
        var sparkStyle = Style()
        sparkStyle.height = 24
        let spark = LayoutNode(name: "spark", style: sparkStyle, intrinsicSize: Size(width: 60, height: 24))
        let tileLeaves = [title, value, spark]
        leaves += tileLeaves
        let tile = LayoutNode(name: "tile", content: .layoutSpec { _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 8, left: 10, bottom: 8, right: 10),
                            child: StackLayoutSpec.vertical(spacing: 4, children: [title, value, spark]))
        })
        for leaf in tileLeaves { tile.addSubnode(leaf) }
        tileNodes.append(tile)
        items.append(GridItem(tile, column: i % 11 == 0 ? .span(2) : .auto, row: i % 13 == 0 ? .span(2) : .auto))
    }
    let itemsCopy = items
    let root = LayoutNode(name: "dashboard", content: .layoutSpec { _ in
        GridLayoutSpec(columns: Array(repeating: .fr(1), count: 12), autoRows: .auto, columnGap: 8, rowGap: 8,
                       autoFlow: .rowDense, items: itemsCopy)
    })
    for tile in tileNodes { root.addSubnode(tile) }
    // Per tile: the tile node, inset, stack and three leaves; plus the root and its grid.
    return (root, leaves, 2 + tiles * 6)
}

/// Lays out the dashboard at `width` × `height` many times, every cache dropped before each
/// run, and returns the median time.
public func benchmarkGridDashboard(tiles: Int = 166, width: Double = 1920, iterations: Int = 100,
                                   direction: LayoutDirection = .ltr) -> GridBenchmarkResult {
    let (root, leaves, count) = makeGridDashboard(tiles: tiles)
    let range = SizeRange(min: Size(width: width, height: 0), max: Size(width: width, height: .infinity))
    let clock = ContinuousClock()
    func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
    for _ in 0..<3 {
        for leaf in leaves { leaf.invalidateLayout() }
        _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction))
    }
    var cold: [Double] = []
    for _ in 0..<iterations {
        for leaf in leaves { leaf.invalidateLayout() }
        let start = clock.now
        _ = try? root.layoutThatFits(range, context: LayoutContext(direction: direction))
        cold.append(seconds(clock.now - start))
    }
    let sorted = cold.sorted()
    return GridBenchmarkResult(tiles: tiles, elementCount: count, iterations: iterations,
                               cold: sorted[sorted.count / 2], coldBest: sorted.first ?? 0)
}
