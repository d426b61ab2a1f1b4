import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// The rainforest demo's content: a grid of `CardNode`s in a node that scrolls by moving its
/// bounds origin, with a minimal range rule driving the cards' interface states (the containers
/// issue replaces this hand-made list with a CollectionNode and its RangeController):
/// cards within 1 screen ahead and ½ screen behind display; cards on screen are visible.
public final class RainforestListNode: DisplayNode, @unchecked Sendable {
    public let cards: [CardNode]
    public let viewport: Size
    public let columns: Int
    public let cardSize: Size
    public static let spacing = 16.0

    /// Builds `count` cards (cycling the catalogue) on the calling thread; call it off main.
    public init(count: Int, viewport: Size, scale: Double) {
        self.viewport = viewport
        columns = max(1, Int((viewport.width - RainforestListNode.spacing) / (300 + RainforestListNode.spacing)))
        let w = ((viewport.width - Double(columns + 1) * RainforestListNode.spacing) / Double(columns)).rounded(.down)
        cardSize = Size(width: w, height: (w * 7 / 6).rounded())
        let entries = RainforestCatalog.entries
        cards = (0..<max(0, count)).map { CardNode(entry: entries[$0 % entries.count], scale: scale) }
        super.init()
        name = "rainforest"
        backgroundColor = Color(rgb: 0x1f2a22)
        clipsToBounds = true
        for (i, c) in cards.enumerated() {
            let f = frameOfCard(i)
            c.updateStyle {
                $0.width = .points(f.width); $0.height = .points(f.height); $0.layoutPosition = f.origin
            }
            addSubnode(c)
        }
    }

    /// The cards' frames form a fixed grid (set once as their `layoutPosition` for the absolute
    /// spec; the cards lay out their insides with the tutorial's specs).
    public func frameOfCard(_ i: Int) -> Rect {
        let s = RainforestListNode.spacing
        let col = i % columns, row = i / columns
        let x = s + Double(col) * (cardSize.width + s) + (viewport.width - Double(columns) * (cardSize.width + s) - s) / 2
        return Rect(x: x.rounded(), y: s + Double(row) * (cardSize.height + s), width: cardSize.width, height: cardSize.height)
    }

    public var contentHeight: Double {
        let rows = (cards.count + columns - 1) / columns
        return Double(rows) * (cardSize.height + RainforestListNode.spacing) + RainforestListNode.spacing
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        ScrollContentSpec(child: AbsoluteLayoutSpec(sizing: .sizeToFit, children: cards))
    }

    /// The scroll offset (top of the viewport in content coordinates), clamped.
    public private(set) var contentOffset: Double = 0

    /// Scrolls and updates the cards' interface states. Main thread.
    public func scroll(to offset: Double) {
        contentOffset = max(0, min(offset.rounded(), max(0, contentHeight - viewport.height)))
        boundsOrigin = Point(x: 0, y: contentOffset)
        updateRanges()
    }

    /// Cards on screen, by index.
    public func visibleCardIndices() -> [Int] {
        let top = contentOffset, bottom = contentOffset + viewport.height
        return cards.indices.filter { let f = frameOfCard($0); return f.maxY > top && f.minY < bottom }
    }

    public func updateRanges() {
        let h = viewport.height
        let top = contentOffset, bottom = contentOffset + h
        for (i, c) in cards.enumerated() {
            let f = frameOfCard(i)
            var state: InterfaceState = [.measureLayout]
            if f.maxY > top - 1.5 * h && f.minY < bottom + 2.5 * h { state.insert(.preload) }
            if f.maxY > top - 0.5 * h && f.minY < bottom + 1.0 * h { state.insert(.display) }
            if f.maxY > top && f.minY < bottom { state.insert(.visible) }
            if c.interfaceState != state { c.setInterfaceState(state) }
        }
    }
}

/// `silk snapshot rainforest`: the first screen of the rainforest demo once displayed.
public enum RainforestScene {
    public static let defaultSize = Size(width: 1280, height: 720)

    /// Builds the list and measures it on a background queue (text shaping included), as
    /// Texture measures cells off main: the main thread's first pass then finds every layout
    /// in the nodes' caches and only applies frames.
    public static func makeList(count: Int = 200, viewport: Size, scale: Double) -> RainforestListNode {
        NodeSnapshot.buildInBackground {
            let list = RainforestListNode(count: count, viewport: viewport, scale: scale)
            _ = try? list.layoutThatFits(SizeRange(exactly: viewport), parentSize: viewport)
            return list
        }
    }

    public static func render(size: Size = defaultSize, scale: Double = 1, offset: Double = 0) throws -> Bitmap {
        guard RainforestCatalog.entries[0].photoPath != nil else { throw SceneError("rainforest: assets/photos not found") }
        let list = makeList(viewport: size, scale: scale)
        return try NodeSnapshot.render(list, size: size, scale: scale, background: Color(rgb: 0x1f2a22)) { list.scroll(to: offset) }
    }
}

/// Lays its child out with unbounded height, as a vertically scrolling container lays out its
/// content: the node itself stays the viewport's size and the content extends below it.
/// (The containers issue's ScrollNode does this with `automaticallyManagesContentSize`.)
struct ScrollContentSpec: LayoutElement {
    let child: any LayoutElement
    var style: Style { Style() }
    var sublayoutElements: [any LayoutElement] { [child] }

    func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let content = SizeRange(min: Size(width: constrainedSize.min.width, height: 0),
                                max: Size(width: constrainedSize.max.width, height: .infinity))
        let inner = try child.layoutThatFits(content, parentSize: Size(width: constrainedSize.max.width, height: .nan),
                                             context: context)
        return Layout(element: self, size: constrainedSize.clamp(inner.size), sublayouts: [inner])
    }
}
