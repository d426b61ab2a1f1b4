import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// `silk demo kiosk`: a full-screen dashboard for a wall-mounted touch panel — a header with a
/// clock, photo tiles from the rainforest catalogue (one selected), a scrolling list of exhibits,
/// and buttons. Everything responds to touch, a mouse and keys:
/// - tap a tile or press ←/→ to select; Tab/Shift-Tab focus the buttons, Enter/Space press them;
/// - "Previous"/"Next" move the selection, "Details" opens the selected exhibit in the status line;
/// - the list (a `TableNode`) scrolls with ↑/↓, Page Up/Down, the wheel or a finger drag.
/// Frames are computed from the screen size (any size works; the layout is a fixed grid).
/// Right to left (`rightToLeft: true`, `silk demo kiosk --rtl`) the dashboard is in Hebrew and
/// its root's `style.direction` is `.rtl`: the grid, header and buttons mirror through the
/// absolute spec, text aligns right, and ←/→ swap.
public final class KioskNode: DisplayNode, @unchecked Sendable {
    public static let headerColor = Color(rgb: 0x1b4332)
    public static let backgroundColor = Color(rgb: 0xf1f5ee)
    public let viewport: Size
    public let titleNode = TextNode()
    public let clockNode = TextNode()
    public let statusNode = TextNode()
    public let tiles: [KioskTileNode]
    public let list: KioskListNode
    public let previousButton = ButtonNode()
    public let nextButton = ButtonNode()
    public let detailsButton = ButtonNode()
    public private(set) var selectedIndex = 0
    /// The dashboard's words (English, or Hebrew right to left).
    public let strings: KioskStrings
    /// Called on the main thread whenever the selection or status changes (logs, tests).
    public var onChange: (@Sendable (String) -> Void)?
    /// Called on the main thread when Details is pressed, with the selected exhibit (the kiosk
    /// app pushes its detail screen); nil: Details shows the description in the status line.
    public var onDetails: (@Sendable (Int) -> Void)?

    /// Builds the dashboard for a screen of `viewport` points; call off main if you like (nodes
    /// are thread-safe).
    public init(viewport: Size, rightToLeft: Bool = false) {
        self.viewport = viewport
        let strings = rightToLeft ? KioskStrings.hebrew : KioskStrings.english
        self.strings = strings
        tiles = (0..<4).map { KioskTileNode(title: strings.exhibitTitle($0), photoPath: RainforestCatalog.entries[$0].photoPath, index: $0) }
        list = KioskListNode(items: (0..<40).map { strings.listLine($0) })
        super.init()
        name = "kiosk"
        if rightToLeft { style.direction = .rtl }
        backgroundColor = KioskNode.backgroundColor
        isOpaque = true

        let header = DisplayNode()
        header.backgroundColor = KioskNode.headerColor
        header.isOpaque = true
        titleNode.attributedText = AttributedText(strings.title, attributes: TextAttributes(fontSize: 30, fontWeight: .bold, color: .white))
        statusNode.maximumNumberOfLines = 1
        for (i, b) in [previousButton, nextButton, detailsButton].enumerated() {
            let label = [strings.previous, strings.next, strings.details][i]
            b.setTitle(label, attributes: TextAttributes(fontSize: 20, fontWeight: .bold, color: .white))
            b.setBackgroundColor(Color(rgb: 0x2d6a4f), for: .normal)
            b.setBackgroundColor(Color(rgb: 0x081c15), for: .highlighted)
            b.cornerRadius = 10
            b.contentEdgeInsets = EdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
        }
        previousButton.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in self?.select(((self?.selectedIndex ?? 0) + 3) % 4) }
        nextButton.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in self?.select(((self?.selectedIndex ?? 0) + 1) % 4) }
        detailsButton.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in
            guard let self else { return }
            if let open = self.onDetails { open(self.selectedIndex); return }
            let e = RainforestCatalog.entries[self.selectedIndex]
            self.setStatus("\(self.strings.exhibitTitle(self.selectedIndex)): \(e.description)")
        }
        for t in tiles {
            t.addTarget(for: .primaryActionTriggered) { [weak self, weak t] _, _ in if let t { self?.select(t.index) } }
        }

        // Fixed grid: header, then tiles (2×2) on the left two thirds, list on the right, buttons
        // and the status line at the bottom.
        let W = viewport.width, H = viewport.height, m = 16.0
        let headerH = 72.0, footerH = 72.0
        func place(_ n: DisplayNode, _ r: Rect) {
            n.updateStyle { $0.width = .points(r.width); $0.height = .points(r.height); $0.layoutPosition = r.origin }
            addSubnode(n)
        }
        place(header, Rect(x: 0, y: 0, width: W, height: headerH))
        place(titleNode, Rect(x: m + 8, y: 18, width: W * 0.6, height: 40))
        place(clockNode, Rect(x: W - 200 - m, y: 16, width: 200, height: 44))
        let bodyH = H - headerH - footerH - 2 * m
        let listW = (W * 0.32).rounded()
        let gridW = W - listW - 3 * m
        let tileW = ((gridW - m) / 2).rounded(.down), tileH = ((bodyH - m) / 2).rounded(.down)
        for (i, t) in tiles.enumerated() {
            place(t, Rect(x: m + Double(i % 2) * (tileW + m), y: headerH + m + Double(i / 2) * (tileH + m), width: tileW, height: tileH))
        }
        place(list, Rect(x: W - listW - m, y: headerH + m, width: listW, height: bodyH))
        let by = H - footerH + 10, bh = footerH - 20
        place(previousButton, Rect(x: m, y: by, width: 170, height: bh))
        place(nextButton, Rect(x: m + 186, y: by, width: 150, height: bh))
        place(detailsButton, Rect(x: m + 352, y: by, width: 130, height: bh))
        place(statusNode, Rect(x: m + 500, y: by + 12, width: max(10, W - m - 500 - m), height: bh - 12))
        setClock("--:--:--")
        select(0, announce: false)
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        AbsoluteLayoutSpec(children: subnodes)
    }

    /// Shows `text` in the clock (main thread or any: nodes are thread-safe), aligned to the
    /// header's end edge (CSS `text-align: end`: left when right to left).
    public func setClock(_ text: String) {
        clockNode.attributedText = AttributedText(text, attributes: TextAttributes(
            fontFamily: "DejaVu Sans", fontSize: 32, fontWeight: .bold, color: .white,
            alignment: style.direction == .rtl ? .left : .right))
    }

    public func setStatus(_ text: String) {
        statusNode.attributedText = AttributedText(text, attributes: TextAttributes(fontSize: 18, color: Color(rgb: 0x1b4332)))
        onChange?(text)
    }

    public func select(_ index: Int, announce: Bool = true) {
        selectedIndex = index
        for t in tiles { t.isSelected = t.index == index }
        let status = strings.selected + strings.exhibitTitle(index)
        if announce { setStatus(status) } else {
            statusNode.attributedText = AttributedText(status, attributes: TextAttributes(fontSize: 18, color: Color(rgb: 0x1b4332)))
        }
    }

    public override func keyDown(_ key: KeyInput) -> Bool {
        // Right to left the tiles run leftwards, so ← goes to the next one.
        let forward: Key = style.direction == .rtl ? .left : .right
        switch key.key {
        case .left, .right: select((selectedIndex + (key.key == forward ? 1 : 3)) % 4); return true
        case .up: list.scroll(by: -list.rowHeight); return true
        case .down: list.scroll(by: list.rowHeight); return true
        case .pageUp: list.scroll(by: -list.bounds.height * 0.9); return true
        case .pageDown: list.scroll(by: list.bounds.height * 0.9); return true
        default: return false
        }
    }

    /// "HH:MM:SS" for a date in the local time zone.
    public static func clockText(_ date: Date = Date()) -> String {
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss"
        return f.string(from: date)
    }
}

/// A photo tile: the photo, a caption band with the title; a thick border when selected.
public final class KioskTileNode: ControlNode, @unchecked Sendable {
    public let index: Int
    public let photo = ImageNode()
    /// The exhibit's title on the band at the bottom.
    public let caption = TextNode()
    let band = DisplayNode()
    /// Drawn over the photo: the selection border (a layer border is drawn under the sublayers).
    let selectionFrame = DisplayNode()

    init(title: String, photoPath: String?, index: Int) {
        self.index = index
        super.init()
        name = "tile \(index)"
        backgroundColor = Color(rgb: 0x2d6a4f)
        isOpaque = true
        clipsToBounds = true
        photo.imagePath = photoPath
        photo.contentMode = .aspectFill
        photo.placeholderEnabled = true
        photo.placeholderColor = Color(white: 0.8)
        photo.placeholderFadeDuration = 0
        band.backgroundColor = Color(white: 0, alpha: 0.55)
        caption.attributedText = AttributedText(title, attributes: TextAttributes(fontSize: 22, fontWeight: .bold, color: .white))
        caption.maximumNumberOfLines = 1
        for n in [photo, band, caption, selectionFrame] as [DisplayNode] { n.isUserInteractionEnabled = false; addSubnode(n) }
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let s = constrainedSize.max
        guard s.width.isFinite, s.height.isFinite else { return nil }
        photo.updateStyle { $0.width = .points(s.width); $0.height = .points(s.height); $0.layoutPosition = .zero }
        band.updateStyle { $0.width = .points(s.width); $0.height = .points(48); $0.layoutPosition = Point(x: 0, y: s.height - 48) }
        caption.updateStyle { $0.width = .points(s.width - 24); $0.height = .points(32); $0.layoutPosition = Point(x: 12, y: s.height - 40) }
        selectionFrame.updateStyle { $0.width = .points(s.width); $0.height = .points(s.height); $0.layoutPosition = .zero }
        return AbsoluteLayoutSpec(children: [photo, band, caption, selectionFrame])
    }

    public override func stateDidChange() {
        selectionFrame.borderColor = isSelected ? Color(rgb: 0xffb703) : nil
        selectionFrame.borderWidth = isSelected ? 8 : 0
    }
}

/// The exhibits: a `TableNode` of one-line rows, built by node blocks on background queues and
/// scrolled by the container (finger or pointer drag with a fling, wheel, and the keys the
/// kiosk forwards).
public final class KioskListNode: TableNode, CollectionDataSource, @unchecked Sendable {
    public let rowHeight = 44.0
    let items: [String]

    init(items: [String]) {
        self.items = items
        super.init()
        name = "exhibits"
        backgroundColor = .white
        isOpaque = true
        borderColor = Color(rgb: 0x95a99c)
        borderWidth = 1
        edgeBehavior = .clamped
        dataSource = self
    }

    public func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int { items.count }

    public func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock {
        let text = items[path.item], odd = path.item % 2 == 1, height = rowHeight
        return { KioskRowNode(text: text, odd: odd, height: height) }
    }

    public var offset: Double { contentOffset.y }
    public var contentHeight: Double { contentSize.height }
    public func scroll(by delta: Double) { scroll(by: Point(x: 0, y: delta)) }
    public func scroll(to y: Double) { setContentOffset(Point(x: 0, y: y)) }
}

/// One exhibit: its line of text on a white or pale green row.
final class KioskRowNode: CellNode, @unchecked Sendable {
    let textNode = TextNode()
    init(text: String, odd: Bool, height: Double) {
        super.init()
        name = "row"
        backgroundColor = odd ? Color(rgb: 0xe3ebe0) : .white
        isOpaque = true
        textNode.attributedText = AttributedText(text, attributes: TextAttributes(fontSize: 18, color: Color(rgb: 0x1b4332)))
        textNode.maximumNumberOfLines = 1
        textNode.isUserInteractionEnabled = false
        style.height = .points(height)
        addSubnode(textNode)
    }
    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        InsetLayoutSpec(insets: EdgeInsets(), child: textNode)
    }
}

/// The kiosk dashboard's words in one language: a small table, English and Hebrew (the right-to-
/// left demo). Exhibit titles follow `RainforestCatalog.entries`; descriptions stay English.
public struct KioskStrings: Sendable {
    /// The header's title.
    public let title: String
    /// The three buttons' titles (the arrows point the way the tiles run).
    public let previous, next, details: String
    /// Put before an exhibit's title in the status line.
    public let selected: String
    /// The catalogue's titles, in its order.
    public let exhibits: [String]
    /// The list's words for "hall" and minutes.
    public let hall, minutes: String

    /// The title of catalogue entry `index` (wrapping around).
    public func exhibitTitle(_ index: Int) -> String { exhibits[index % exhibits.count] }

    /// Row `i` of the exhibits list: "1. Title — hall A, 10 min".
    public func listLine(_ i: Int) -> String {
        "\(i + 1). \(exhibitTitle(i)) — \(hall) \(["A", "B", "C", "D"][i % 4]), \(10 + (i * 7) % 50) \(minutes)"
    }

    /// The dashboard in English (left to right).
    public static let english = KioskStrings(
        title: "Silk Botanical Garden", previous: "◀ Previous", next: "Next ▶", details: "Details", selected: "Selected: ",
        exhibits: RainforestCatalog.entries.map(\.title), hall: "hall", minutes: "min")
    /// The dashboard in Hebrew (right to left: "previous" points right, "next" left).
    public static let hebrew = KioskStrings(
        title: "הגן הבוטני של Silk", previous: "▶ הקודם", next: "הבא ◀", details: "פרטים", selected: "נבחר: ",
        exhibits: ["פרת משה רבנו", "עלי מונסון", "עורקי עלה", "חרצית צהובה", "טגטס", "זרעי שן הארי", "טיפת גשם", "עשב חולות"],
        hall: "אולם", minutes: "דק׳")
}

/// `silk snapshot kiosk`: the dashboard once displayed, the clock at `clock` (default 09:41:00
/// or `$SILK_KIOSK_CLOCK`), so that snapshots are reproducible; `rightToLeft`: the Hebrew,
/// mirrored dashboard (`--rtl`).
public enum KioskScene {
    public static let defaultSize = Size(width: 1280, height: 720)
    public static func render(size: Size = defaultSize, scale: Double = 1, clock: String? = nil,
                              rightToLeft: Bool = false) throws -> Bitmap {
        guard RainforestCatalog.entries[0].photoPath != nil else { throw SceneError("kiosk: assets/photos not found") }
        let node = NodeSnapshot.buildInBackground { KioskNode(viewport: size, rightToLeft: rightToLeft) }
        node.setClock(clock ?? ProcessInfo.processInfo.environment["SILK_KIOSK_CLOCK"] ?? "09:41:00")
        return try NodeSnapshot.render(node, size: size, scale: scale, background: KioskNode.backgroundColor)
    }
}
